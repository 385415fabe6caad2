import Glibc
import Synchronization

/// An inotify instance watching directories for entries that appear and disappear. The store uses
/// it to take in hand changes (R13) without rescanning: reading it is one non-blocking `read`.
public final class Inotify {
    /// What happened to an entry of a watched directory.
    public struct Event: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// An entry appeared (created, moved in), or a file was closed after writing or had its
            /// attributes changed (only where asked for: `watch(directory:filesWritten:)`).
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
    /// The watches this instance holds, counted so that the views' watches (`Watcher`) stop at
    /// `limit`: the kernel's `max_user_watches` is shared by every program of the user, a sync
    /// tool's watcher among them (docs/performance.md, "Watches").
    private let count = Mutex(WatchCount())
    /// The most watches the views may make this instance hold.
    public let limit: Int

    private struct WatchCount {
        /// Watches alive: added with a new descriptor, not yet removed (`IN_IGNORED`).
        var alive = 0
        /// The highest descriptor the kernel gave. It gives them in increasing order (a cyclic
        /// allocator that wraps only past `Int32.max`), and gives a watched directory its old
        /// one again: a descriptor above this one is a new watch.
        var highest: Int32 = 0
        /// True once a view's watch was refused (`limit`, or the kernel's `ENOSPC`).
        var ranOut = false
        /// True once `takeRunOut` said so.
        var told = false
        /// At the limit: the inodes of the directories watched, from the kernel's list, so that a
        /// view still gets the watch another view holds on the same directory (the kernel gives
        /// it again, no new one); nil until needed, and again after a watch was removed.
        var inodes: Set<UInt64>?
    }

