import Glibc

/// Modes and ownership, for the daemon's socket and its directory.
extension FileSystem {
    /// Sets the permission bits of `name` in `directory` (following a final link: use on
    /// entries just created).
    public static func changeMode(_ name: String, in directory: FileDescriptor?, to mode: mode_t) throws(Errno) {
        try nothingOrErrno { fchmodat(directory?.rawValue ?? AT_FDCWD, name, mode, 0) }
    }

    /// The effective user id of this process.
    public static var effectiveUserID: uid_t { geteuid() }
}
