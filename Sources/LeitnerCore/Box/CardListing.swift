/// A `List` in progress: the cards to list, taken when it began, and how far it has come. The
/// cards themselves are read a batch at a time (`Box.nextCards`), each time from the store as it
/// is then, so that a listing of 100,000 cards never holds them all and the box can serve other
/// calls between two batches (docs/daemon.md, "Streamed replies").
///
/// It holds a copy of the index (its arrays shared until the box changes the index, then copied
/// once) and the entry numbers of each level: 4 bytes a card, no string made before its batch.
public struct CardListing: Sendable {
    /// The index as it was when the listing began: its entries name the listing's cards.
    let index: CardIndex
    /// The entries of each level, indexed by `Level.rawValue - 1`; a level is sorted by id when
    /// the listing reaches it, so that the first cards go out before the last level is sorted.
    private var levels: [[UInt32]]
    /// The level being listed (an index in `levels`) and the index of the next entry in it.
    private var level = 0
    private var position = 0
    /// How many of the level's entries, from its first, are in the listing's order: the rest
    /// come after them all, unordered, until the listing reaches them.
    private var ordered = 0
    /// Read backwards (`before`): the levels from the last, each by id from the greatest.
    private let backwards: Bool
    /// The one level listed, nil for all.
    let only: Level?
    public let withText: Bool
    /// The filter by tag the cards were chosen by, nil for none: each card is held to it again
    /// as it is read.
    let filter: TagFilter?

    /// The cards still to give, nil for all (`limit`): counted as they are given (`gave`).
    private(set) var remaining: Int?

    /// True once every card has been read, or `limit` given.
    public var isFinished: Bool { level >= levels.count || remaining == 0 }

    /// The cards still to read, at most: fewer are given when some moved, went or are damaged.
    public var cardsLeft: Int {
        guard level < levels.count else { return 0 }
        let left = levels[level...].reduce(0) { $0 + $1.count } - position
        return remaining.map { min($0, left) } ?? left
    }

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
        nextEntryNumber().map(index.id(ofEntry:))
    }

    /// `nextID` as the id's entry in `index`, the index the listing began with: no string made
    /// (its bytes are there), and the card's level now found without hashing the id
    /// (`level(of:in:)`).
    mutating func nextEntryNumber() -> UInt32? {
        guard level < levels.count, remaining != 0 else { return nil }
        if position == ordered { orderRest() }
        let number = levels[level][position]
        position += 1
        if position == levels[level].count {
            levels[level] = []
            level += 1
            position = 0
            ordered = 0
            skipEmptyLevels()
        }
        return number
    }

    /// The level in `current` (the store's index now) of the card of entry `number`.
    func level(of number: UInt32, in current: Store) -> Level? {
        current.level(ofEntry: number, of: index)
    }

    /// Puts the level's entries from `position` on in the listing's order: when they are many
    /// more than the listing may still give (a page of 101 of a level of 50,000: the web's Cards
    /// page, at each view), only the first of them, by one pass that keeps the least; the rest
    /// wait, all after those, until the listing reaches them (when cards were left out).
    private mutating func orderRest() {
        let rest = levels[level][position...]
        if let remaining, remaining * 4 < rest.count {
            let first = CardListing.first(remaining, of: rest, in: index, backwards: backwards)
            let chosen = Set(first)
            levels[level] = Array(levels[level][..<position]) + first + rest.filter { !chosen.contains($0) }
            ordered = position + first.count
        } else {
            var sorted = CardListing.sorted(Array(rest), in: index)
            if backwards { sorted.reverse() }
            levels[level].replaceSubrange(position..., with: sorted)
            ordered = levels[level].count
        }
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

    /// The `count` first of `entries` in the order of `sorted` (the last, greatest first, when
    /// `backwards`), in that order: kept in a small sorted array as the entries go by, most of
    /// them compared once with the last kept, as `CardIndex.leastEntries` keeps a day's admissions.
    static func first(_ count: Int, of entries: ArraySlice<UInt32>, in index: CardIndex, backwards: Bool) -> [UInt32] {
        guard count > 0 else { return [] }
        func before(_ x: (key: UInt64, number: UInt32), _ y: (key: UInt64, number: UInt32)) -> Bool {
            let less = x.key != y.key ? x.key < y.key : index.entry(x.number, precedes: y.number)
            return backwards ? !less && x.number != y.number : less
        }
        var kept: [(key: UInt64, number: UInt32)] = []
        kept.reserveCapacity(count + 1)
        for number in entries {
            let entry = (key: index.prefixKey(ofEntry: number), number: number)
            if kept.count == count, !before(entry, kept[count - 1]) { continue }
            var low = 0, high = kept.count
            while low < high {
                let middle = (low + high) / 2
                if before(entry, kept[middle]) { high = middle } else { low = middle + 1 }
            }
            kept.insert(entry, at: low)
            if kept.count > count { kept.removeLast() }
        }
        return kept.map(\.number)
    }
}
