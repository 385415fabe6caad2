import Synchronization
import LeitnerSystem

/// The search index kept on disk between daemons, `.leitner/local.DEVICE/search-index`
/// (docs/store-format.md): without it the first search after a start read every card's
/// directory and sides, 1.2 s and more at 100,000 cards; with it a build asks each card's stamp
/// (`CardStamp`, a `stat` of its directory and files) and reads only the cards whose stamps do
/// not hold (`SearchIndex.read`).
///
/// A cache: device-private (a sync tool is told to leave `local.*` out, docs/sync.md), written
/// whole under a temporary name and renamed over the old one, so a crash leaves the old file or
/// the new; losing it costs one build. A file that is short, long, of another version, or whose
/// checksum or lengths do not add up is not used (and is written anew by the next build): it
/// can never give an answer, only spare reads, and only for cards whose stamps hold.
///
/// Layout, little-endian: the 8 bytes `magic`, the number of cards (4 bytes) and the arena's
/// length (8), then 16 bytes a card — its id's, folded id's, front's, back's, tags' and stamp's
/// lengths (2, 2, 4, 4, 2 and 1 bytes) and its level (1) — then the arena (each card's bytes, in
/// that order, as `SearchIndex.Slot` says), then a checksum (8) of everything before it. Only
/// cards with a stamp that may be kept (`SearchIndex.keptStamp`) are written.
enum SearchIndexFile {
    static let fileName = "search-index"
    /// Its version is in the last byte: a build that indexes otherwise (another case folding,
    /// another stamp) changes it, and the older file is not used.
    static let magic: [UInt8] = Array("LTSIDX\u{0}1".utf8)
    static let headerSize = 8 + 4 + 8
    static let slotSize = 16

    /// Writes `index`'s cards that may be kept, durably and atomically (R17, R18).
    static func save(_ index: SearchIndex, in directory: FileDescriptor) throws(Errno) {
        let bytes = encoded(index)
        // Two threads of one process (a build's and the box's close) use one temporary name.
        try writing.withLock { _ throws(Errno) in try FileSystem.writeAtomically(bytes, to: fileName, in: directory, mode: 0o600) }
    }

    private static let writing = Mutex(())

    /// The file in `directory` as an index to take cards from; nil when it is missing or not
    /// one this build wrote whole.
    static func load(in directory: FileDescriptor) -> SearchIndex? {
        guard let bytes = try? FileSystem.readFile(fileName, in: directory) else { return nil }
        return decoded(bytes)
    }

    static func encoded(_ index: SearchIndex) -> [UInt8] {
        var slots: [SearchIndex.Slot] = []
        var arenaLength = 0
        index.forEachKept { slot, _ in
            slots.append(slot)
            arenaLength += slot.size
        }
        var bytes = magic
        bytes.reserveCapacity(headerSize + slots.count * slotSize + arenaLength + 8)
        append(UInt64(slots.count), 4, to: &bytes)
        append(UInt64(arenaLength), 8, to: &bytes)
        for slot in slots {
            append(UInt64(slot.idLength), 2, to: &bytes)
            append(UInt64(slot.foldedIDLength), 2, to: &bytes)
            append(UInt64(slot.frontLength), 4, to: &bytes)
            append(UInt64(slot.backLength), 4, to: &bytes)
            append(UInt64(slot.tagsLength), 2, to: &bytes)
            bytes.append(slot.stampLength)
            bytes.append(slot.level)
        }
        // The same slots in the same order, their bytes after all of them.
        index.forEachKept { _, kept in bytes.append(contentsOf: kept) }
        append(checksum(bytes[...]), 8, to: &bytes)
        return bytes
    }

    static func decoded(_ bytes: [UInt8]) -> SearchIndex? {
        guard bytes.count >= headerSize + 8, bytes.starts(with: magic) else { return nil }
        let count = Int(number(bytes, at: 8, 4))
        // The length is checked as read, before it is made an `Int`: a damaged one with its top
        // bit set would trap there, at every start that builds the index ahead.
        let storedArenaLength = number(bytes, at: 12, 8)
        guard storedArenaLength < UInt64(bytes.count) else { return nil }
        let arenaLength = Int(storedArenaLength)
        let arenaStart = headerSize + count * slotSize
        guard arenaStart + arenaLength + 8 == bytes.count,
              checksum(bytes[..<(bytes.count - 8)]) == number(bytes, at: bytes.count - 8, 8) else { return nil }
        var slots: [SearchIndex.Slot] = []
        slots.reserveCapacity(count)
        var offset = 0
        for index in 0..<count {
            let at = headerSize + index * slotSize
            let level = bytes[at + 15]
            let slot = SearchIndex.Slot(offset: UInt32(offset), idLength: UInt16(number(bytes, at: at, 2)),
                                        foldedIDLength: UInt16(number(bytes, at: at + 2, 2)),
                                        frontLength: UInt32(number(bytes, at: at + 4, 4)),
                                        backLength: UInt32(number(bytes, at: at + 8, 4)),
                                        watch: -1, level: level, stampLength: bytes[at + 14],
                                        tagsLength: UInt16(number(bytes, at: at + 12, 2)))
            // A card without an id or a kept stamp, or of no level, is not one a save wrote.
            guard slot.idLength > 0, slot.stampLength > 9, Level(rawValue: Int(level)) != nil,
                  offset + slot.size <= arenaLength,
                  bytes[arenaStart + offset + slot.size - Int(slot.stampLength)] == SearchIndex.keptStamp else { return nil }
            slots.append(slot)
            offset += slot.size
        }
        guard offset == arenaLength else { return nil }
        return SearchIndex(slots: slots, arena: Array(bytes[arenaStart..<arenaStart + arenaLength]))
    }

    private static func append(_ value: UInt64, _ width: Int, to bytes: inout [UInt8]) {
        for shift in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift * 8))) }
    }

    private static func number(_ bytes: [UInt8], at start: Int, _ width: Int) -> UInt64 {
        var value: UInt64 = 0
        for shift in 0..<width { value |= UInt64(bytes[start + shift]) << UInt64(shift * 8) }
        return value
    }

    /// A 64-bit checksum of `bytes`, 8 at a time (a file of 100,000 cards is some megabytes: a
    /// byte-wise CRC took tens of milliseconds of the first search): it tells damage — a
    /// truncated or torn write, a flipped bit — not an adversary, who could write any card.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { raw -> UInt64 in
            var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(raw.count)
            let words = raw.count / 8
            for index in 0..<words {
                let word = raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
                hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
                hash ^= hash >> 32
            }
            var tail: UInt64 = 0
            for index in (words * 8)..<raw.count { tail = tail << 8 | UInt64(raw[index]) }
            hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
            return hash ^ hash >> 29
        }
    }
}
