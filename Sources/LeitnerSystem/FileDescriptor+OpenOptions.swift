import Glibc

extension FileDescriptor {
    /// Whether a file is opened to read, to write or both (`O_RDONLY`, `O_WRONLY`, `O_RDWR`):
    /// exactly one of them, so an enum rather than options.
    public enum AccessMode: Sendable {
        case readOnly, writeOnly, readWrite

        var flags: Int32 {
            switch self {
            case .readOnly: O_RDONLY
            case .writeOnly: O_WRONLY
            case .readWrite: O_RDWR
            }
        }
    }

    /// The flags of `open(2)` that callers choose, typed, so that a caller needs no C constant.
    /// `O_CLOEXEC` is not among them: every descriptor is opened close-on-exec.
    public struct OpenOptions: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// Creates the file when missing (`O_CREAT`), with the mode given to `open`.
        public static let create = OpenOptions(rawValue: O_CREAT)
        /// With `create`: fails with `EEXIST` when the name exists, a link included (`O_EXCL`).
        public static let exclusive = OpenOptions(rawValue: O_EXCL)
        /// Cuts the file to nothing (`O_TRUNC`).
        public static let truncate = OpenOptions(rawValue: O_TRUNC)
        /// Every write goes to the end (`O_APPEND`).
        public static let append = OpenOptions(rawValue: O_APPEND)
        /// Fails with `ELOOP` when the name is a symbolic link (`O_NOFOLLOW`).
        public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
        /// Does not block on opening a FIFO or a device (`O_NONBLOCK`).
        public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        /// Fails with `ENOTDIR` unless the name is a directory (`O_DIRECTORY`).
        public static let directory = OpenOptions(rawValue: O_DIRECTORY)
    }

    /// Opens `path` relative to `directory` (or the working directory), close-on-exec.
    public static func open(_ path: String, relativeTo directory: FileDescriptor? = nil, _ access: AccessMode,
                            options: OpenOptions = [], mode: mode_t = 0o644) throws(Errno) -> FileDescriptor {
        try open(path, relativeTo: directory, flags: access.flags | options.rawValue, mode: mode)
    }
}
