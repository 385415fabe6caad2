import LeitnerSystem

/// What a card directory and its files looked like, for a card the search index holds without
/// an inotify watch (the watches ran out: `Inotify.limit`, docs/performance.md, "Watches"): before
/// each search the index asks again with a `stat` of the directory and of each file it had
/// (`holds`), and reads the card again when anything differs. A file written in place changes
/// its own times and size; an entry created, removed or renamed over changes the directory's
/// times (and a file renamed over has another inode), so the names taken with the stamp stand
/// while the directory's times do.
///
/// The kernel takes these times from a clock that moves in ticks of some milliseconds, so a write
/// in the same tick as the stamp may leave the same times: a stamp whose newest time is younger
/// than `DirectoryStamp.racyWindow` is never trusted (`holds` says no), so the card is read again
/// until its last change is safely in the past.
struct CardStamp {
    /// The directory's entries, each followed by a slash (no name holds one): one string for the
    /// few names of a card.
    private let names: String
    /// A hash of the directory's and each entry's identity, times and size.
    private let hash: UInt64
    /// False when the newest time was within `racyWindow` of the taking.
    private let settled: Bool

    /// True when the card's directory and files look as they did when the stamp was taken: a
    /// `stat` of each, relative to the level's directory.
    func holds(_ id: String, in level: Level, from source: some CardSource) -> Bool {
        guard let levelFD = source.openFD(level) else { return false }
        return holds(id, in: levelFD)
    }

    /// The stamp of the directory `name` in `parent` (a note's, `notes/` itself; a card's is
    /// taken by the read of its sides, `Taking`), listing it: taken before the directory is read,
    /// so that a change after the read differs from it. Nil when it cannot be opened.
    static func take(_ name: String, in parent: FileDescriptor) -> CardStamp? {
        guard let directory = try? FileDescriptor.openDirectory(name, relativeTo: parent) else { return nil }
        defer { directory.close() }
        guard var taking = Taking(directory) else { return nil }
        try? FileSystem.forEachEntry(directory, fresh: true) { name, _ in taking.listed(name) }
        taking.askUnseen(in: directory)
        return taking.stamp
    }

    /// A stamp taken along with a read of the directory (`CardSource.readSides` with
    /// `stamping`), so that a build opens and lists each card once, not twice: the directory's
    /// `fstat` before its listing, each file the read opens by the `fstat` of its descriptor
    /// before it is read (`seen`), and the others by name right after the listing
    /// (`askUnseen`), before anything is read. Each status is taken before what it stands for is
    /// read, as `take` then a read take them.
    struct Taking {
        /// When the taking began: a time newer than `racyWindow` before it is never trusted.
        private let began: Int64
        private let own: FileStatus
        private var names: [String] = []
        private var statuses: [FileStatus?] = []
        /// Which of `names` have their status (nil when the entry is gone).
        private var asked: [Bool] = []

        /// Begins with the directory's own status; nil when it cannot be looked at.
        init?(_ directory: FileDescriptor) {
            began = RealTime.nanoseconds
            guard let own = try? directory.status() else { return nil }
            self.own = own
        }

        /// An entry, in the listing's order.
        mutating func listed(_ name: String) {
            names.append(name)
            statuses.append(nil)
            asked.append(false)
        }

        /// The status of the entry `name`, from the descriptor the read opened it by, before
        /// reading it. A file the listing did not name is no part of the stamp.
        mutating func seen(_ status: FileStatus, of name: String) {
            guard let index = names.firstIndex(of: name), !asked[index] else { return }
            statuses[index] = status
            asked[index] = true
        }

        /// Asks by name every entry not seen yet, except those `willOpen` says the read opens
        /// (and will see); a file the read was to open and could not stays without a status,
        /// which no later `holds` matches.
        mutating func askUnseen(in directory: FileDescriptor, except willOpen: (String) -> Bool = { _ in false }) {
            for index in names.indices where !asked[index] && !willOpen(names[index]) {
                statuses[index] = try? FileSystem.status(names[index], in: directory)
                asked[index] = true
            }
        }

