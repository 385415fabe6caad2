import Glibc
import LeitnerSystem

/// Starting a program in the background, in its own session, with its standard input and
/// output on `/dev/null` and its standard error on a log file: how `leitnerctl` starts
/// `leitnerd` (as `gpg` starts `gpg-agent`).
public enum DetachedProcess {
    /// Spawns `path` with `arguments` (not counting `argv[0]`) in a new session.
    /// - Parameters:
    ///   - logPath: the file standard error goes to (appended, created 0600).
    ///   - environment: the child's environment, `NAME=value` each; nil for this process's.
    /// - Returns: the child's pid.
    /// - Throws: `Errno` when the log cannot be opened or the program cannot be started.
    public static func spawn(_ path: String, arguments: [String], logPath: String,
                             environment: [String]? = nil) throws(Errno) -> pid_t {
        // A new session: the daemon outlives this terminal and is not hit by its Ctrl-C.
        try ChildProcess.spawn(path, arguments: arguments, input: .null, output: .null, error: .appending(to: logPath),
                               environment: environment, newSession: true,
                               defaults: .only([SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD]))
    }

    /// This process's environment without libfaketime: `faketime -f +1d leitnerctl status`
    /// fakes the client's clock, and a daemon it starts would otherwise keep tomorrow's clock for
    /// every later client until it exits (the day is the daemon's: README, "Looking at
    /// tomorrow"). `LD_PRELOAD` loses its libfaketime entries; the `FAKETIME…` settings go.
    public static func environmentWithoutFaketime() -> [String] {
        ChildProcess.environment().compactMap { entry in
            if entry.hasPrefix("FAKETIME") || entry.hasPrefix("DONT_FAKE_MONOTONIC=") { return nil }
            guard entry.hasPrefix("LD_PRELOAD=") else { return entry }
            let kept = entry.dropFirst("LD_PRELOAD=".count).split(whereSeparator: { $0 == ":" || $0 == " " })
                .filter { !$0.contains("faketime") }
            return kept.isEmpty ? nil : "LD_PRELOAD=" + kept.joined(separator: ":")
        }
    }

    /// Whether the child `pid` has ended, without waiting; its exit status when it has.
    public static func exitStatus(of pid: pid_t) -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return nil }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
