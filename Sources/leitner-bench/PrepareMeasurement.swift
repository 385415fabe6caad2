import Glibc
import LeitnerCore

/// `Prepare` alone, repeated on one store: each round removes the open test's file, opens the box
/// in this process and opens the test anew, so that the spread shows and a profiler
/// (`perf record -g leitner-bench prepare STORE 20`) sees only this (docs/performance.md).
/// With `newPerDay` (`prepare-new`), the box paces new cards (R23) and each round is a day later,
/// so that every Prepare admits that many cards from `new/` before it makes the queue. With a
/// `peer` as well (the same store with only the cards its rounds admit in `new/`), the peer is
/// measured in turns with it, on the same days and with the same pacing: the day decides which
/// levels are due, so only a peer on the same days makes a queue of the same size, and with the
/// same admissions (renames and their flush, R17) the ratio between the two is the cost of the
/// cards left waiting alone.
enum PrepareMeasurement {
    static func run(store: String, rounds: Int, newPerDay: Int? = nil, peer: String? = nil) throws {
        var paced = Series(store: store)
        var alone = peer.map { Series(store: $0) }
        // An earlier paced run logged its admissions on the days it moved to: start after the
        // last of them (the log's latest time, which Status gives as the clock being behind), in
        // both stores, so that neither goes back in time.
        var firstDay = 1
        if newPerDay != nil {
            for path in [store] + (peer.map { [$0] } ?? []) {
                let box = try Box(options: BoxOptions(storePath: path, device: BenchDevice.name))
                if let latest = try box.status().clockBehind {
                    firstDay = max(firstDay, Int((latest - SystemClock().now()) / 86_400_000) + 2)
                }
                box.close()
            }
        }
        for round in 0..<max(1, rounds) {
            let days = newPerDay == nil ? 0 : firstDay + round
            try paced.measure(round: round, days: days, newPerDay: newPerDay)
            try alone?.measure(round: round, days: days, newPerDay: newPerDay)
        }
        guard let newPerDay else {
            print("Prepare without new cards (queue of \(paced.queue)), \(paced.spread); the status before the first \(Timing.ms(paced.firstStatus))")
            return
        }
        print("Prepare with \(grouped(paced.firstWaiting)) cards in new/: admissions \(paced.admitted) in all, NewPerDay=\(newPerDay) a round (queue of \(paced.queue)), \(paced.spread); "
              + "the status before the first \(Timing.ms(paced.firstStatus))")
        if let alone {
            let ratio = Timing.ratio(Timing.percentile(paced.times, 0.5), Timing.percentile(alone.times, 0.5))
            print("Prepare of the same store without the cards left waiting, the same days in turns (\(grouped(alone.firstWaiting)) in new/, admissions \(alone.admitted), queue of \(alone.queue)), "
                  + "\(alone.spread); with them \(ratio) at p50")
        }
    }

    /// One store's rounds: each removes the open test's file, opens the box on the round's day
    /// and times its `Prepare`.
    struct Series {
        let store: String
        var times: [Double] = []
        var queue = 0
        var admitted = 0
        var firstStatus = 0.0
        var firstWaiting = 0

        init(store: String) { self.store = store }

        mutating func measure(round: Int, days: Int, newPerDay: Int?) throws {
            unlink(store + "/" + Box.stateDirectoryName + "/local." + BenchDevice.name + "/test")
            var options = BoxOptions(storePath: store, device: BenchDevice.name, clock: BenchClock(days: days))
            options.newPerDay = newPerDay
            let box = try Box(options: options)
            // Status first, as a client asks before its review: it reads the review log for the
            // places (R23, R24) once per box, so the Prepare timed is the admissions and the queue.
            var waiting = 0
            let status = try Timing.secondsThrowing { waiting = try box.status().counts[.new] ?? 0 }
            if round == 0 { (firstStatus, firstWaiting) = (status, waiting) }
            var remaining = 0
            times.append(try Timing.secondsThrowing { remaining = try box.prepare().test.remaining })
            queue = remaining
            admitted += waiting - (try box.status().counts[.new] ?? 0)
            box.close()
        }

        var spread: String {
            "\(times.count) rounds  min \(Timing.ms(times.min()!))  p50 \(Timing.ms(Timing.percentile(times, 0.5)))  max \(Timing.ms(times.max()!))"
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
