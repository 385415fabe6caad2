import Glibc

/// Replacing the running program with another (`execv`): `leitnerctl web` becomes leitner-web,
/// so that the terminal's Ctrl-C and the service manager's signals reach the server itself.
public enum ProgramImage {
    /// Runs `path` with `arguments` (the program's name first) in place of this program, with
    /// the same environment and descriptors (those marked close-on-exec close).
    /// - Returns: only when it failed: why.
    public static func replace(with path: String, arguments: [String]) -> Errno {
        var pointers = arguments.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        execv(path, pointers)
        return Errno.current
    }
}
