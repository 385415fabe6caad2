import LeitnerCore

/// The items of a `List`, with text (`CardItems`) or without (`OutlineItems`): its listing,
/// read a batch at a time under the box's turn; once every card is given, the end needs none.
protocol ListingItems: ReplyItems {
    var listing: CardListing { get }
}

extension ListingItems {
    var member: String { "cards" }
    var needsBox: Bool { !listing.isFinished }
}
