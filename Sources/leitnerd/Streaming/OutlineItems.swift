import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink

/// The cards of a `List` without text, a batch at a time from the outline table under the box's
/// turn (`Box.nextOutlines`), each written into its part straight from its outline after the
/// turn (`CardOutlinesJSON`), with no `Card` made. Each card's length is known without writing
/// it, so that the one reply of a call without `more` is sent in pieces as it is written, never
/// made whole (`StreamedReply`; docs/performance.md, "A listing without text").
final class OutlineItems: ListingItems {
    /// One card of a batch: what writes its JSON.
    struct Item: JSONWritable {
        let batch: CardOutlinesJSON
        let position: Int

        func serialize(into buffer: inout [UInt8]) {
            batch.write(position, into: &buffer)
        }
    }

    var listing: CardListing

    init(_ listing: CardListing) {
        self.listing = listing
    }

    /// The batch as the outline table knows it, each card an item that writes itself from it.
    func next(_ context: BoxMethods.Context?) throws -> [Item]? {
        guard let box = context?.box else { return try nextWithoutBox() }
        let batch = CardOutlinesJSON(try box.nextOutlines(of: &listing, upTo: CardItems.batchSize))
        return (0..<batch.outlines.count).map { Item(batch: batch, position: $0) }
    }

    func serializedSize(of item: Item) -> Int? {
        item.batch.size(of: item.position)
    }

    func describe(_ item: Item) -> String {
        "card '\(item.batch.outlines.withID(at: item.position) { String(decoding: $0, as: UTF8.self) })'"
    }
}
