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

    /// Marks an open directory as a top of a tree (`FS_TOPDIR_FL`, `chattr +T`): ext4 then
    /// places each directory made in it as it places one made at the file system's root — in
    /// the block group with the fewest directories, rather than in its parent's group — and the
    /// files made in that directory follow it there. The flag changes where inodes go, never
    /// what a name holds.
    /// - Throws: `Errno` where the file system keeps no such flag (`ENOTTY`, `EOPNOTSUPP` on
    ///   tmpfs, XFS, Btrfs …) or the caller does not own the directory.
    public func markTopDirectory() throws(Errno) {
        // FS_IOC_GETFLAGS and FS_IOC_SETFLAGS of <linux/fs.h>, which the C library's module does
        // not carry; the kernel reads and writes an int through them.
        let getFlags: UInt = 0x8008_6601, setFlags: UInt = 0x4008_6602, topDirectory: Int32 = 0x0002_0000
        var flags: Int32 = 0
        try nothingOrErrno { ioctl(rawValue, getFlags, &flags) }
        guard flags & topDirectory == 0 else { return }
        flags |= topDirectory
        try nothingOrErrno { ioctl(rawValue, setFlags, &flags) }
    }
}
