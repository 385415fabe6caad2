import Glibc

/// The running process, for names that must not collide with another process's (temporary
/// files, the trash) and for the lock file's pid.
public enum CurrentProcess {
    /// The process id (`getpid`).
    public static var id: Int32 { getpid() }
}
