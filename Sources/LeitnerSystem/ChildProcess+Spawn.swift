import Glibc

extension ChildProcess {
    /// Where one of a child's standard descriptors comes from.
    public enum Redirect: Sendable {
        /// The caller's own.
        case inherit
        /// `/dev/null`.
        case null
        /// A file, appended to (created 0600 when missing): a daemon's log.
        case appending(to: String)
        /// A descriptor of the caller's (a pipe's end, or its standard error for a child's output).
        case descriptor(Int32)
    }

    /// Which signals the child starts with at their default action (all of them are unblocked).
    public enum SignalDefaults: Sendable {
        case all
        case only([Int32])
    }

    /// Starts `path` with `arguments` (not counting `argv[0]`): the programs' one call of
    /// `posix_spawn`. The child gets its three standard descriptors as `input`, `output` and
    /// `error` say and no other of the caller's (`closeInheritedDescriptors`), no blocked signal,
    /// and `defaults` at their default action.
    /// - Parameters:
    ///   - searchPath: look `path` up on `PATH` (`posix_spawnp`).
    ///   - environment: `NAME=value` each; nil for the caller's.
    ///   - newSession: in a session of its own (`setsid`): it outlives the caller's terminal
    ///     and is not hit by its Ctrl-C.
    /// - Returns: the child's pid.
    /// - Throws: `Errno` when the child cannot be started (`ENOENT`: no such program).
    public static func spawn(_ path: String, arguments: [String], searchPath: Bool = false,
                             input: Redirect = .inherit, output: Redirect = .inherit, error: Redirect = .inherit,
                             environment: [String]? = nil, newSession: Bool = false,
                             defaults: SignalDefaults = .all) throws(Errno) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (descriptor, redirect) in [(Int32(0), input), (1, output), (2, error)] {
            switch redirect {
            case .inherit: break
            case .null:
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
            case .appending(let file):
                posix_spawn_file_actions_addopen(&actions, descriptor, file, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            case .descriptor(let source):
                posix_spawn_file_actions_adddup2(&actions, source, descriptor)
            }
        }
        closeInheritedDescriptors(in: &actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The daemon blocks the signals it reads from a signalfd, the review SIGWINCH: a child
        // must not inherit that.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var reset = sigset_t()
        switch defaults {
        case .all: sigfillset(&reset)
        case .only(let signals):
            sigemptyset(&reset)
            for signal in signals { sigaddset(&reset, signal) }
        }
        posix_spawnattr_setsigdefault(&attributes, &reset)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (newSession ? spawnSetSID : 0)))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp = environment.map { $0.map { strdup($0) } + [nil] }
        defer { for pointer in envp ?? [] { free(pointer) } }
        var pid = pid_t()
        let result: Int32
        if let envp {
            result = searchPath ? posix_spawnp(&pid, path, &actions, &attributes, argv, envp)
                : posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        } else {
            result = searchPath ? posix_spawnp(&pid, path, &actions, &attributes, argv, environ)
                : posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        }
        if result != 0 { throw Errno(rawValue: result) }
        return pid
    }

    /// This process's environment as `NAME=value` entries, with `replacing` set over it.
    public static func environment(replacing: [String: String] = [:]) -> [String] {
        var variables: [String] = []
        var index = 0
        while let entry = environ[index] {
            index += 1
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if replacing[name] == nil { variables.append(text) }
        }
        for (name, value) in replacing.sorted(by: { $0.key < $1.key }) { variables.append("\(name)=\(value)") }
        return variables
    }

    /// `POSIX_SPAWN_SETSID` (glibc 2.26), not exported to Swift by the headers.
    static let spawnSetSID: Int32 = 0x80
}
