import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink

/// The matching lines of a `Search` (`SearchScan`): the cards found in the index as the search
/// began, then a batch of cards read under the box's turn (`Box.readCards`), their lines matched
/// after it. The regular-expression engine never runs under the turn: a costly pattern slows
/// its own reply, not the box (docs/daemon.md, "Streamed replies").
final class SearchItems: ReplyItems {
    /// Cards read in one turn at the box, as for `List` (`CardItems`).
    static let batchSize = 256

    private var scan: SearchScan

    init(_ scan: SearchScan) {
        self.scan = scan
    }

    var member: String { "matches" }
    var needsBox: Bool { scan.needsBox }
    /// Until the search is done: its first lines are sent before the rest is found, the cards
    /// after them read, or the index's build (the first search after a start) has read them.
    var mayGiveMore: Bool { !scan.isFinished }

    func next(_ context: BoxMethods.Context?) throws -> [JSONValue]? {
        guard !scan.isFinished else { return nil }
        guard scan.needsBox else {
            // Finding first (an empty batch), then each batch's lines.
            try scan.find()
            return try scan.matchRead().map(\.json)
        }
        guard let box = context?.box else { return nil }
        try box.readCards(of: &scan, upTo: Self.batchSize)
        return []
    }

    func describe(_ item: JSONValue) -> String {
        "the line of card '\(item["id"]?.stringValue ?? "?")'"
    }
}
