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
        let oldInterrupt = signal(SIGINT, SIG_IGN)
        let oldQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, oldInterrupt)
            signal(SIGQUIT, oldQuit)
        }
        // The terminal's three descriptors, nothing else of leitnerctl's; Ctrl-C is the editor's.
        let pid = try ChildProcess.spawn("/bin/sh", arguments: ["-c", command + " \"$@\"", "sh"] + files,
                                         defaults: .only([SIGINT, SIGQUIT, SIGPIPE]))
        return try ChildProcess.wait(for: pid)
    }
}
