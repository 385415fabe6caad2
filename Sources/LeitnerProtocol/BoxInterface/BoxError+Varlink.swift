import LeitnerCore
import LeitnerVarlink

/// The box's errors on the wire: each error's name and parameters in `io.leitner.Box`, written
/// once here for both sides. The daemon encodes with `varlinkReply`, and leitnerctl decodes with
/// `init?(_:)`. `BoxInterfaceTests` checks that this table, the interface text
/// (`BoxInterface.description`) and the decoder agree.
extension BoxError {
    /// The error names of `io.leitner.Box` that the box raises.
    public enum Name {
        public static let noSuchCard = BoxInterface.name + ".NoSuchCard"
        public static let invalidCardId = BoxInterface.name + ".InvalidCardId"
        public static let invalidLevel = BoxInterface.name + ".InvalidLevel"
        public static let cardExists = BoxInterface.name + ".CardExists"
        public static let notInTest = BoxInterface.name + ".NotInTest"
        public static let testComplete = BoxInterface.name + ".TestComplete"
        public static let nothingToUndo = BoxInterface.name + ".NothingToUndo"
        public static let invalidAsset = BoxInterface.name + ".InvalidAsset"
        public static let storeFailure = BoxInterface.name + ".StoreFailure"
        public static let duplicateFront = BoxInterface.name + ".DuplicateFront"
        public static let invalidPattern = BoxInterface.name + ".InvalidPattern"
        public static let cannotResolve = BoxInterface.name + ".CannotResolve"
        public static let replyTooLarge = BoxInterface.name + ".ReplyTooLarge"
    }

    /// The error's qualified name. A bad parameter value is the standard
    /// `org.varlink.service.InvalidParameter`.
    public var varlinkName: String {
        switch self {
        case .noSuchCard: Name.noSuchCard
        case .invalidCardId: Name.invalidCardId
        case .invalidLevel: Name.invalidLevel
        case .cardExists: Name.cardExists
        case .notInTest: Name.notInTest
        case .testComplete: Name.testComplete
        case .nothingToUndo: Name.nothingToUndo
        case .invalidAsset: Name.invalidAsset
        case .storeFailure: Name.storeFailure
        case .duplicateFront: Name.duplicateFront
        case .invalidPattern: Name.invalidPattern
        case .cannotResolve: Name.cannotResolve
        case .replyTooLarge: Name.replyTooLarge
        case .invalidParameter: VarlinkServiceInterface.invalidParameter
        }
    }

    /// The error's parameters, in the interface's order.
    public var parameters: [(String, String)] {
        switch self {
        case .noSuchCard(let id), .cardExists(let id), .notInTest(let id), .duplicateFront(let id):
            [("id", id)]
        case .invalidCardId(let id, let reason), .cannotResolve(let id, let reason): [("id", id), ("reason", reason)]
        case .invalidLevel(let level): [("level", level)]
        case .testComplete, .nothingToUndo: []
        case .invalidAsset(let name, let reason): [("name", name), ("reason", reason)]
        case .storeFailure(let path, let reason): [("path", path), ("reason", reason)]
        case .replyTooLarge(let reason): [("reason", reason)]
        case .invalidParameter(let name, _): [("parameter", name)]
        case .invalidPattern(let pattern, let reason): [("pattern", pattern), ("reason", reason)]
        }
    }

    /// The error's parameters as JSON.
    public var varlinkParameters: [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: parameters.map { ($0.0, JSONValue.string($0.1)) })
    }

    /// The error reply for this error.
    public var varlinkReply: VarlinkReply { .error(varlinkName, varlinkParameters) }

    /// The box error an error reply stands for. It is nil for an error the box does not raise,
    /// or one whose parameters are missing. `InvalidParameter` carries no reason on the wire.
    public init?(_ error: VarlinkCallError) {
        let fields = JSONFields(members: error.parameters)
        func text(_ key: String) -> String? { try? fields.string(key) }
        switch error.name {
        case Name.noSuchCard: guard let id = text("id") else { return nil }; self = .noSuchCard(id: id)
        case Name.invalidCardId:
            guard let id = text("id"), let reason = text("reason") else { return nil }
            self = .invalidCardId(id: id, reason: reason)
        case Name.invalidLevel: guard let level = text("level") else { return nil }; self = .invalidLevel(level: level)
        case Name.cardExists: guard let id = text("id") else { return nil }; self = .cardExists(id: id)
        case Name.notInTest: guard let id = text("id") else { return nil }; self = .notInTest(id: id)
        case Name.testComplete: self = .testComplete
        case Name.nothingToUndo: self = .nothingToUndo
        case Name.invalidAsset:
            guard let name = text("name"), let reason = text("reason") else { return nil }
            self = .invalidAsset(name: name, reason: reason)
        case Name.storeFailure:
            guard let path = text("path"), let reason = text("reason") else { return nil }
            self = .storeFailure(path: path, reason: reason)
        case Name.duplicateFront: guard let id = text("id") else { return nil }; self = .duplicateFront(id: id)
        case Name.invalidPattern:
            guard let pattern = text("pattern"), let reason = text("reason") else { return nil }
            self = .invalidPattern(pattern: pattern, reason: reason)
        case Name.cannotResolve:
            guard let id = text("id"), let reason = text("reason") else { return nil }
            self = .cannotResolve(id: id, reason: reason)
        case Name.replyTooLarge: guard let reason = text("reason") else { return nil }; self = .replyTooLarge(reason: reason)
        case VarlinkServiceInterface.invalidParameter:
            guard let name = text("parameter") else { return nil }
            self = .invalidParameter(name: name, reason: "refused by the service")
        default: return nil
        }
    }
}
