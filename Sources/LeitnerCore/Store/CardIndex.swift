import Glibc

/// Every card's level, kept compact: the ids' UTF-8 packed one after another in one array, an
/// 8-byte entry per card, and an open-addressed table of 4-byte entry numbers. At 100,000 cards
/// of 20-byte ids that is about 3 MiB, where a `[String: Level]` takes 10: 16-byte keys in a
/// table rounded up to a power of two, and each id longer than 15 bytes a heap allocation of its
/// own (docs/performance.md). It reads like the dictionary it replaces: `index[id]`, iteration
/// as `(key, value)` pairs.
///
/// A removed id leaves its bytes in the arena and a tombstone in the table; both are reclaimed
/// by rebuilding when they make up half.
struct CardIndex: Sequence {
    /// The ids' bytes, back to back.
    private var arena: [UInt8] = []
    /// Per card: the arena offset (bits 0–31), the id's length (bits 32–39: at most
    /// R20's 128 bytes, so callers that take ids from log lines leave longer ones out) and the
    /// level's raw value (bits 40–47; 0 for a removed card).
    private var entries: [UInt64] = []
    /// Entry numbers by hash, linear probing; `empty` or `removed` in a free slot.
    private var slots: [Int32]
    /// Cards in the index.
    private(set) var count = 0
    /// Entries of removed cards.
    private var removed = 0

    private static let empty: Int32 = -1
    private static let tombstone: Int32 = -2

    /// An index with room for `minimumCapacity` cards before it grows.
    init(minimumCapacity: Int = 0) {
        slots = [Int32](repeating: CardIndex.empty, count: CardIndex.slotCount(for: minimumCapacity))
        entries.reserveCapacity(minimumCapacity)
        // Room for ids of 24 bytes on average; pages not written to are not resident.
        arena.reserveCapacity(minimumCapacity * 24)
    }

    var isEmpty: Bool { count == 0 }

    /// Entries made so far, removed ones included: entry numbers are below it.
    var entryCount: Int { entries.count }

    /// The level of the card `id`; setting nil removes it.
    subscript(id: String) -> Level? {
        get {
            var id = id
            return id.withUTF8 { bytes in find(bytes).map { level(of: entries[Int(slots[$0])]) } ?? nil }
        }
        set {
            if let newValue { updateValue(newValue, forKey: id) } else { removeValue(forKey: id) }
        }
    }

    /// Sets the level of `id`; returns the level it had, nil when it was not in the index.
    @discardableResult
    mutating func updateValue(_ level: Level, forKey id: String) -> Level? {
        var id = id
        return id.withUTF8 { bytes in updateValue(level, forBytes: bytes) }
    }

    /// `updateValue(_:forKey:)` for an id given as UTF-8 bytes (the store's scan, straight from
    /// the directory listing).
    ///
    /// The id is hashed once and its slots probed once, for the lookup and the insertion both:
    /// the scan at open inserts every card (docs/performance.md, "Start-up").
    @discardableResult
    mutating func updateValue(_ level: Level, forBytes bytes: UnsafeBufferPointer<UInt8>) -> Level? {
        let hash = CardIndex.hash(bytes)
        let (found, free) = probe(bytes, hash: hash)
        if let found {
            let number = Int(slots[found])
            let old = self.level(of: entries[number])
            entries[number] = entries[number] & 0xFF_FFFF_FFFF | UInt64(level.rawValue) << 40
            return old
        }
        let grows = (count + removed + 1) * 4 > slots.count * 3
        if grows { rebuild(minimumCapacity: (count + 1) * 2) }
        let offset = arena.count
        arena.append(contentsOf: bytes)
        entries.append(UInt64(offset) | UInt64(bytes.count) << 32 | UInt64(level.rawValue) << 40)
        // The first free slot of the probe is where `insertSlot` would put it; a rebuilt table
        // is probed anew.
        if grows { insertSlot(entryNumber: entries.count - 1, hash: hash) } else { slots[free] = Int32(entries.count - 1) }
        count += 1
        return nil
    }

