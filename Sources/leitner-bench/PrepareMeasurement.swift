import Glibc
import LeitnerCore

/// `Prepare` alone, repeated on one store: each round removes the open test's file, opens the box
/// in this process and opens the test anew, so that the spread shows and a profiler
/// (`perf record -g leitner-bench prepare STORE 20`) sees only this (docs/performance.md).
/// With `newPerDay` (`prepare-new`), the box paces new cards (R23) and each round is a day later,
/// so that every Prepare admits that many cards from `new/` before it makes the queue.
enum PrepareMeasurement {
    static func run(store: String, rounds: Int, newPerDay: Int? = nil) throws {
        let testFile = store + "/" + Box.stateDirectoryName + "/local." + BenchDevice.name + "/test"
        var times: [Double] = []
        var queue = 0
        var admitted = 0
        var firstStatus = 0.0
        var firstWaiting = 0
        // An earlier paced run logged its admissions on the days it moved to: start after the
        // last of them (the log's latest time, which Status gives as the clock being behind).
        var firstDay = 1
        if newPerDay != nil {
            let box = try Box(options: BoxOptions(storePath: store, device: BenchDevice.name))
            if let latest = try box.status().clockBehind {
                firstDay = Int((latest - SystemClock().now()) / 86_400_000) + 2
            }
            box.close()
        }
        for round in 0..<max(1, rounds) {
            unlink(testFile)
            var options = BoxOptions(storePath: store, device: BenchDevice.name,
                                     clock: BenchClock(days: newPerDay == nil ? 0 : firstDay + round))
            options.newPerDay = newPerDay
            let box = try Box(options: options)
            // Status first, as a client asks before its review: it reads the review log for the
            // places (R23, R24) once per box, so the Prepare timed is the admissions and the queue.
            var waiting = 0
            let status = try Timing.secondsThrowing { waiting = try box.status().counts[.new] ?? 0 }
            if round == 0 { (firstStatus, firstWaiting) = (status, waiting) }
            times.append(try Timing.secondsThrowing { queue = try box.prepare().test.remaining })
            admitted += waiting - (try box.status().counts[.new] ?? 0)
            box.close()
        }
        let spread = "\(times.count) rounds  min \(Timing.ms(times.min()!))  p50 \(Timing.ms(Timing.percentile(times, 0.5)))  max \(Timing.ms(times.max()!))"
        if let newPerDay {
            print("Prepare with \(grouped(firstWaiting)) cards in new/: admissions \(admitted) in all, NewPerDay=\(newPerDay) a round (queue of \(queue)), \(spread); "
                  + "the status before the first \(Timing.ms(firstStatus))")
        } else {
            print("Prepare without new cards (queue of \(queue)), \(spread); the status before the first \(Timing.ms(firstStatus))")
        }
    }

    /// 100000 as "100,000", as the figures are written in docs/performance.md.
    static func grouped(_ n: Int) -> String {
        var digits = String(n)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(",", at: index)
        }
        return digits
    }
}
