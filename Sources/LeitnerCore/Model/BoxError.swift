/// The errors of the box, one for each error of `io.leitner.Box` (SPEC §4). Each names the card,
/// the level or the path it is about, and the reason.
public enum BoxError: Error, Equatable, Sendable, CustomStringConvertible {
    case noSuchCard(id: String)
    case invalidCardId(id: String, reason: String)
    case invalidLevel(level: String)
    case cardExists(id: String)
    case notInTest(id: String)
    case testComplete
    case nothingToUndo
    case invalidAsset(name: String, reason: String)
    /// An operation on the store failed: `path` is the file, `reason` the operation and cause.
    case storeFailure(path: String, reason: String)
    /// A front with the same text is already in the box (Add without `allowDuplicate`).
    case duplicateFront(id: String)
    /// A parameter has the right type but a value the method cannot use (a malformed date);
    /// maps to `org.varlink.service.InvalidParameter`.
    case invalidParameter(name: String, reason: String)

    /// The error's name in the `io.leitner.Box` interface.
    public var varlinkName: String {
        switch self {
        case .noSuchCard: "io.leitner.Box.NoSuchCard"
        case .invalidCardId: "io.leitner.Box.InvalidCardId"
        case .invalidLevel: "io.leitner.Box.InvalidLevel"
        case .cardExists: "io.leitner.Box.CardExists"
        case .notInTest: "io.leitner.Box.NotInTest"
        case .testComplete: "io.leitner.Box.TestComplete"
        case .nothingToUndo: "io.leitner.Box.NothingToUndo"
        case .invalidAsset: "io.leitner.Box.InvalidAsset"
        case .storeFailure: "io.leitner.Box.StoreFailure"
        case .duplicateFront: "io.leitner.Box.DuplicateFront"
        case .invalidParameter: "org.varlink.service.InvalidParameter"
        }
    }

    /// The error's parameters, as the interface names them.
    public var parameters: [(String, String)] {
        switch self {
        case .noSuchCard(let id), .cardExists(let id), .notInTest(let id), .duplicateFront(let id):
            [("id", id)]
        case .invalidCardId(let id, let reason): [("id", id), ("reason", reason)]
        case .invalidLevel(let level): [("level", level)]
        case .testComplete, .nothingToUndo: []
        case .invalidAsset(let name, let reason): [("name", name), ("reason", reason)]
        case .storeFailure(let path, let reason): [("path", path), ("reason", reason)]
        case .invalidParameter(let name, _): [("parameter", name)]
        }
    }

    public var description: String {
        switch self {
        case .noSuchCard(let id): "no card '\(id)'"
        case .invalidCardId(let id, let reason): "invalid card id '\(id)': \(reason)"
        case .invalidLevel(let level): "invalid level '\(level)': expected 1 to 7 or finished"
        case .cardExists(let id): "card '\(id)' already exists"
        case .notInTest(let id): "card '\(id)' is not in today's test"
        case .testComplete: "today's test is complete"
        case .nothingToUndo: "nothing to undo today"
        case .invalidAsset(let name, let reason): "invalid asset '\(name)': \(reason)"
        case .storeFailure(let path, let reason): "'\(path)': \(reason)"
        case .duplicateFront(let id): "a card with the same front exists: '\(id)'"
        case .invalidParameter(let name, let reason): "invalid parameter '\(name)': \(reason)"
        }
    }
}
