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
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        closeInheritedDescriptors(in: &actions)

        var attributes = ChildProcess.cleanSignalAttributes()
        defer { posix_spawnattr_destroy(&attributes) }

        var variables: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if environment[name] == nil { variables.append(text) }
            index += 1
        }
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) { variables.append("\(name)=\(value)") }

        let arguments = ["/bin/sh", "-c", command]
        var pid: pid_t = 0
        let result = withCStrings(arguments) { argv in
            withCStrings(variables) { envp in
                posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
            }
        }
        if result != 0 { throw Errno(rawValue: result) }
        return pid
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

    /// Waits for the child `pid` to end (an editor run in the foreground).
    public static func wait(for pid: pid_t) throws(Errno) -> Termination {
        var status: Int32 = 0
        _ = try valueOrErrno { waitpid(pid, &status, 0) }
        let signal = status & 0x7f
        if signal == 0 { return .exited((status >> 8) & 0xff) }
        return .signalled(signal)
    }

    /// Calls `body` with a NULL-terminated array of C strings.
    private static func withCStrings<R>(_ strings: [String],
                                        _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers)
    }

    /// Spawn attributes that give the child no blocked signals and every signal's default
    /// action: the daemon blocks the signals it reads from a signalfd, and a child must not
    /// inherit that. Destroy them with `posix_spawnattr_destroy`.
    static func cleanSignalAttributes() -> posix_spawnattr_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return attributes
    }
}
