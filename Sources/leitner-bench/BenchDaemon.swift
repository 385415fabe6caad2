import Glibc
import LeitnerSystem

/// A leitnerd of the same build as this leitner-bench, serving a store on a socket of its own,
/// started in the background as a person starts it.
struct BenchDaemon {
    /// The directory of this build's programs.
    static var programs: String {
        String(CommandLine.arguments[0].split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
    }

    private let pidFile: String

    /// Starts it and waits (up to 60 s: a store's first start reads every device's whole log, and a
    /// loaded machine or a debug build takes more than 10 s for two of a million lines) for its
    /// socket; nil when it could not be started.
    static func start(store: String, configuration: String, socket: String) -> BenchDaemon? {
        let pidFile = socket + ".pid"
        unlink(socket)
        guard system("'\(programs)/leitnerd' --config '\(configuration)' --store '\(store)' --socket '\(socket)' >/dev/null 2>&1 & echo $! > '\(pidFile)'") == 0 else {
            return nil
        }
        for _ in 0..<3000 where access(socket, F_OK) != 0 { usleep(20_000) }
        return BenchDaemon(pidFile: pidFile)
    }

    func stop() {
        _ = system("kill $(cat '\(pidFile)') 2>/dev/null; rm -f '\(pidFile)'")
    }

    /// `stop`, then waits (up to 10 s) until the daemon has exited, so that the next one may
    /// take the store's lock.
    func stopAndWait() {
        let pid = (try? FileSystem.readFile(atPath: pidFile)).flatMap { pid_t(String(decoding: $0, as: UTF8.self).filter(\.isNumber)) }
        stop()
        guard let pid else { return }
        for _ in 0..<1000 {
            // Gone, or a zombie its new parent has not reaped yet: either way it holds no lock.
            let state = (try? FileSystem.readFile(atPath: "/proc/\(pid)/stat")).map { String(decoding: $0, as: UTF8.self) }
            if kill(pid, 0) != 0 || state?.contains(") Z ") == true { return }
            usleep(10_000)
        }
    }
}