    /// Removes `id`; returns the level it had.
    @discardableResult
    mutating func removeValue(forKey id: String) -> Level? {
        var id = id
        return id.withUTF8 { bytes in removeValue(forBytes: bytes) }
    }

    /// `removeValue(forKey:)` for an id given as UTF-8 bytes (a log line's, read in place).
    @discardableResult
    mutating func removeValue(forBytes bytes: UnsafeBufferPointer<UInt8>) -> Level? {
        guard let slot = find(bytes) else { return nil }
        let number = Int(slots[slot])
        let old = level(of: entries[number])
        entries[number] &= 0xFF_FFFF_FFFF
        slots[slot] = CardIndex.tombstone
        count -= 1
        removed += 1
        if removed > 1024, removed > count { rebuild(minimumCapacity: count) }
        return old
    }

    /// The level of the card whose id's UTF-8 is `bytes`, nil when it is not in the index.
    func level(ofBytes bytes: UnsafeBufferPointer<UInt8>) -> Level? {
        find(bytes).flatMap { level(of: entries[Int(slots[$0])]) }
    }

    /// The entry number of the id whose UTF-8 is `bytes`, nil when it is not in the index.
    func entryNumber(ofBytes bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        find(bytes).map { UInt32(slots[$0]) }
    }

    /// The level in this index of the id that is entry `number` of `other`, nil when this index
    /// does not hold it; no string made. An index copied from this one (an open test's,
    /// `TestIDs`) numbers its ids as this one does until this one is rebuilt: the same entry,
    /// at the same place in an arena holding the same bytes, is the same id, found without
    /// hashing it; any other is looked up by its bytes.
    func level(ofEntry number: UInt32, of other: CardIndex) -> Level? {
        other.withBytes(ofEntry: number) { bytes in
            let slot = Int(number)
            if slot < entries.count, entries[slot] & 0xFF_FFFF_FFFF == other.entries[slot] & 0xFF_FFFF_FFFF {
                let same = arena.withUnsafeBufferPointer { arena in
                    bytes.isEmpty || memcmp(arena.baseAddress! + Int(entries[slot] & 0xFFFF_FFFF), bytes.baseAddress!, bytes.count) == 0
                }
                if same, let level = level(of: entries[slot]) { return level }
            }
            return find(bytes).map { level(of: entries[Int(slots[$0])]) } ?? nil
        }
    }

    /// The entry number of `id`, nil when it is not in the index.
    func entryNumber(of id: String) -> UInt32? {
        var id = id
        return id.withUTF8 { bytes in find(bytes).map { UInt32(slots[$0]) } }
    }

    /// The entry number of `id`, added (at `level`) when missing. Entry numbers never change
    /// while nothing is removed: a rebuild to grow copies the entries in order. So an index that
    /// is only added to numbers ids for good (the open test's, `DailyTest`).
    mutating func intern(_ id: String, level: Level = .one) -> UInt32 {
        if let number = entryNumber(of: id) { return number }
        updateValue(level, forKey: id)
        return UInt32(entries.count - 1)
    }

    /// `intern(_:level:)` for an id given as UTF-8 bytes (an open test made from the store's
    /// index, with no string made per card).
    mutating func intern(bytes: UnsafeBufferPointer<UInt8>, level: Level = .one) -> UInt32 {
        if let slot = find(bytes) { return UInt32(slots[slot]) }
        updateValue(level, forBytes: bytes)
        return UInt32(entries.count - 1)
    }

    /// The ids, in no particular order.
    var keys: [String] { map(\.key) }

    // MARK: Entries, for listings that read ids without making strings of them all

    /// Calls `body` with the number and level of each card's entry.
    func forEachEntry(_ body: (UInt32, Level) -> Void) {
        for (number, entry) in entries.enumerated() {
            if let level = level(of: entry) { body(UInt32(number), level) }
        }
    }