        var stamp: CardStamp {
            var hasher = StampHasher()
            hasher.add(own)
            var joined = ""
            for (name, status) in zip(names, statuses) {
                joined += name + "/"
                hasher.add(Substring(name), status)
            }
            return CardStamp(names: joined, hash: hasher.value, settled: began - hasher.newest >= DirectoryStamp.racyWindow)
        }
    }

    /// The stamp as bytes, for the search index's arena and its file (`SearchIndexFile`): the
    /// hash, little-endian, then the names. Nil for a stamp never trusted (`settled` false), and
    /// for one whose names pass `maximumEncoded` (a card of many media files): the card is then
    /// read again rather than trusted.
    var encoded: [UInt8]? {
        guard settled, names.utf8.count + 8 <= CardStamp.maximumEncoded else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 + names.utf8.count)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: hash >> UInt64(shift))) }
        bytes.append(contentsOf: names.utf8)
        return bytes
    }

    /// The most bytes `encoded` gives: the search index keeps a stamp's length in a byte.
    static let maximumEncoded = 255 - 1

    /// A stamp from `encoded`'s bytes; nil when they are too few to be one.
    init?(encoded bytes: some Collection<UInt8>) {
        guard bytes.count >= 8 else { return nil }
        var hash: UInt64 = 0
        for (shift, byte) in zip(stride(from: 0, to: 64, by: 8), bytes.prefix(8)) { hash |= UInt64(byte) << UInt64(shift) }
        self.init(names: String(decoding: bytes.dropFirst(8), as: UTF8.self), hash: hash, settled: true)
    }

    private init(names: String, hash: UInt64, settled: Bool) {
        self.names = names
        self.hash = hash
        self.settled = settled
    }

    /// True when the directory `name` in `parent` and its entries look as they did when the stamp
    /// was taken: a `stat` of each.
    func holds(_ name: String, in parent: FileDescriptor) -> Bool {
        guard settled, let own = try? FileSystem.status(name, in: parent) else { return false }
        var hasher = StampHasher()
        hasher.add(own)
        // `name/entry` made in one buffer on the stack, each entry written after `name/` in turn:
        // the notes' first look asks thousands of these beside the store's scan
        // (docs/performance.md, "Cloze notes, media and the voice").
        let prefix = name.utf8.count + 1
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: prefix + names.utf8.count + 1) { path in
            _ = path.initialize(fromContentsOf: name.utf8)
            path[prefix - 1] = UInt8(ascii: "/")
            var from = names.utf8.startIndex
            while from < names.utf8.endIndex {
                let end = names.utf8[from...].firstIndex(of: UInt8(ascii: "/")) ?? names.utf8.endIndex
                // As `split` would, an empty name between two slashes is passed over (no entry has one).
                guard end > from else {
                    from = names.utf8.index(after: end)
                    continue
                }
                var length = prefix
                for byte in names.utf8[from..<end] {
                    path[length] = byte
                    length += 1
                }
                path[length] = 0
                let status = path.withMemoryRebound(to: CChar.self) { try? FileSystem.status(cString: $0.baseAddress!, in: parent) }
                hasher.add(names.utf8[from..<end], status)
                from = end < names.utf8.endIndex ? names.utf8.index(after: end) : end
            }
        }
        return hasher.value == hash
    }
}

/// FNV-1a over what a stamp compares, and the newest time it saw.
private struct StampHasher {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    private(set) var newest: Int64 = 0

    mutating func add(_ number: Int64) {
        var number = UInt64(bitPattern: number)
        for _ in 0..<8 {
            value = (value ^ (number & 0xff)) &* 0x100_0000_01b3
            number >>= 8
        }
    }

    mutating func add(_ status: FileStatus) {
        let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        newest = max(newest, modified, status.changeNanoseconds)
        add(Int64(bitPattern: UInt64(status.st_ino)))
        add(modified)
        add(status.changeNanoseconds)
        add(Int64(status.st_size))
    }

    /// An entry by name; a name gone (nil) hashes apart from any file.
    mutating func add(_ name: Substring, _ status: FileStatus?) {
        add(name.utf8, status)
    }

    /// An entry by the bytes of its name, as `add(_:_:)` of its name.
    mutating func add(_ name: some Collection<UInt8>, _ status: FileStatus?) {
        for byte in name { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        if let status { add(status) } else { add(-1) }
    }
}
