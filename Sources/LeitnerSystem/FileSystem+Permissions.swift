import Glibc

/// Modes and ownership, for the daemon's socket and its directory.
extension FileSystem {
    /// Sets the permission bits of `name` in `directory` (following a final link: use on
    /// entries just created).
    public static func changeMode(_ name: String, in directory: FileDescriptor?, to mode: mode_t) throws(Errno) {
        try nothingOrErrno { fchmodat(directory?.rawValue ?? AT_FDCWD, name, mode, 0) }
    }

    /// Runs `body` with the process's file-creation mask set to `mask`, then restores it. The
    /// mask is process-wide: call it while no other thread creates files (start-up).
    public static func withCreationMask<R, E: Error>(_ mask: mode_t, _ body: () throws(E) -> R) throws(E) -> R {
        let previous = umask(mask)
        defer { umask(previous) }
        return try body()
    }

    /// The effective user id of this process.
    public static var effectiveUserID: uid_t { geteuid() }
}

extension FileDescriptor {
    /// Sets `O_NONBLOCK` (a descriptor received from socket activation comes blocking).
    public func setNonBlocking() throws(Errno) {
        let flags = try valueOrErrno { fcntl(rawValue, F_GETFL) }
        if flags & O_NONBLOCK == 0 {
            try nothingOrErrno { fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
        }
    }

    /// The device and inode of the open file (to tell whether two names are one file).
    public func identity() throws(Errno) -> (device: UInt64, inode: UInt64) {
        var st = stat()
        try nothingOrErrno { fstat(rawValue, &st) }
        return (UInt64(st.st_dev), UInt64(st.st_ino))
    }

    /// True when the descriptor is open (`fcntl(F_GETFD)` succeeds): checks an inherited one.
    public var isOpen: Bool { fcntl(rawValue, F_GETFD) != -1 }
}
