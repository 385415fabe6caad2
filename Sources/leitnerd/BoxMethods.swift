import LeitnerCore
import LeitnerProtocol

/// The methods of `io.leitner.Box` (docs/protocol.md): one handler per method and one method-name →
/// handler table. A handler reads its parameters (`InvalidParameter` naming a wrong
/// one), calls the box, and returns the reply's parameters; `ErrorReplies` turns its errors into
/// Varlink errors. Handlers run on `BoxService`, the box's one owner.
enum BoxMethods {
    /// What a handler works with: the box, and the `TestReady=` hook for `Prepare`.
    struct Context {
        let box: Box
        let hook: TestReadyHook?
    }

    typealias Handler = @Sendable (Context, CallParameters) throws -> [String: JSONValue]

    /// A method whose reply grows with the box: it checks its parameters and begins the reading
    /// under the box's turn, and the items it returns are sent in parts (`StreamedReply`).
    typealias StreamHandler = @Sendable (Context, CallParameters) throws -> any ReplyItems

    static let interface = BoxInterface.name

    static let handlers: [String: Handler] = [
        "Status": status,
        "Prepare": prepare,
        "Next": next,
        "Grade": grade,
        "Undo": undo,
        "Add": add,
        "Move": move,
        "Delete": delete,
        "Show": show,
        "ReadAsset": readAsset,
    ]

    /// The methods whose replies grow with the box (docs/protocol.md, "Streamed replies").
    static let streamed: [String: StreamHandler] = [
        "List": list,
        "Calendar": calendar,
        "Log": log,
        "Doctor": doctor,
    ]

    static func status(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        try parameters.allowOnly([])
        let status = try context.box.status()
        return status.json.objectValue ?? [:]
    }

    /// Opens today's test; the first time a test with cards is prepared, starts the hook.
    static func prepare(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        try parameters.allowOnly([])
        let (test, isNewlyReady) = try context.box.prepare()
        if isNewlyReady, let hook = context.hook { hook.start(for: test) }
        return ["test": test.json]
    }

    static func next(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        try parameters.allowOnly([])
        let (card, test) = try context.box.next()
        return ["card": card?.json ?? .null, "test": test.json]
    }

    static func grade(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        try parameters.allowOnly(["id", "correct", "answerMs"])
        let id = try parameters.string("id")
        let correct = try parameters.bool("correct")
        let answerMs = try parameters.optionalInt("answerMs")
        if let answerMs, answerMs < 0 { throw InvalidParameter(name: "answerMs") }
        let (card, test) = try context.box.grade(id: id, correct: correct, answerMs: answerMs)
        return ["card": card.json, "test": test.json]
    }

    static func undo(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        try parameters.allowOnly([])
        let (card, test) = try context.box.undo()
        return ["card": card.json, "test": test.json]
    }

    static func add(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        try parameters.allowOnly(["front", "back", "id", "level", "allowDuplicate"])
        let front = try Asset(json: parameters.required("front"), field: "front")
        let back = try Asset(json: parameters.required("back"), field: "back")
        let id = try parameters.optionalString("id")
        let level = try parameters.optionalString("level")
        let allowDuplicate = try parameters.optionalBool("allowDuplicate") ?? true
        let card = try context.box.add(front: front, back: back, id: id, level: level,
                                       allowDuplicateFront: allowDuplicate)
        return ["card": card.json]
    }

    static func move(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        try parameters.allowOnly(["id", "level"])
        let card = try context.box.move(id: parameters.string("id"), level: parameters.string("level"))
        return ["card": card.json]
    }

    static func delete(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        try parameters.allowOnly(["id"])
        try context.box.delete(id: parameters.string("id"))
        return [:]
    }

    static func show(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        try parameters.allowOnly(["id"])
        let card = try context.box.show(id: parameters.string("id"))
        return ["card": card.json]
    }

    static func list(_ context: Context, _ parameters: CallParameters) throws -> any ReplyItems {
        try parameters.allowOnly(["level", "withText"])
        return CardItems(try context.box.startListing(level: parameters.optionalString("level"),
                                                      withText: parameters.optionalBool("withText") ?? false))
    }

    static func readAsset(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        try parameters.allowOnly(["id", "side"])
        let id = try parameters.string("id")
        let side = try parameters.enumeration("side", as: SideName.self)
        let (name, data) = try context.box.readAsset(id: id, side: side)
        return ["name": .string(name), "data": .string(Base64.encode(data))]
    }

    static func calendar(_ context: Context, _ parameters: CallParameters) throws -> any ReplyItems {
        try parameters.allowOnly(["from", "to"])
        let from = try parameters.string("from")
        let to = try parameters.string("to")
        // Dates are the daemon's to check: a malformed one is a bad parameter, not a box error.
        guard LogicalDate(from) != nil else { throw InvalidParameter(name: "from") }
        guard LogicalDate(to) != nil else { throw InvalidParameter(name: "to") }
        let days = try context.box.calendar(from: from, to: to)
        return SnapshotItems(member: "days", kind: "day", items: days.map(\.json))
    }

    static func log(_ context: Context, _ parameters: CallParameters) throws -> any ReplyItems {
        try parameters.allowOnly(["since", "limit"])
        let since = try parameters.optionalString("since")
        let limit = try parameters.optionalInt("limit")
        if let limit, limit < 0 { throw InvalidParameter(name: "limit") }
        if let since, LogicalDate(since) == nil, DayClock.parseRFC3339(since) == nil {
            throw InvalidParameter(name: "since")
        }
        return LogItems(try context.box.logReader(since: since, limit: limit))
    }

    static func doctor(_ context: Context, _ parameters: CallParameters) throws -> any ReplyItems {
        try parameters.allowOnly([])
        return ProblemItems(try context.box.startDoctor())
    }
}
