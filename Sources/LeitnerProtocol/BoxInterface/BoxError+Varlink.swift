import LeitnerCore
import LeitnerVarlink

/// The box's errors on the wire: each error's name and parameters in `io.leitner.Box`, written
/// once here for both sides. The daemon encodes with `varlinkReply`, and leitnerctl decodes with
/// `init?(_:)`; both go through `wireTable`, one row per error. `BoxErrorTableTests` and
/// `BoxInterfaceTests` hold the table to the interface text (`BoxInterface.description`).
extension BoxError {
    /// The error names of `io.leitner.Box` that the box raises.
    public enum Name {
        public static let noSuchCard = BoxInterface.name + ".NoSuchCard"
        public static let invalidCardId = BoxInterface.name + ".InvalidCardId"
        public static let invalidLevel = BoxInterface.name + ".InvalidLevel"
        public static let cardExists = BoxInterface.name + ".CardExists"
        public static let notInTest = BoxInterface.name + ".NotInTest"
        public static let notSuspended = BoxInterface.name + ".NotSuspended"
        public static let testComplete = BoxInterface.name + ".TestComplete"
        public static let nothingToUndo = BoxInterface.name + ".NothingToUndo"
        public static let invalidAsset = BoxInterface.name + ".InvalidAsset"
        public static let storeFailure = BoxInterface.name + ".StoreFailure"
        public static let duplicateFront = BoxInterface.name + ".DuplicateFront"
        public static let invalidPattern = BoxInterface.name + ".InvalidPattern"
        public static let searchCut = BoxInterface.name + ".SearchCut"
        public static let cannotResolve = BoxInterface.name + ".CannotResolve"
        public static let replyTooLarge = BoxInterface.name + ".ReplyTooLarge"
        public static let invalidTag = BoxInterface.name + ".InvalidTag"
        public static let reverseOfReverse = BoxInterface.name + ".ReverseOfReverse"
        public static let keptGradeRefused = BoxInterface.name + ".KeptGradeRefused"
    }

    /// One error on the wire: its qualified name, its parameters as the interface declares
    /// them, and the two directions side by side, so that a new error is one row.
    public struct WireError: Sendable {
        public let name: String
        /// The parameters in the interface's order, with their declared types.
        public let parameters: [VarlinkField]
        /// The values of `parameters` when the error is this row's case, else nil; nil for an
        /// absent optional parameter.
        let encode: @Sendable (BoxError) -> [JSONValue?]?
        /// The error from the parameters, nil when a required one is missing.
        let decode: @Sendable (WireValues) -> BoxError?
    }

    /// Reads a row's parameters by their position in `WireError.parameters`, so that the decoder
    /// names no parameter again.
    struct WireValues {
        let names: [String]
        let fields: JSONFields

        func string(_ index: Int) -> String? { try? fields.string(names[index]) }

        /// An optional number: nil when absent, null, not an integer or out of `Int32`'s range;
        /// an errno a client cannot read is no reason to lose the error.
        func int32(_ index: Int) -> Int32? {
            (try? fields.optionalInt(names[index])).flatMap { $0.flatMap(Int32.init(exactly:)) }
        }

        func optionalString(_ index: Int) -> String? { (try? fields.optionalString(names[index])).flatMap { $0 } }
    }

    private static func string(_ name: String) -> VarlinkField { VarlinkField(name: name, type: .string) }

