import Glibc

/// A `List` in progress: the ids of the cards to list, in their order, taken when it began, and
/// how far it has come. The cards themselves are read a batch at a time (`Box.nextCards`), each
/// time from the store as it is then, so that a listing of 100,000 cards never holds them all
/// and the box can serve other calls between two batches (docs/daemon.md, "Streamed replies").
public struct CardListing: Sendable {
    /// The ids, by level and then by id.
    let ids: [String]
    /// The one level listed, nil for all.
    let only: Level?
    let withText: Bool
    /// The index in `ids` of the next card to read.
    var position = 0

    /// True once every card has been read.
    public var isFinished: Bool { position >= ids.count }

    /// The ids of `levelOf` in `only` (or in all levels), by level and then by id.
    init(levelOf: [String: Level], only: Level?, withText: Bool) {
        var byLevel = [[String]](repeating: [], count: Level.allCases.count)
        for (id, level) in levelOf where only == nil || level == only {
            byLevel[level.rawValue - 1].append(id)
        }
        var ids: [String] = []
        ids.reserveCapacity(byLevel.reduce(0) { $0 + $1.count })
        for var level in byLevel {
            level.sort(by: CardListing.precedes)
            ids += level
        }
        self.ids = ids
        self.only = only
        self.withText = withText
    }

    /// Byte order of the ids' UTF-8. Ids are in NFC (R20), for which that is the order of their
    /// scalars, the order `String`'s `<` gives; comparing bytes is several times faster, which
    /// counts when sorting 100,000 ids before the first card of a listing can go out.
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
