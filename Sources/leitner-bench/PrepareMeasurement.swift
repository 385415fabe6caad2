import Glibc
import LeitnerCore

/// `Prepare` alone, repeated on one store: each round removes the open test's file, opens the box
/// in this process and opens the test anew, so that the spread shows and a profiler
/// (`perf record -g leitner-bench prepare STORE 20`) sees only this (docs/performance.md).
enum PrepareMeasurement {
    static func run(store: String, rounds: Int) throws {
        let testFile = store + "/" + Box.stateDirectoryName + "/local." + BenchDevice.name + "/test"
        var times: [Double] = []
        var queue = 0
        for _ in 0..<max(1, rounds) {
            unlink(testFile)
            let box = try Box(options: BoxOptions(storePath: store, device: BenchDevice.name))
            times.append(try Timing.secondsThrowing { queue = try box.prepare().test.remaining })
            box.close()
        }
        print("box: prepare (queue of \(queue)), \(times.count) rounds  min \(Timing.ms(times.min()!))  p50 \(Timing.ms(Timing.percentile(times, 0.5)))  max \(Timing.ms(times.max()!))")
    }
}
