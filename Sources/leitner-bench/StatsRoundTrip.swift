import Glibc

/// `leitnerctl stats` as a person runs it: a new leitnerctl process each time, talking to a
/// leitnerd (both from the same build) serving the store. The first call makes the daemon read
/// the whole review log; the next ones are warm.
enum StatsRoundTrip {
    static func run(store: String, in directory: String) {
        let programs = String(CommandLine.arguments[0].split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/"))
        let socket = directory + "/stats.sock"
        let pidFile = directory + "/stats.pid"
        unlink(socket)
        guard system("'\(programs)/leitnerd' --config '\(BenchDevice.configuration(in: directory))' --store '\(store)' --socket '\(socket)' >/dev/null 2>&1 & echo $! > '\(pidFile)'") == 0 else {
            complain("cannot start leitnerd")
            return
        }
        defer { _ = system("kill $(cat '\(pidFile)') 2>/dev/null; rm -f '\(pidFile)'") }
        for _ in 0..<500 where access(socket, F_OK) != 0 { usleep(20_000) }
        let command = "'\(programs)/leitnerctl' --no-autostart --socket '\(socket)' stats >/dev/null"
        let first = Timing.seconds { _ = system(command) }
        let warm = (0..<10).map { _ in Timing.seconds { _ = system(command) } }
        print("leitnerctl stats (a process each)  first \(Timing.ms(first)); warm p50 \(Timing.ms(Timing.percentile(warm, 0.5)))  max \(Timing.ms(warm.max()!))")
    }
}
