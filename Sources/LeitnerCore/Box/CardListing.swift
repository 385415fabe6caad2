import Glibc

/// A `List` in progress: the ids of the cards to list, taken when it began, and how far it has
/// come. The cards themselves are read a batch at a time (`Box.nextCards`), each time from the
/// store as it is then, so that a listing of 100,000 cards never holds them all and the box can
/// serve other calls between two batches (docs/daemon.md, "Streamed replies").
public struct CardListing: Sendable {
    /// The ids of each level, indexed by `Level.rawValue - 1`; a level is sorted by id when the
    /// listing reaches it, so that the first cards go out before the last level is sorted.
    private var levels: [[String]]
    /// The level being listed (an index in `levels`) and the index of the next id in it.
    private var level = 0
    private var index = 0
    /// The one level listed, nil for all.
    let only: Level?
    let withText: Bool

    /// True once every card has been read.
    public var isFinished: Bool { level >= levels.count }

    /// The ids of `levelOf` in `only` (or in all levels).
    init(levelOf: [String: Level], only: Level?, withText: Bool) {
        var levels = [[String]](repeating: [], count: Level.allCases.count)
        for (id, level) in levelOf where only == nil || level == only {
            levels[level.rawValue - 1].append(id)
        }
        self.levels = levels
        self.only = only
        self.withText = withText
        skipEmptyLevels()
    }

    /// The next id, by level and then by id; nil once every id has been given.
    mutating func nextID() -> String? {
        guard level < levels.count else { return nil }
        if index == 0 { levels[level] = CardListing.sorted(levels[level]) }
        let id = levels[level][index]
        index += 1
        if index == levels[level].count {
            levels[level] = []
            level += 1
            index = 0
            skipEmptyLevels()
        }
        return id
    }

    private mutating func skipEmptyLevels() {
        while level < levels.count, levels[level].isEmpty { level += 1 }
    }

    /// Ids in byte order of their UTF-8. Ids are in NFC (R20), for which that is the order of
    /// their scalars, the order `String`'s `<` gives. They are sorted by their first eight bytes
    /// as one integer, and by all their bytes only when those are equal: several times faster than
    /// comparing strings, which counts when 100,000 ids are sorted before the first card goes out.
    static func sorted(_ ids: [String]) -> [String] {
        var keyed = ids.map { (key: prefixKey($0), id: $0) }
        keyed.sort { $0.key != $1.key ? $0.key < $1.key : precedes($0.id, $1.id) }
        return keyed.map(\.id)
    }

    /// The first eight bytes of `id`'s UTF-8, big-endian, zero-padded: ordered as the bytes are.
    static func prefixKey(_ id: String) -> UInt64 {
        var key: UInt64 = 0
        var count = 0
        for byte in id.utf8 {
            key = key << 8 | UInt64(byte)
            count += 1
            if count == 8 { return key }
        }
        return key << (8 * UInt64(8 - count))
    }

    /// Byte order of the ids' UTF-8 (see `sorted`).
    static func precedes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                if common > 0 {
                    let order = memcmp(x.baseAddress!, y.baseAddress!, common)
                    if order != 0 { return order < 0 }
                }
                return x.count < y.count
            }
        }
    }
}
