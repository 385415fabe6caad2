import Glibc

/// What a descriptor is and how it behaves, rather than what it holds: blocking mode, identity,
/// whether it is open.
extension FileDescriptor {
    /// Sets `O_NONBLOCK` (a descriptor received from socket activation comes blocking).
    public func setNonBlocking() throws(Errno) {
        let flags = try valueOrErrno { fcntl(rawValue, F_GETFL) }
        if flags & O_NONBLOCK == 0 {
            try nothingOrErrno { fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
        }
    }

    /// The open file's status (`fstat`).
    public func status() throws(Errno) -> stat {
        var st = stat()
        try nothingOrErrno { fstat(rawValue, &st) }
        return st
    }

    /// The device and inode of the open file (to tell whether two names are one file).
    public func identity() throws(Errno) -> (device: UInt64, inode: UInt64) {
        let st = try status()
        return (UInt64(st.st_dev), UInt64(st.st_ino))
    }

    /// True when the descriptor is a regular file (a log file, rather than a terminal, a pipe or
    /// a socket).
    public var isRegularFile: Bool {
        guard let st = try? status() else { return false }
        return st.st_mode & S_IFMT == S_IFREG
    }

    /// True when the descriptor is open (`fcntl(F_GETFD)` succeeds): checks an inherited one.
    public var isOpen: Bool { fcntl(rawValue, F_GETFD) != -1 }
}
