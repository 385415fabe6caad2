/// A `List` in progress: the cards to list, taken when it began, and how far it has come. The
/// cards themselves are read a batch at a time (`Box.nextCards`), each time from the store as it
/// is then, so that a listing of 100,000 cards never holds them all and the box can serve other
/// calls between two batches (docs/daemon.md, "Streamed replies").
///
/// It holds a copy of the index (its arrays shared until the box changes the index, then copied
/// once) and the entry numbers of each level: 4 bytes a card, no string made before its batch.
public struct CardListing: Sendable {
    /// The index as it was when the listing began: its entries name the listing's cards. Let go
    /// once the listing has said it has no more (`nextEntryNumber`): a reply still being sent
    /// would otherwise keep this copy alive, and the box's next grade would copy its entries
    /// (0.8 MiB at 100,000 cards) for each listing in flight.
    private(set) var index: CardIndex
    /// The entries of each level, indexed by `Level.rawValue - 1`; a level is sorted by id when
    /// the listing reaches it, so that the first cards go out before the last level is sorted,
    /// and in a listing's first batch only as far as that batch (`orderRest`).
    private var levels: [[UInt32]]
    /// The level being listed (an index in `levels`) and the index of the next entry in it.
    private var level = 0
    private var position = 0
    /// How many of the level's entries, from its first, are in the listing's order: the rest
    /// come after them all, unordered, until the listing reaches them.
    private var ordered = 0
    /// True once a listing without `limit` ordered only the first of a level for a batch: it
    /// does so once (`orderRest`).
    private var orderedAhead = false
    /// True when every level's entries are in the listing's order from the start: those of a
    /// selection in the order of their ids (`Box.selectedEntries`), taken level by level.
    private let inOrder: Bool
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

    /// A listing by tag that began the tag table's build (`Box.startListing` with `duringBuild`)
    /// takes the cards its filter selects from each piece the build reads, in order, rather than
    /// from `levels`; nil for any other listing.
    private var streaming: Streaming?

    struct Streaming: Sendable {
        let build: IndexBuild
        /// The numbers of the pieces left to take; nil until counted for a listing of one level.
        var pieces: Range<Int>?
        /// The cards selected and not yet all given, in order, and the index of the next to give.
        var queue: [UInt32] = []
        var position = 0
        /// The entries the pieces selected, a bit each: the cards given after the build's are
        /// among the others (`Box.takeLateCards`).
        var selected: [UInt64]
        var stage = Stage.pieces
    }

    enum Stage: Sendable {
        /// Taking the build's pieces.
        case pieces
        /// The build gave up: its box was closed, by a reload (which changes no card) or the daemon
        /// stopping; or another call installed it, letting go of the pieces not taken. The
        /// listing's cards the pieces did not select that the filter selects now, by the tag table
        /// (of the box that replaced it), are next (`Box.takeLateCards`).
        case resumed
        /// The build is done: the cards it did not select that the filter selects now are next.
        case late
        /// Those are in the queue: nothing more comes.
        case over
    }

    /// True once every card has been read, or `limit` given.
    public var isFinished: Bool {
        if remaining == 0 { return true }
        if let streaming { return streaming.stage == .over && streaming.position >= streaming.queue.count }
        return level >= levels.count
    }

    /// True when the next step is waiting for the build's next piece (`takePiece`), which needs no
    /// box: the daemon waits off the box's turn.
    public var needsPiece: Bool { stage(is: .pieces) }

    /// True when the next step is finding the cards to give after the build's (`Box.takeLateCards`).
    var needsLateCards: Bool { stage(is: .late) || stage(is: .resumed) }

    /// True when the build this listing took its pieces from gave up before it was done.
    var buildStopped: Bool { streaming?.stage == .resumed }

    private func stage(is stage: Stage) -> Bool {
        guard let streaming, remaining != 0 else { return false }
        return streaming.stage == stage && streaming.position >= streaming.queue.count
    }

    /// The cards still to read, at most: fewer are given when some moved, went or are damaged.
    /// Those selected so far while the listing streams a build.
    public var cardsLeft: Int {
        if let streaming { return remaining.map { min($0, streaming.queue.count - streaming.position) } ?? streaming.queue.count - streaming.position }
        guard level < levels.count else { return 0 }
        let left = levels[level...].reduce(0) { $0 + $1.count } - position
        return remaining.map { min($0, left) } ?? left
    }

