import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink

/// The cards of a `List` with text, read a batch at a time under the box's turn (`Box.nextCards`);
/// without text, `OutlineItems`.
final class CardItems: ListingItems {
    /// Card directories read in one turn at the box: a few milliseconds, so that the other
    /// calls wait little for their turn between two batches.
    static let batchSize = 256

    var listing: CardListing

    init(_ listing: CardListing) {
        self.listing = listing
    }

    /// The cards as read: their JSON is written after the turn, as the part is made.
    func next(_ context: BoxMethods.Context?) throws -> [Card]? {
        guard let box = context?.box else { return try nextWithoutBox() }
        return try box.nextCards(of: &listing, upTo: Self.batchSize)
    }

    var itemsLeft: Int? { listing.cardsLeft }

    func describe(_ item: Card) -> String {
        "card '\(item.id)'"
    }
}
