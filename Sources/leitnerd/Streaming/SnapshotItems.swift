import LeitnerProtocol
import LeitnerVarlink

/// Items made whole when the call began, under the box's turn, and sent in parts: the days of a
/// `Calendar`, which are at most `Box.maxCalendarDays` and yet may pass a small message limit.
final class SnapshotItems: ReplyItems {
    let member: String
    private var items: [JSONValue]?
    private let kind: String

    /// - Parameters:
    ///   - member: the reply's array member (`days`).
    ///   - kind: what one item is, for messages (`day`).
    init(member: String, kind: String, items: [JSONValue]) {
        self.member = member
        self.kind = kind
        self.items = items
    }

    var needsBox: Bool { false }

    func next(_ context: BoxMethods.Context?) throws -> [JSONValue]? {
        defer { items = nil }
        return items
    }

    func describe(_ item: JSONValue) -> String {
        "the \(kind) \((item["date"] ?? item["tag"] ?? item["id"])?.stringValue ?? "")"
    }
}
