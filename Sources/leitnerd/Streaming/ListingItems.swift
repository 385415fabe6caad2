import LeitnerCore

/// The items of a `List`, with text (`CardItems`) or without (`OutlineItems`): its listing,
/// read a batch at a time under the box's turn; once every card is given, the end needs none,
/// nor the wait for the next piece of a tag table's build the listing streams (`takePiece`).
protocol ListingItems: ReplyItems {
    var listing: CardListing { get set }
}

extension ListingItems {
    var member: String { "cards" }
    var needsBox: Bool { !listing.isFinished && !listing.needsPiece }

    /// The batch without the box: none once every card is given, else an empty one once the
    /// build the listing streams has read its next piece.
    func nextWithoutBox() throws -> [Item]? {
        guard !listing.isFinished else { return nil }
        listing.takePiece()
        return []
    }
}
