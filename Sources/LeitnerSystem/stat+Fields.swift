import Glibc

/// What a caller reads of a `stat` without the C constants: the kind of file, its size and
/// identity.
extension stat {
    /// The kind of file (`st_mode & S_IFMT`), as a directory listing names it.
    public var kind: EntryKind {
        switch st_mode & S_IFMT {
        case S_IFDIR: .directory
        case S_IFREG: .file
        case S_IFLNK: .symlink
        default: .other
        }
    }

    public var isDirectory: Bool { kind == .directory }
    public var isRegularFile: Bool { kind == .file }

    /// The change time (`st_ctim`) in nanoseconds since the epoch: the kernel sets it on any
    /// change to the file or its inode, which no program can set back.
    public var changeNanoseconds: Int64 { Int64(st_ctim.tv_sec) * 1_000_000_000 + Int64(st_ctim.tv_nsec) }

    /// The modification time (`st_mtim`) in milliseconds since the epoch.
    public var modificationMilliseconds: Int64 { Int64(st_mtim.tv_sec) * 1000 + Int64(st_mtim.tv_nsec) / 1_000_000 }
}

/// A file's status as `fstat` and `fstatat` give it, by a name that says so.
public typealias FileStatus = stat