    /// - Parameter limit: the most watches the views may make it hold; nil for three quarters of
    ///   the user's `fs.inotify.max_user_watches` (all of it when that cannot be read).
    public init(limit: Int? = nil) throws(Errno) {
        fd = FileDescriptor(rawValue: try valueOrErrno { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) })
        self.limit = limit ?? Inotify.userLimit().map { $0 / 4 * 3 } ?? Int.max
    }

    /// The watches all of the user's inotify instances may hold together: `fs.inotify.max_user_watches`,
    /// or, in a user namespace (a container) since Linux 5.11, its own `user.max_inotify_watches`
    /// when lower; nil when neither can be read.
    public static func userLimit() -> Int? {
        let limits = ["/proc/sys/fs/inotify/max_user_watches", "/proc/sys/user/max_inotify_watches"].compactMap { path -> Int? in
            guard let bytes = try? FileSystem.readFile(atPath: path, limit: 64) else { return nil }
            return Int(String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace })
        }
        return limits.min()
    }

    deinit { fd.close() }

    /// Watches the directory at `path` (not following a final link); returns the watch descriptor.
    /// - Parameter filesWritten: also report a file in it closed after writing (a card's side
    ///   edited in place) or whose mode changed (a side made unreadable, R21). Without it only its entries coming, going and renamed are reported,
    ///   which is all a level directory needs; and the kernel then has nothing to mark on each of
    ///   the directory's children when the watch is added: with it, watching levels of 100,000
    ///   cards took 20 ms at start-up, a walk of every card's cached entry (docs/performance.md).
    public func watch(directory path: String, filesWritten: Bool = true) throws(Errno) -> Int32 {
        let mask = Inotify.mask(filesWritten: filesWritten)
        // Added under the count's lock, so that the descriptors are counted in the order the
        // kernel gave them. Two threads add at once (the search build's two that ask a piece's
        // stamps): taking the lock after the add, the one given 11 could count first, and 10, no
        // longer above the highest, was taken for a directory already watched — a watch the
        // count lost for good, one more let past `limit`. The kernel adds one instance's watches
        // one at a time anyway.
        return try count.withLock { count throws(Errno) -> Int32 in try add(path, mask, &count) }
    }

    /// Adds the watch and counts it, under the count's lock (`watch(directory:)` says why).
    private func add(_ path: String, _ mask: UInt32, _ count: inout WatchCount) throws(Errno) -> Int32 {
        let watch = try valueOrErrno { inotify_add_watch(fd.rawValue, path, mask) }
        if watch > count.highest {
            count.highest = watch
            count.alive += 1
            count.inodes = nil
        }
        return watch
    }

    /// A view's watch (`Watcher`): refused with `noSpace`, without asking the kernel, once the
    /// instance holds `limit` watches; the first refusal is noted for `takeRunOut`. The check and
    /// the add are made under one hold of the count's lock: checked before it, two threads at
    /// `limit - 1` could each find room and each add one, one past the limit.
    fileprivate func viewWatch(directory path: String) throws(Errno) -> Int32 {
        let mask = Inotify.mask(filesWritten: true)
        return try count.withLock { count throws(Errno) -> Int32 in
            if count.alive >= limit {
                // A directory another view watches keeps its one watch: asking costs a `stat`.
                guard let status = try? FileSystem.status(path, in: nil),
                      watchedInodes(&count).contains(UInt64(status.st_ino)) else {
                    count.ranOut = true
                    throw .noSpace
                }
            }
            do throws(Errno) {
                return try add(path, mask, &count)
            } catch where error == .noSpace {
                count.ranOut = true
                throw error
            }
        }
    }

    /// True once a view's watch was refused: some directory a view follows may have no watch,
    /// so a change of its files reaches no one through this instance.
    public var hasRunOut: Bool { count.withLock { $0.ranOut } }

    /// The watches held, when a view's watch was refused for the first time and nobody was told
    /// yet; nil otherwise. Says it once: the caller writes it to its log.
    public func takeRunOut() -> Int? {
        count.withLock { count in
            guard count.ranOut, !count.told else { return nil }
            count.told = true
            return count.alive
        }
    }

    /// The events a watch reports: entries coming, going and renamed, and with `filesWritten`
    /// files closed after writing and modes changed (`watch(directory:filesWritten:)`).
    private static func mask(filesWritten: Bool) -> UInt32 {
        UInt32(IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | (filesWritten ? IN_CLOSE_WRITE | IN_ATTRIB : 0)
               | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW)
    }

    /// Counts the watches again from the kernel's list after an overflow, whose lost events may
    /// have been removals. The list is read under the count's lock, as watches are added: read
    /// before it, a watch another thread added between the read and the count was lost from the
    /// count for good (its descriptor is below `highest` from then on), one more let past `limit`.
    private func recount() {
        count.withLock { count in
            guard let listed = listed() else { return }
            count.alive = listed.count
            count.inodes = nil
        }
    }

    /// The inodes watched, read from the kernel's list when not known; under the count's lock.
    private func watchedInodes(_ count: inout WatchCount) -> Set<UInt64> {
        if let known = count.inodes { return known }
        let inodes = Set(listed() ?? [])
        count.inodes = inodes
        return inodes
    }

    /// The inode of every watch, from `/proc/self/fdinfo/FD`: a line `inotify wd:N ino:HEX …` a
    /// watch.
    private func listed() -> [UInt64]? {
        guard let bytes = try? FileSystem.readFile(atPath: "/proc/self/fdinfo/\(fd.rawValue)") else { return nil }
        let prefix = Array("inotify wd:".utf8)
        var inodes: [UInt64] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) where line.starts(with: prefix) {
            let field = line.split(separator: UInt8(ascii: " ")).first { $0.starts(with: Array("ino:".utf8)) }
            inodes.append(field.flatMap { UInt64(String(decoding: $0.dropFirst(4), as: UTF8.self), radix: 16) } ?? 0)
        }
        return inodes
    }

    /// A handle that can only add watches, for a thread other than the one that drains: an index
    /// built outside the box's turn watches each card directory before it reads it. Adding a
    /// watch is one system call on a descriptor that stays open while a handle holds the
    /// instance; `drain`'s buffer, the instance's only mutable state, is never touched through it.
    public struct Watcher: @unchecked Sendable {
        private let owner: Inotify

        init(owner: Inotify) { self.owner = owner }

        /// `Inotify.watch(directory:)`, from any thread; refused with `noSpace` once the instance
        /// holds its `limit` of watches.
        public func watch(directory path: String) throws(Errno) -> Int32 { try owner.viewWatch(directory: path) }
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
            let removed = Inotify.parse(buffer[..<n], into: &events)
            if removed > 0 {
                count.withLock { count in
                    count.alive -= removed
                    count.inodes = nil
                }
            }
            if events.last?.kind == .overflow { recount() }
            // A read that left room for more events emptied the queue: spare the EAGAIN read.
            if n < buffer.count - 4096 { return events }
        }
    }

    /// - Returns: how many watches the kernel removed (`IN_IGNORED`: the directory went, or
    ///   `unwatch`).
    @discardableResult
    static func parse(_ bytes: ArraySlice<UInt8>, into events: inout [Event]) -> Int {
        var removed = 0
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
            if mask & UInt32(IN_IGNORED) != 0 { removed += 1 }
            let kind: Event.Kind
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                kind = .overflow
            } else if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                kind = .watchedDirectoryGone
            } else if mask & UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ATTRIB) != 0 {
                kind = .appeared
            } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                kind = .disappeared
            } else {
                continue
            }
            events.append(Event(watch: header.wd, kind: kind, name: name,
                                isDirectory: mask & UInt32(IN_ISDIR) != 0))
        }
        return removed
    }
}
