import Glibc
import LeitnerSystem
import LeitnerVarlink

/// The first `Status` of a daemon started on a store copied a moment before — a store restored
/// from a backup, or synced whole to a new disk — beside a warm restart of the same copy, in the
/// same run (docs/performance.md, "A store copied, then opened"). Each round copies `store`
/// with `cp -a` (new inodes, new change times, the copy's pages written but perhaps not yet on the
/// disk), starts a leitnerd of the same build on the copy and times the launch to the first
/// `Status` answered; then stops it, starts it again on the same copy and times that; then removes
/// the copy. `store` is opened and closed once first, as a store a daemon has served is.
enum CopyStartMeasurement {
    static func run(store: String, directory: String, rounds: Int) throws {
        mkdir(directory, 0o755)
        let configuration = BenchDevice.configuration(in: directory)
        let socket = directory + "/copy-start.sock"
        let copy = directory + "/copy-start-store"
        /// Starts a daemon on `path`; the seconds from its launch to its first `Status` answered.
        func start(_ path: String) throws -> Double {
            let begun = Timing.now()
            guard let daemon = BenchDaemon.start(store: path, configuration: configuration, socket: socket) else {
                throw BenchFailure("cannot start leitnerd on '\(path)'")
            }
            defer { daemon.stopAndWait() }
            let client = try VarlinkClient(socketPath: socket)
            for _ in 0..<6000 {
                if (try? client.call("io.leitner.Box.Status")) != nil { return Timing.now() - begun }
                usleep(10_000)
            }
            throw BenchFailure("no Status from '\(path)' in a minute")
        }
        let first = try start(store)
        print("copy-start: the store's own start before the rounds \(Timing.ms(first))")
        var copied: [Double] = [], restarted: [Double] = [], copying: [Double] = []
        for _ in 0..<max(1, rounds) {
            _ = system("rm -rf '\(copy)'")
            let began = Timing.now()
            if let reason = copyStore(store, to: copy) { throw BenchFailure("cannot copy '\(store)' to '\(copy)': \(reason)") }
            copying.append(Timing.now() - began)
            copied.append(try start(copy))
            restarted.append(try start(copy))
        }
        _ = system("rm -rf '\(copy)'")
        let warm = Timing.percentile(restarted, 0.5)
        let cold = Timing.percentile(copied, 0.5)
        print("copy-start: cp -a of the store, \(copying.count) copies  p50 \(Timing.ms(Timing.percentile(copying, 0.5)))")
        print("copy-start: first Status, started on the copy made a moment before  min \(Timing.ms(copied.min()!))  p50 \(Timing.ms(cold))  max \(Timing.ms(copied.max()!))  (\(Timing.ratio(cold, warm)) the warm restart)")
        print("copy-start: first Status, the same copy restarted (warm)             min \(Timing.ms(restarted.min()!))  p50 \(Timing.ms(warm))  max \(Timing.ms(restarted.max()!))")
    }
}