    /// Calls `body` with the number, level and id's UTF-8 bytes of each card's entry at one of
    /// `levels` (every level when nil), in entry order: the ids read front to back where they
    /// lie, valid during the call only. An entry at another level is passed over by one test of
    /// its level's bit: a test's queue walks every entry, and 100,000 cards waiting in `new/`
    /// doubled what it passed over (docs/performance.md, "The least ids of `new/`, kept").
    func forEachEntryWithBytes(at levels: [Level]? = nil, _ body: (UInt32, Level, UnsafeBufferPointer<UInt8>) -> Void) {
        // Bit n for the level of raw value n; bit 0, a removed entry's, never set.
        let mask = levels.map { $0.reduce(UInt64(0)) { $0 | 1 << UInt64($1.rawValue) } } ?? ~UInt64(1)
        entries.withUnsafeBufferPointer { entries in
            arena.withUnsafeBufferPointer { arena in
                for (number, entry) in entries.enumerated() where mask &>> (entry >> 40 & 0xFF) & 1 != 0 {
                    guard let level = level(of: entry) else { continue }
                    let offset = Int(entry & 0xFFFF_FFFF), length = Int(entry >> 32 & 0xFF)
                    body(UInt32(number), level, UnsafeBufferPointer(rebasing: arena[offset..<offset + length]))
                }
            }
        }
    }

