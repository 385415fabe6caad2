/// A `List` in progress: the cards to list, taken when it began, and how far it has come. The
/// cards themselves are read a batch at a time (`Box.nextCards`), each time from the store as it
/// is then, so that a listing of 100,000 cards never holds them all and the box can serve other
/// calls between two batches (docs/daemon.md, "Streamed replies").
///
/// It holds a copy of the index (its arrays shared until the box changes the index, then copied
/// once) and the entry numbers of each level: 4 bytes a card, no string made before its batch.
public struct CardListing: Sendable {
    private let index: CardIndex
    /// The entries of each level, indexed by `Level.rawValue - 1`; a level is sorted by id when
    /// the listing reaches it, so that the first cards go out before the last level is sorted.
    private var levels: [[UInt32]]
    /// The level being listed (an index in `levels`) and the index of the next entry in it.
    private var level = 0
    private var position = 0
    /// Read backwards (`before`): the levels from the last, each by id from the greatest.
    private let backwards: Bool
    /// The one level listed, nil for all.
    let only: Level?
    let withText: Bool
    /// The filter by tag the cards were chosen by, nil for none: each card is held to it again
    /// as it is read.
    let filter: TagFilter?

    /// The cards still to give, nil for all (`limit`): counted as they are given (`gave`).
    private(set) var remaining: Int?

    /// True once every card has been read, or `limit` given.
    public var isFinished: Bool { level >= levels.count || remaining == 0 }

    /// The cards of `index` in `only` (or in all levels), and among `selected` when given (the
    /// ids a filter by tag chose, `filter`): those after `after` in the listing's order, or
    /// those before `before`, read backwards from it, at most `limit`.
    init(index: CardIndex, only: Level?, withText: Bool, selected: Set<String>? = nil, filter: TagFilter? = nil,
         after: ListPosition? = nil, before: ListPosition? = nil, limit: Int? = nil) {
        var levels = [[UInt32]](repeating: [], count: Level.allCases.count)
        let afterID = after.map { Array($0.id.utf8) }
        let beforeID = before.map { Array($0.id.utf8) }
        index.forEachEntryWithBytes { number, level, id in
            guard only == nil || level == only else { return }
            if let after, let afterID {
                guard level >= after.level else { return }
                if level == after.level, !afterID.lexicographicallyPrecedes(id) { return }
            }
            if let before, let beforeID {
                guard level <= before.level else { return }
                if level == before.level, !id.lexicographicallyPrecedes(beforeID) { return }
            }
            if let selected, !selected.contains(index.id(ofEntry: number)) { return }
            levels[level.rawValue - 1].append(number)
        }
        backwards = before != nil
        if backwards { levels.reverse() }
        self.filter = filter
        self.index = index
        self.levels = levels
        self.only = only
        self.withText = withText
        remaining = limit
        skipEmptyLevels()
    }

    /// Counts a card given, for `limit`.
    mutating func gave() {
        if let left = remaining { remaining = left - 1 }
    }

    /// The next id, by level and then by id (backwards with `before`); nil once every id has
    /// been given.
    mutating func nextID() -> String? {
        guard level < levels.count, remaining != 0 else { return nil }
        if position == 0 {
            levels[level] = CardListing.sorted(levels[level], in: index)
            if backwards { levels[level].reverse() }
        }
        let id = index.id(ofEntry: levels[level][position])
        position += 1
        if position == levels[level].count {
            levels[level] = []
            level += 1
            position = 0
            skipEmptyLevels()
        }
        return id
    }

    private mutating func skipEmptyLevels() {
        while level < levels.count, levels[level].isEmpty { level += 1 }
    }

    /// Entries in byte order of their ids' UTF-8. Ids are in NFC (R20), for which that is the
    /// order of their scalars, the order `String`'s `<` gives. They are sorted by their first
    /// eight bytes as one integer, and by all their bytes only when those are equal: several
    /// times faster than comparing strings, which counts when 100,000 ids are sorted before the
    /// first card goes out.
    static func sorted(_ entries: [UInt32], in index: CardIndex) -> [UInt32] {
        var keyed = entries.map { (key: index.prefixKey(ofEntry: $0), number: $0) }
        keyed.sort { $0.key != $1.key ? $0.key < $1.key : index.entry($0.number, precedes: $1.number) }
        return keyed.map(\.number)
    }
}
