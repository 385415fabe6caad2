/// A `Search` in progress: the cards that matched in the index when it began, sorted by level then
/// id, and how far it has come. Their lines are read a batch of cards at a time
/// (`Box.nextMatches`), each time from the store as it is then, so that a search matching
/// 100,000 cards never holds all their lines and the box serves other calls between two batches
/// (docs/daemon.md, "Streamed replies").
public struct SearchScan {
    /// A card the index found: where it was and which of its fields matched, one bit a field
    /// (in `SearchMatch.Field.allCases` order) rather than an array, which would be one more
    /// allocation for each of 100,000 matching cards.
    struct Hit {
        let level: Level
        let id: String
        let fieldBits: UInt8

        /// The fields that matched, in the order their lines are given: id, front, back.
        var fields: [SearchMatch.Field] { SearchMatch.Field.allCases.filter { fieldBits & Hit.bit($0) != 0 } }

        /// The bit of `field` in `fieldBits`.
        static func bit(_ field: SearchMatch.Field) -> UInt8 {
            switch field {
            case .id: 1
            case .front: 2
            case .back: 4
            }
        }
    }

    let pattern: SearchPattern
    let only: Level?
    private let hits: [Hit]
    /// The index in `hits` of the next card to read.
    private var position = 0
    /// The lines still to give before `limit` is reached; nil for no limit.
    private(set) var remaining: Int?

    /// True once every matching card has been read, or the limit reached.
    public var isFinished: Bool { position >= hits.count || remaining == 0 }

    /// How many cards matched in the index when the search began.
    public var cards: Int { hits.count }

    init(pattern: SearchPattern, only: Level?, hits: [Hit], limit: Int?) {
        self.pattern = pattern
        self.only = only
        self.hits = hits.sorted { ($0.level, $0.id) < ($1.level, $1.id) }
        self.remaining = limit
    }

    /// The next `count` cards, in order.
    mutating func nextHits(upTo count: Int) -> ArraySlice<Hit> {
        let end = min(hits.count, position + count)
        defer { position = end }
        return hits[position..<end]
    }

    /// Counts a line given against the limit; false when the limit was already reached.
    mutating func take() -> Bool {
        guard let left = remaining else { return true }
        guard left > 0 else { return false }
        remaining = left - 1
        return true
    }
}