    /// The cards of `index` in `only` (or in all levels), and among `selected` when given (the
    /// entries of the cards a filter by tag chose, `filter`): those after `after` in the
    /// listing's order, or those before `before`, read backwards from it, at most `limit`.
    /// - Parameter selectedInOrder: `selected` is in the order of its ids (`sorted`): each level
    ///   taken from it is in order, and none is sorted.
    init(index: CardIndex, only: Level?, withText: Bool, selected: [UInt32]? = nil, selectedInOrder: Bool = false,
         filter: TagFilter? = nil, after: ListPosition? = nil, before: ListPosition? = nil, limit: Int? = nil) {
        var levels = [[UInt32]](repeating: [], count: Level.allCases.count)
        let afterID = after.map { Array($0.id.utf8) }
        let beforeID = before.map { Array($0.id.utf8) }
        func take(_ number: UInt32, _ level: Level, _ id: UnsafeBufferPointer<UInt8>) {
            guard only == nil || level == only else { return }
            if let after, let afterID {
                guard level >= after.level else { return }
                if level == after.level, !afterID.lexicographicallyPrecedes(id) { return }
            }
            if let before, let beforeID {
                guard level <= before.level else { return }
                if level == before.level, !id.lexicographicallyPrecedes(beforeID) { return }
            }
            levels[level.rawValue - 1].append(number)
        }
        if let selected {
            for number in selected {
                guard let level = index.level(ofEntry: number) else { continue }
                index.withBytes(ofEntry: number) { take(number, level, $0) }
            }
        } else {
            index.forEachEntryWithBytes(take)
        }
        backwards = before != nil
        inOrder = selected != nil && selectedInOrder
        if backwards {
            levels.reverse()
            if inOrder { levels = levels.map { $0.reversed() } }
        }
        self.filter = filter
        self.index = index
        self.levels = levels
        self.only = only
        self.withText = withText
        remaining = limit
        skipEmptyLevels()
    }

    /// A listing of the cards `filter` selects, in `only` (or in all levels), at most `limit`,
    /// taken from the pieces of `build` as it reads them (`takePiece`): of the store's cards as
    /// `build` began, which the listing began.
    init(building build: IndexBuild, only: Level?, withText: Bool, filter: TagFilter, limit: Int?) {
        index = build.cards
        levels = []
        backwards = false
        inOrder = false
        self.only = only
        self.withText = withText
        self.filter = filter
        remaining = limit
        streaming = Streaming(build: build, selected: [UInt64](repeating: 0, count: (index.entryCount + 63) / 64))
    }

    /// The build this listing began, if it did.
    public var build: IndexBuild? { streaming?.build }

    /// Waits until the build has read a piece with cards the filter selects, or is done, and
    /// queues those cards; nothing when cards are still queued or the build is done or gave up.
    /// Needs no box.
    public mutating func takePiece() {
        guard needsPiece, var taking = streaming else { return }
        // Taken out while changed, so that its arrays are not copied.
        streaming = nil
        defer { streaming = taking }
        taking.queue.removeAll(keepingCapacity: true)
        taking.position = 0
        while taking.queue.isEmpty, taking.stage == .pieces {
            // Counted here, off the turn: a walk of every card's level.
            let left = taking.pieces ?? only.map { taking.build.pieces(of: $0) } ?? 0..<Int.max
            taking.pieces = left.dropFirst()
            // Past its level's pieces, a listing of one level waits for the build to be done,
            // for the cards to give after it (`Box.takeLateCards`).
            switch taking.build.takeTagPiece(left.first ?? Int.max) {
            case .read(let piece):
                for (entry, tags) in zip(piece.entries, piece.tags) where filter?.selects(tags) ?? true {
                    taking.queue.append(entry)
                    taking.selected[Int(entry >> 6)] |= 1 << UInt64(entry & 63)
                }
            case .done:
                taking.stage = .late
            case .stopped:
                taking.stage = .resumed
            }
        }
    }

    /// True when a piece of the build selected the card of `entry`.
    func wasSelected(_ entry: UInt32) -> Bool {
        guard let streaming else { return false }
        return streaming.selected[Int(entry >> 6)] & 1 << UInt64(entry & 63) != 0
    }

    /// Queues the cards to give after the build's, in order: nothing comes after them.
    mutating func giveLate(_ entries: [UInt32]) {
        streaming?.queue = entries
        streaming?.position = 0
        streaming?.stage = .over
    }

    /// Counts a card given, for `limit`.
    mutating func gave() {
        if let left = remaining { remaining = left - 1 }
    }

    /// The next id, by level and then by id (backwards with `before`); nil once every id has
    /// been given.
    /// - Parameter batch: the cards the caller's batch may still give: the listing's first
    ///   batch orders only that many of a large level first (`orderRest`).
    mutating func nextID(batch: Int? = nil) -> String? {
        nextEntryNumber(batch: batch).map(index.id(ofEntry:))
    }

