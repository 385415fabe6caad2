import Glibc

/// A leitnerd of the same build as this leitner-bench, serving a store on a socket of its own,
/// started in the background as a person starts it.
struct BenchDaemon {
    /// The directory of this build's programs.
    static var programs: String {
        String(CommandLine.arguments[0].split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
    }

    private let pidFile: String

    /// Starts it and waits (up to 10 s) for its socket; nil when it could not be started.
    static func start(store: String, configuration: String, socket: String) -> BenchDaemon? {
        let pidFile = socket + ".pid"
        unlink(socket)
        guard system("'\(programs)/leitnerd' --config '\(configuration)' --store '\(store)' --socket '\(socket)' >/dev/null 2>&1 & echo $! > '\(pidFile)'") == 0 else {
            return nil
        }
        for _ in 0..<500 where access(socket, F_OK) != 0 { usleep(20_000) }
        return BenchDaemon(pidFile: pidFile)
    }

    func stop() {
        _ = system("kill $(cat '\(pidFile)') 2>/dev/null; rm -f '\(pidFile)'")
    }
}
