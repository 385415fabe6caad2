import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink

/// The cards of a `List` with text, read a batch at a time under the box's turn (`Box.nextCards`);
/// without text, `OutlineItems`.
final class CardItems: ListingItems {
    /// Card directories read in one turn at the box: a few milliseconds, so that the other
    /// calls wait little for their turn between two batches.
    static let batchSize = 256
    /// The first batch that gives cards: eight, sent as the reply's first part with `more`
    /// (`StreamedReply`), so that the first lines of a listing are shown after eight card
    /// directories are read rather than a part's 64 KiB of cards. Eight rather than the 32 it
    /// was: each card read is about 20 µs of the daemon's CPU before the first line, and the
    /// next part (a batch of 256) follows within milliseconds, well before a person has read a
    /// screenful (docs/performance.md, "The warm listing's first line, the program linked whole").
    static let firstBatchSize = 8

    /// True once a batch gave a card: the next batches are of `batchSize`.
    private var gaveCards = false

    var listing: CardListing

    init(_ listing: CardListing) {
        self.listing = listing
    }

    /// The cards as read: their JSON is written after the turn, as the part is made.
    func next(_ context: BoxMethods.Context?) throws -> [Card]? {
        guard let box = context?.box else { return try nextWithoutBox() }
        let cards = try box.nextCards(of: &listing, upTo: gaveCards ? Self.batchSize : Self.firstBatchSize)
        if !cards.isEmpty { gaveCards = true }
        return cards
    }

    var itemsLeft: Int? { listing.cardsLeft }

    func describe(_ item: Card) -> String {
        "card '\(item.id)'"
    }
}
