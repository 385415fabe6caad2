import Glibc
import LeitnerSystem

/// The person's text editor, run in the foreground on files: `$VISUAL`, else `$EDITOR`, else
/// `vi`, as git and crontab choose it. The setting is a shell command (`code --wait`,
/// `emacs -nw`), so it runs as `/bin/sh -c 'EDITOR "$@"' sh FILE…`, the files passed as
/// arguments, never pasted into the command line.
public struct Editor: Sendable {
    /// The shell command that starts the editor.
    public var command: String

    public init(command: String) { self.command = command }

    /// The editor the environment names.
    public static func fromEnvironment() -> Editor {
        for name in ["VISUAL", "EDITOR"] {
            if let value = getenv(name).map({ String(cString: $0) }), !value.allSatisfy(\.isWhitespace) {
                return Editor(command: value)
            }
        }
        return Editor(command: "vi")
    }

    /// Runs the editor on `files` with this terminal, and waits for it. While it runs, Ctrl-C
    /// and Ctrl-\ are the editor's: leitnerctl ignores them, as git does.
    /// - Returns: how the editor ended.
    /// - Throws: `Errno` when the shell cannot be started.
    public func edit(_ files: [String]) throws(Errno) -> ChildProcess.Termination {
        let arguments = ["/bin/sh", "-c", command + " \"$@\"", "sh"] + files
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        // The terminal's three descriptors, nothing else of leitnerctl's.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        ChildProcess.closeInheritedDescriptors(in: &actions)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let oldInterrupt = signal(SIGINT, SIG_IGN)
        let oldQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, oldInterrupt)
            signal(SIGQUIT, oldQuit)
        }
        var pid = pid_t()
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ)
        if result != 0 { throw Errno(rawValue: result) }
        return try ChildProcess.wait(for: pid)
    }
}
