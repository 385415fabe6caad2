/// A `Doctor` in progress: the cards to look at, taken when it began, and how far it has come.
/// Each card's directory is read (R21), a batch at a time (`Box.nextProblems`), so that the box
/// serves other calls between two batches of a store of 100,000 cards; the problems that are not
/// about one card come last, in one batch.
public struct DoctorScan: Sendable {
    /// A copy of the index when the scan began, and its entries in id order.
    private let index: CardIndex
    private let entries: [UInt32]
    /// The index in `entries` of the next card to look at.
    private var position = 0
    /// True once the last batch has been given.
    public internal(set) var isFinished = false

    init(index: CardIndex) {
        var entries: [UInt32] = []
        entries.reserveCapacity(index.count)
        index.forEachEntry { number, _ in entries.append(number) }
        self.index = index
        self.entries = CardListing.sorted(entries, in: index)
    }

    /// True once every card has been looked at.
    var cardsDone: Bool { position >= entries.count }

    /// The ids of the next `count` cards, in id order.
    mutating func nextIDs(upTo count: Int) -> [String] {
        let end = min(entries.count, position + count)
        defer { position = end }
        return entries[position..<end].map { index.id(ofEntry: $0) }
    }
}
