import Glibc

/// An inotify instance watching directories for entries that appear and disappear. The store uses
/// it to take in hand changes (R13) without rescanning: reading it is one non-blocking `read`.
public final class Inotify {
    /// What happened to an entry of a watched directory.
    public struct Event: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// An entry appeared (created, moved in, or a file closed after writing).
            case appeared
            /// An entry went away (deleted or moved out).
            case disappeared
            /// The watched directory itself was removed or moved.
            case watchedDirectoryGone
            /// Events were lost: the kernel's queue overflowed.
            case overflow
        }
        public var watch: Int32
        public var kind: Kind
        public var name: String
        public var isDirectory: Bool
    }

    private let fd: FileDescriptor
    /// Reused for every read: a drain happens before every request.
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    public init() throws(Errno) {
        fd = FileDescriptor(rawValue: try valueOrErrno { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) })
    }

    deinit { fd.close() }

    /// Watches the directory at `path` (not following a final link); returns the watch descriptor.
    /// - Parameter filesWritten: also report a file in it closed after writing (a card's side
    ///   edited in place). Without it only its entries coming, going and renamed are reported,
    ///   which is all a level directory needs; and the kernel then has nothing to mark on each of
    ///   the directory's children when the watch is added: with it, watching levels of 100,000
    ///   cards took 20 ms at start-up, a walk of every card's cached entry (docs/performance.md).
    public func watch(directory path: String, filesWritten: Bool = true) throws(Errno) -> Int32 {
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | (filesWritten ? IN_CLOSE_WRITE : 0)
                          | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW)
        return try valueOrErrno { inotify_add_watch(fd.rawValue, path, mask) }
    }

    /// A handle that can only add watches, for a thread other than the one that drains: an index
    /// built outside the box's turn watches each card directory before it reads it. Adding a
    /// watch is one system call on a descriptor that stays open while a handle holds the
    /// instance; `drain`'s buffer, the instance's only mutable state, is never touched through it.
    public struct Watcher: @unchecked Sendable {
        private let owner: Inotify

        init(owner: Inotify) { self.owner = owner }

        /// `Inotify.watch(directory:)`, from any thread.
        public func watch(directory path: String) throws(Errno) -> Int32 { try owner.watch(directory: path) }
    }

    /// A handle for adding watches from another thread.
    public var watcher: Watcher { Watcher(owner: self) }

    /// Stops watching.
    public func unwatch(_ watch: Int32) {
        _ = inotify_rm_watch(fd.rawValue, watch)
    }

    /// The events queued so far, without waiting.
    public func drain() throws(Errno) -> [Event] {
        var events: [Event] = []
        while true {
            let n: Int
            do {
                n = try valueOrErrno { buffer.withUnsafeMutableBytes { Glibc.read(fd.rawValue, $0.baseAddress, $0.count) } }
            } catch where error == .wouldBlock {
                return events
            }
            if n <= 0 { return events }
            Inotify.parse(buffer[..<n], into: &events)
            // A read that left room for more events emptied the queue: spare the EAGAIN read.
            if n < buffer.count - 4096 { return events }
        }
    }

    static func parse(_ bytes: ArraySlice<UInt8>, into events: inout [Event]) {
        let headerSize = MemoryLayout<inotify_event>.size
        var offset = bytes.startIndex
        while offset + headerSize <= bytes.endIndex {
            let header = bytes.withUnsafeBytes { raw in
                raw.loadUnaligned(fromByteOffset: offset - bytes.startIndex, as: inotify_event.self)
            }
            let nameStart = offset + headerSize
            let nameEnd = nameStart + Int(header.len)
            var name = ""
            if header.len > 0 {
                let raw = bytes[nameStart..<min(nameEnd, bytes.endIndex)]
                name = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            offset = nameEnd
            let mask = header.mask
            let kind: Event.Kind
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                kind = .overflow
            } else if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                kind = .watchedDirectoryGone
            } else if mask & UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE) != 0 {
                kind = .appeared
            } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                kind = .disappeared
            } else {
                continue
            }
            events.append(Event(watch: header.wd, kind: kind, name: name,
                                isDirectory: mask & UInt32(IN_ISDIR) != 0))
        }
    }
}