    /// `nextID` as the id's entry in `index`, the index the listing began with: no string made
    /// (its bytes are there), and the card's level now found without hashing the id
    /// (`level(of:in:)`).
    mutating func nextEntryNumber(batch: Int? = nil) -> UInt32? {
        if let streaming {
            guard streaming.position < streaming.queue.count, remaining != 0 else { return letGoIfFinished() }
            self.streaming?.position += 1
            return streaming.queue[streaming.position]
        }
        guard level < levels.count, remaining != 0 else { return letGoIfFinished() }
        if position == ordered { orderRest(batch: batch) }
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

    /// What a listing that has given its last card holds in place of its index.
    private static let nothingHeld = CardIndex()

    /// Lets go of the index once nothing more comes (a listing streaming a build may have no card
    /// queued yet still take more); nil, for `nextEntryNumber`.
    private mutating func letGoIfFinished() -> UInt32? {
        if isFinished { index = Self.nothingHeld }
        return nil
    }

    /// The level in `current` (the store's index now) of the card of entry `number`.
    func level(of number: UInt32, in current: Store) -> Level? {
        current.level(ofEntry: number, of: index)
    }

    /// Puts the level's entries from `position` on in the listing's order: when they are many
    /// more than the listing may still give (a page of 101 of a level of 50,000: the web's Cards
    /// page, at each view), only the first of them, by one pass that keeps the least; the rest
    /// wait, all after those, until the listing reaches them (when cards were left out). So is
    /// the batch that reaches a level much larger than it, once in a listing without `limit`
    /// (its first, 8 cards: `leitnerctl list`'s first lines): sorting the 14,000 ids of a
    /// level took most of the time to the first line. The rest is sorted whole when the next
    /// batch reaches it, so that a listing of 100,000 cards makes one pass more than a sort of
    /// each level, not one a batch.
    private mutating func orderRest(batch: Int? = nil) {
        if inOrder {
            ordered = levels[level].count
            return
        }
        let rest = levels[level][position...]
        let first = remaining ?? (orderedAhead ? nil : batch)
        if let first, first * 4 < rest.count {
            if remaining == nil { orderedAhead = true }
            let first = CardListing.first(first, of: rest, in: index, backwards: backwards)
            // Found by a binary search of a few dozen numbers, not hashed: 14,000 look-ups.
            let chosen = first.sorted()
            levels[level] = Array(levels[level][..<position]) + first + rest.filter { number in
                var low = 0, high = chosen.count
                while low < high {
                    let middle = (low + high) / 2
                    if chosen[middle] < number { low = middle + 1 } else { high = middle }
                }
                return low == chosen.count || chosen[low] != number
            }
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
    /// sixteen bytes as two integers (`OrderKey`), and by all their bytes only when those are
    /// equal: several times faster than comparing strings, which counts when 100,000 ids are
    /// sorted before the first card goes out.
    static func sorted(_ entries: [UInt32], in index: CardIndex) -> [UInt32] {
        var keyed = entries.map { OrderKey($0, in: index) }
        keyed.sort { $0.precedes($1, in: index) }
        return keyed.map(\.number)
    }

    /// An entry with the first sixteen bytes of its id (`CardIndex.prefixKey`), compared as
    /// `sorted` orders.
    struct OrderKey {
        let high: UInt64
        let low: UInt64
        let number: UInt32

        init(_ number: UInt32, in index: CardIndex) {
            (high, low) = index.prefixKey(ofEntry: number)
            self.number = number
        }

        func precedes(_ other: OrderKey, in index: CardIndex) -> Bool {
            if high != other.high { return high < other.high }
            if low != other.low { return low < other.low }
            return index.entry(number, precedes: other.number)
        }
    }

    /// The `count` first of `entries` in the order of `sorted` (the last, greatest first, when
    /// `backwards`), in that order: kept in a small sorted array as the entries go by, most of
    /// them compared once with the last kept, as `CardIndex.leastEntries` keeps a day's admissions.
    static func first(_ count: Int, of entries: ArraySlice<UInt32>, in index: CardIndex, backwards: Bool) -> [UInt32] {
        guard count > 0 else { return [] }
        func before(_ x: OrderKey, _ y: OrderKey) -> Bool {
            backwards ? x.number != y.number && !x.precedes(y, in: index) : x.precedes(y, in: index)
        }
        var kept: [OrderKey] = []
        kept.reserveCapacity(count + 1)
        for number in entries {
            let entry = OrderKey(number, in: index)
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
