import Glibc

/// Child processes, through the system-call layer: the daemon's `TestReady=` hook is a shell
/// command started in the background and reaped when it exits.
public enum ChildProcess {
    /// How a child ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        public var description: String {
            switch self {
            case .exited(let code): "exited with status \(code)"
            case .signalled(let signal): "killed by signal \(signal)"
            }
        }
    }

    /// Starts `/bin/sh -c command` without waiting for it: standard input from `/dev/null`,
    /// standard output to the caller's standard error (a daemon's stdout is nobody's), the
    /// caller's environment plus `environment`, every signal unblocked and at its default.
    /// - Parameters:
    ///   - command: the shell command line.
    ///   - environment: variables added to (or replacing those of) the caller's environment.
    /// - Returns: the child's pid, to be reaped with `reap()`.
    /// - Throws: `Errno` when the child cannot be started.
    public static func spawnShell(_ command: String, environment: [String: String]) throws(Errno) -> pid_t {
        try spawn("/bin/sh", arguments: ["-c", command], input: .null, output: .descriptor(2),
                  environment: Self.environment(replacing: environment))
    }

    /// Collects one child that has ended, without waiting.
    /// - Returns: its pid and how it ended, or nil when no child has ended (or there is none).
    public static func reap() throws(Errno) -> (pid: pid_t, termination: Termination)? {
        var status: Int32 = 0
        let pid: pid_t
        do {
            pid = try valueOrErrno { waitpid(-1, &status, WNOHANG) }
        } catch where error.rawValue == ECHILD {
            return nil
        }
        if pid == 0 { return nil }
        // The W* macros are not imported: decode the status word by hand (wait(2)).
        let signal = status & 0x7f
        if signal == 0 { return (pid, .exited((status >> 8) & 0xff)) }
        return (pid, .signalled(signal))
    }

    /// Collects the child `pid` if it has ended, without waiting: a program that starts children
    /// of several kinds (the daemon's hook, its voice) reaps each kind by its own pids.
    /// - Returns: how it ended, or nil while it runs.
    public static func reap(_ pid: pid_t) throws(Errno) -> Termination? {
        var status: Int32 = 0
        guard try valueOrErrno({ waitpid(pid, &status, WNOHANG) }) == pid else { return nil }
        let signal = status & 0x7f
        if signal == 0 { return .exited((status >> 8) & 0xff) }
        return .signalled(signal)
    }

    /// Waits for the child `pid` to end (an editor run in the foreground).
    public static func wait(for pid: pid_t) throws(Errno) -> Termination {
        var status: Int32 = 0
        _ = try valueOrErrno { waitpid(pid, &status, 0) }
        let signal = status & 0x7f
        if signal == 0 { return .exited((status >> 8) & 0xff) }
        return .signalled(signal)
    }
}
