import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink

/// The matching lines of a `Search`, read a batch of cards at a time under the box's turn
/// (`Box.nextMatches`).
final class SearchItems: ReplyItems {
    /// Cards read in one turn at the box, as for `List` (`CardItems`).
    static let batchSize = 256

    private var scan: SearchScan

    init(_ scan: SearchScan) {
        self.scan = scan
    }

    var member: String { "matches" }
    var needsBox: Bool { true }

    func next(_ context: BoxMethods.Context?) throws -> [JSONValue]? {
        guard !scan.isFinished, let box = context?.box else { return nil }
        return try box.nextMatches(of: &scan, upTo: Self.batchSize).map(\.json)
    }

    func describe(_ item: JSONValue) -> String {
        "the line of card '\(item["id"]?.stringValue ?? "?")'"
    }
}
