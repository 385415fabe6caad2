import Glibc

/// `leitnerctl stats` as a person runs it: a new leitnerctl process each time, talking to a
/// leitnerd (both from the same build) serving the store. The first call makes the daemon read
/// the whole review log; the next ones are warm.
enum StatsRoundTrip {
    static func run(store: String, in directory: String) {
        let socket = directory + "/stats.sock"
        guard let daemon = BenchDaemon.start(store: store, configuration: BenchDevice.configuration(in: directory), socket: socket) else {
            complain("cannot start leitnerd")
            return
        }
        defer { daemon.stop() }
        let command = "'\(BenchDaemon.programs)/leitnerctl' --no-autostart --socket '\(socket)' stats >/dev/null"
        let first = Timing.seconds { _ = system(command) }
        let warm = (0..<10).map { _ in Timing.seconds { _ = system(command) } }
        print("leitnerctl stats (a process each)  first \(Timing.ms(first)); warm p50 \(Timing.ms(Timing.percentile(warm, 0.5)))  max \(Timing.ms(warm.max()!))")
    }
}