    /// The id of an entry (alive or removed).
    func id(ofEntry number: UInt32) -> String {
        let entry = entries[Int(number)]
        let offset = Int(entry & 0xFFFF_FFFF), length = Int(entry >> 32 & 0xFF)
        return arena.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[offset..<offset + length]), as: UTF8.self) }
    }

    /// The level of an entry; nil once it is removed.
    func level(ofEntry number: UInt32) -> Level? { level(of: entries[Int(number)]) }

    /// Calls `body` with the UTF-8 bytes of an entry's id, valid during the call only.
    func withBytes<R>(ofEntry number: UInt32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let entry = entries[Int(number)]
        let offset = Int(entry & 0xFFFF_FFFF), length = Int(entry >> 32 & 0xFF)
        return arena.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[offset..<offset + length])) }
    }

    /// Where an entry's id lies in the bytes `withArenaBytes` gives.
    func span(ofEntry number: UInt32) -> (offset: Int, length: Int) {
        let entry = entries[Int(number)]
        return (Int(entry & 0xFFFF_FFFF), Int(entry >> 32 & 0xFF))
    }

    /// The ids' bytes, back to back (see `span(ofEntry:)`), as a value of their own: it shares
    /// the index's storage until the index adds an id, and not the entries, which every change
    /// of a level rewrites. What holds ids beyond the box's turn (a listing's batch while its
    /// reply is sent) holds these, so that the box's next grade does not copy the entries for it.
    var idBytes: [UInt8] { arena }

    /// Calls `body` with the ids' bytes, back to back (see `span(ofEntry:)`).
    func withArenaBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        arena.withUnsafeBufferPointer(body)
    }

    /// True when the id of entry `a` comes before that of entry `b` in byte order (for NFC ids,
    /// the order of `String`'s `<`).
    func entry(_ a: UInt32, precedes b: UInt32) -> Bool {
        let x = entries[Int(a)], y = entries[Int(b)]
        let xOffset = Int(x & 0xFFFF_FFFF), xLength = Int(x >> 32 & 0xFF)
        let yOffset = Int(y & 0xFFFF_FFFF), yLength = Int(y >> 32 & 0xFF)
        return arena.withUnsafeBufferPointer { base in
            let order = memcmp(base.baseAddress! + xOffset, base.baseAddress! + yOffset, Swift.min(xLength, yLength))
            return order != 0 ? order < 0 : xLength < yLength
        }
    }

    /// The entries at `level` whose ids come first in byte order, at most `limit` of them, in
    /// that order. A day's admissions (R23) are a few cards of a `new/` that may hold 100,000:
    /// those few are kept in a heap of `limit` as the entries go by, compared where their bytes
    /// lie, with no string made and no sort of them all (docs/performance.md, "Admissions"). A
    /// heap, not a sorted array, so that entries met in falling order (a listing in the order
    /// the cards were made, made in falling order) cost a logarithm each, not a move of all
    /// those kept. A large limit sorts them all.
    func leastEntries(_ limit: Int, at level: Level) -> [UInt32] {
        guard limit > 0 else { return [] }
        let raw = UInt64(level.rawValue)
        return entries.withUnsafeBufferPointer { entries in
            arena.withUnsafeBufferPointer { arena -> [UInt32] in
                func less(_ x: UInt64, _ y: UInt64) -> Bool {
                    let xLength = Int(x >> 32 & 0xFF), yLength = Int(y >> 32 & 0xFF)
                    let common = Swift.min(xLength, yLength)
                    // Bytes to compare are in the arena, so it has a base address then.
                    let order = common == 0 ? 0 : memcmp(arena.baseAddress! + Int(x & 0xFFFF_FFFF),
                                                         arena.baseAddress! + Int(y & 0xFFFF_FFFF), common)
                    return order != 0 ? order < 0 : xLength < yLength
                }
                func precedes(_ a: UInt32, _ b: UInt32) -> Bool { less(entries[Int(a)], entries[Int(b)]) }
                if limit > 4096 {
                    var all: [UInt32] = []
                    for number in entries.indices where entries[number] >> 40 & 0xFF == raw { all.append(UInt32(number)) }
                    return Array(all.sorted(by: precedes).prefix(limit))
                }
                // The first eight bytes of an id as one big-endian integer, zero-padded (no id
                // holds a zero byte): of two ids whose keys differ, the one with the lesser key
                // comes first, so only equal keys need their bytes compared.
                func key(_ x: UInt64) -> UInt64 {
                    let length = Int(x >> 32 & 0xFF)
                    let start = arena.baseAddress! + Int(x & 0xFFFF_FFFF)
                    guard length < 8 else { return UInt64(bigEndian: UnsafeRawPointer(start).loadUnaligned(as: UInt64.self)) }
                    var key: UInt64 = 0
                    for index in 0..<8 { key = key << 8 | UInt64(index < length ? start[index] : 0) }
                    return key
                }
                // A max-heap: the greatest kept at the top, each no less than its children. Given
                // as a parameter, not captured: a captured variable is boxed, and every read of it
                // in the loop over 100,000 entries an access check.
                func siftUp(_ heap: inout [UInt32], from: Int) {
                    var child = from
                    while child > 0, precedes(heap[(child - 1) / 2], heap[child]) {
                        heap.swapAt(child, (child - 1) / 2)
                        child = (child - 1) / 2
                    }
                }
                func siftDown(_ heap: inout [UInt32]) {
                    var parent = 0
                    while true {
                        let left = 2 * parent + 1, right = left + 1
                        var greatest = parent
                        if left < heap.count, precedes(heap[greatest], heap[left]) { greatest = left }
                        if right < heap.count, precedes(heap[greatest], heap[right]) { greatest = right }
                        if greatest == parent { return }
                        heap.swapAt(parent, greatest)
                        parent = greatest
                    }
                }
                var kept: [UInt32] = []
                kept.reserveCapacity(limit)
                // The key of the greatest kept, once `limit` are kept.
                var bound = UInt64.max
                for number in entries.indices where entries[number] >> 40 & 0xFF == raw {
                    let entry = entries[number]
                    guard kept.count == limit else {
                        kept.append(UInt32(number))
                        siftUp(&kept, from: kept.count - 1)
                        if kept.count == limit { bound = key(entries[Int(kept[0])]) }
                        continue
                    }
                    // Most entries are no less than the greatest kept: one comparison of integers
                    // each, and of bytes on a tie (a call and a read of both ids, per entry, took
                    // most of the walk of 100,000 cards in `new/`).
                    let entryKey = key(entry)
                    if entryKey > bound || entryKey == bound && !less(entry, entries[Int(kept[0])]) { continue }
                    kept[0] = UInt32(number)
                    siftDown(&kept)
                    bound = key(entries[Int(kept[0])])
                }
                return kept.sorted(by: precedes)
            }
        }
    }

    /// The first sixteen bytes of an entry's id as two big-endian integers, zero-padded (no id
    /// holds a NUL byte): ordered as the ids' bytes are, for sorting by integers and comparing
    /// bytes only on a tie. Sixteen, not eight: ids made from words or numbers often share their
    /// first eight bytes (`card-123…`), and each tie was a `memcmp` in the arena.
    func prefixKey(ofEntry number: UInt32) -> (high: UInt64, low: UInt64) {
        let entry = entries[Int(number)]
        let offset = Int(entry & 0xFFFF_FFFF), length = Int(entry >> 32 & 0xFF)
        return arena.withUnsafeBufferPointer { arena in
            var high: UInt64 = 0, low: UInt64 = 0
            for index in 0..<8 { high = high << 8 | UInt64(index < length ? arena[offset + index] : 0) }
            for index in 8..<16 { low = low << 8 | UInt64(index < length ? arena[offset + index] : 0) }
            return (high, low)
        }
    }

    // MARK: Sequence

    struct Iterator: IteratorProtocol {
        fileprivate let index: CardIndex
        fileprivate var position = 0

        mutating func next() -> (key: String, value: Level)? {
            while position < index.entries.count {
                let number = position
                position += 1
                if let level = index.level(of: index.entries[number]) {
                    return (index.id(ofEntry: UInt32(number)), level)
                }
            }
            return nil
        }
    }

    func makeIterator() -> Iterator { Iterator(index: self) }

    var underestimatedCount: Int { count }

    // MARK: The table

    private func level(of entry: UInt64) -> Level? { Level(rawValue: Int(entry >> 40 & 0xFF)) }

    /// The slot holding `bytes`, nil when they are not in the index.
    private func find(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        probe(bytes, hash: CardIndex.hash(bytes)).found
    }

    /// The slot holding `bytes` (nil when they are not in the index) and the first slot of their
    /// probe that holds no entry (empty or a tombstone), where they would be inserted.
    private func probe(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (found: Int?, free: Int) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        var free = -1
        return arena.withUnsafeBufferPointer { base in
            while true {
                let number = slots[slot]
                if number == CardIndex.empty { return (nil, free < 0 ? slot : free) }
                if number >= 0 {
                    let entry = entries[Int(number)]
                    let length = Int(entry >> 32 & 0xFF)
                    if length == bytes.count,
                       length == 0 || memcmp(base.baseAddress! + Int(entry & 0xFFFF_FFFF), bytes.baseAddress!, length) == 0 {
                        return (slot, free)
                    }
                } else if free < 0 {
                    free = slot
                }
                slot = (slot + 1) & mask
            }
        }
    }

    private mutating func insertSlot(entryNumber: Int, hash: UInt64) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(entryNumber)
    }

    /// Packs the live entries and their bytes anew, in a table sized for `minimumCapacity`.
    private mutating func rebuild(minimumCapacity: Int) {
        var packed = CardIndex(minimumCapacity: Swift.max(minimumCapacity, count))
        arena.withUnsafeBufferPointer { base in
            for entry in entries {
                guard let level = level(of: entry) else { continue }
                let offset = Int(entry & 0xFFFF_FFFF), length = Int(entry >> 32 & 0xFF)
                packed.updateValue(level, forBytes: UnsafeBufferPointer(rebasing: base[offset..<offset + length]))
            }
        }
        self = packed
    }

    /// Slots for `capacity` cards at a load of at most three quarters: a power of two.
    private static func slotCount(for capacity: Int) -> Int {
        var slots = 16
        while slots * 3 < capacity * 4 { slots *= 2 }
        return slots
    }

    /// A 64-bit hash of an id's bytes, eight at a time (ids are short; a card's id is not chosen
    /// to collide, and a collision costs a longer probe, never a wrong answer).
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var index = 0
        while index + 8 <= bytes.count {
            var chunk: UInt64 = 0
            memcpy(&chunk, bytes.baseAddress! + index, 8)
            hash = (hash ^ chunk) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 32
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.count {
            tail |= UInt64(bytes[index]) << shift
            shift += 8
            index += 1
        }
        hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 29
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        return hash ^ hash >> 32
    }
}