    /// Every error the box raises. `InvalidParameter` is the standard
    /// `org.varlink.service.InvalidParameter`, which carries no reason on the wire.
    public static let wireTable: [WireError] = [
        WireError(name: Name.noSuchCard, parameters: [string("id")],
                  encode: { if case .noSuchCard(let id) = $0 { [.string(id)] } else { nil } },
                  decode: { $0.string(0).map { .noSuchCard(id: $0) } }),
        WireError(name: Name.invalidCardId, parameters: [string("id"), string("reason")],
                  encode: { if case .invalidCardId(let id, let reason) = $0 { [.string(id), .string(reason)] } else { nil } },
                  decode: { v in v.string(0).flatMap { id in v.string(1).map { .invalidCardId(id: id, reason: $0) } } }),
        WireError(name: Name.invalidLevel, parameters: [string("level")],
                  encode: { if case .invalidLevel(let level) = $0 { [.string(level)] } else { nil } },
                  decode: { $0.string(0).map { .invalidLevel(level: $0) } }),
        WireError(name: Name.cardExists, parameters: [string("id")],
                  encode: { if case .cardExists(let id) = $0 { [.string(id)] } else { nil } },
                  decode: { $0.string(0).map { .cardExists(id: $0) } }),
        WireError(name: Name.notInTest, parameters: [string("id")],
                  encode: { if case .notInTest(let id) = $0 { [.string(id)] } else { nil } },
                  decode: { $0.string(0).map { .notInTest(id: $0) } }),
        WireError(name: Name.notSuspended, parameters: [string("id"), string("level")],
                  encode: { if case .notSuspended(let id, let level) = $0 { [.string(id), .string(level)] } else { nil } },
                  decode: { v in v.string(0).flatMap { id in v.string(1).map { .notSuspended(id: id, level: $0) } } }),
        WireError(name: Name.testComplete, parameters: [],
                  encode: { if case .testComplete = $0 { [] } else { nil } },
                  decode: { _ in .testComplete }),
        WireError(name: Name.nothingToUndo, parameters: [],
                  encode: { if case .nothingToUndo = $0 { [] } else { nil } },
                  decode: { _ in .nothingToUndo }),
        WireError(name: Name.invalidAsset, parameters: [string("name"), string("reason")],
                  encode: { if case .invalidAsset(let name, let reason) = $0 { [.string(name), .string(reason)] } else { nil } },
                  decode: { v in v.string(0).flatMap { name in v.string(1).map { .invalidAsset(name: name, reason: $0) } } }),
        // errno and operation are nullable: an older client ignores them, and an older daemon
        // sends neither.
        WireError(name: Name.storeFailure,
                  parameters: [string("path"), string("reason"), VarlinkField(name: "errno", type: .optional(.int)),
                               VarlinkField(name: "operation", type: .optional(.string))],
                  encode: {
                      guard case .storeFailure(let path, let reason, let number, let operation) = $0 else { return nil }
                      return [.string(path), .string(reason), number.map { .int(Int64($0)) }, operation.map(JSONValue.string)]
                  },
                  decode: { v in
                      guard let path = v.string(0), let reason = v.string(1) else { return nil }
                      return .storeFailure(path: path, reason: reason, errno: v.int32(2), operation: v.optionalString(3))
                  }),
        WireError(name: Name.duplicateFront, parameters: [string("id")],
                  encode: { if case .duplicateFront(let id) = $0 { [.string(id)] } else { nil } },
                  decode: { $0.string(0).map { .duplicateFront(id: $0) } }),
        WireError(name: Name.invalidPattern, parameters: [string("pattern"), string("reason")],
                  encode: { if case .invalidPattern(let pattern, let reason) = $0 { [.string(pattern), .string(reason)] } else { nil } },
                  decode: { v in v.string(0).flatMap { pattern in v.string(1).map { .invalidPattern(pattern: pattern, reason: $0) } } }),
        WireError(name: Name.searchCut, parameters: [string("pattern"), string("reason")],
                  encode: { if case .searchCut(let pattern, let reason) = $0 { [.string(pattern), .string(reason)] } else { nil } },
                  decode: { v in v.string(0).flatMap { pattern in v.string(1).map { .searchCut(pattern: pattern, reason: $0) } } }),
        WireError(name: Name.cannotResolve, parameters: [string("id"), string("reason")],
                  encode: { if case .cannotResolve(let id, let reason) = $0 { [.string(id), .string(reason)] } else { nil } },
                  decode: { v in v.string(0).flatMap { id in v.string(1).map { .cannotResolve(id: id, reason: $0) } } }),
        WireError(name: Name.reverseOfReverse, parameters: [string("id"), string("reverseOf")],
                  encode: { if case .reverseOfReverse(let id, let original) = $0 { [.string(id), .string(original)] } else { nil } },
                  decode: { v in v.string(0).flatMap { id in v.string(1).map { .reverseOfReverse(id: id, reverseOf: $0) } } }),
        WireError(name: Name.keptGradeRefused, parameters: [string("device"), string("reason")],
                  encode: { if case .keptGradeRefused(let device, let reason) = $0 { [.string(device), .string(reason)] } else { nil } },
                  decode: { v in v.string(0).flatMap { device in v.string(1).map { .keptGradeRefused(device: device, reason: $0) } } }),
        WireError(name: Name.replyTooLarge, parameters: [string("reason")],
                  encode: { if case .replyTooLarge(let reason) = $0 { [.string(reason)] } else { nil } },
                  decode: { $0.string(0).map { .replyTooLarge(reason: $0) } }),
        WireError(name: Name.invalidTag, parameters: [string("tag"), string("reason")],
                  encode: { if case .invalidTag(let tag, let reason) = $0 { [.string(tag), .string(reason)] } else { nil } },
                  decode: { v in v.string(0).flatMap { tag in v.string(1).map { .invalidTag(tag: tag, reason: $0) } } }),
        WireError(name: VarlinkServiceInterface.invalidParameter, parameters: [string("parameter")],
                  encode: { if case .invalidParameter(let name, _) = $0 { [.string(name)] } else { nil } },
                  decode: { $0.string(0).map { .invalidParameter(name: $0, reason: "refused by the service") } }),
    ]

    /// The error's row and its values. Every case has a row (`BoxErrorTableTests`).
    private var wire: (row: WireError, values: [JSONValue?]) {
        for row in Self.wireTable {
            if let values = row.encode(self) { return (row, values) }
        }
        preconditionFailure("BoxError.wireTable has no row for \(self)")
    }

    /// The error's qualified name. A bad parameter value is the standard
    /// `org.varlink.service.InvalidParameter`.
    public var varlinkName: String { wire.row.name }

    /// The error's parameters that have a value, in the interface's order.
    public var parameters: [(String, JSONValue)] {
        let (row, values) = wire
        return zip(row.parameters, values).compactMap { field, value in value.map { (field.name, $0) } }
    }

    /// The error's parameters as JSON.
    public var varlinkParameters: [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: parameters)
    }

    /// The error reply for this error.
    public var varlinkReply: VarlinkReply { .error(varlinkName, varlinkParameters) }

    /// The box error an error reply stands for. It is nil for an error the box does not raise,
    /// or one whose parameters are missing. `InvalidParameter` carries no reason on the wire.
    public init?(_ error: VarlinkCallError) {
        guard let row = Self.wireTable.first(where: { $0.name == error.name }),
              let decoded = row.decode(WireValues(names: row.parameters.map(\.name), fields: JSONFields(members: error.parameters)))
        else { return nil }
        self = decoded
    }
}
