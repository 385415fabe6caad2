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
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        // Nothing of the caller's but these three: a pipe it holds must close when it exits.
        ChildProcess.closeInheritedDescriptors(in: &actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A new session: the daemon outlives this terminal and is not hit by its Ctrl-C.
        // Signals blocked or ignored here are reset for it.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(spawnSetSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp = environment.map { $0.map { strdup($0) } + [nil] }
        defer { for pointer in envp ?? [] { free(pointer) } }
        var pid = pid_t()
        let result = envp.map { envp in posix_spawn(&pid, path, &actions, &attributes, argv, envp) }
            ?? posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        if result != 0 { throw Errno(rawValue: result) }
        return pid
    }

    /// This process's environment without libfaketime: `faketime -f +1d leitnerctl status`
    /// fakes the client's clock, and a daemon it starts would otherwise keep tomorrow's clock for
    /// every later client until it exits (the day is the daemon's: README, "Looking at
    /// tomorrow"). `LD_PRELOAD` loses its libfaketime entries; the `FAKETIME…` settings go.
    public static func environmentWithoutFaketime() -> [String] {
        var result: [String] = []
        var index = 0
        while let entry = environ[index] {
            index += 1
            let text = String(cString: entry)
            if text.hasPrefix("FAKETIME") || text.hasPrefix("DONT_FAKE_MONOTONIC=") { continue }
            if text.hasPrefix("LD_PRELOAD=") {
                let kept = text.dropFirst("LD_PRELOAD=".count).split(whereSeparator: { $0 == ":" || $0 == " " })
                    .filter { !$0.contains("faketime") }
                if !kept.isEmpty { result.append("LD_PRELOAD=" + kept.joined(separator: ":")) }
                continue
            }
            result.append(text)
        }
        return result
    }

    /// Whether the child `pid` has ended, without waiting; its exit status when it has.
    public static func exitStatus(of pid: pid_t) -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return nil }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// `POSIX_SPAWN_SETSID` (glibc 2.26), not exported to Swift by the headers.
    static let spawnSetSID: Int32 = 0x80
}
