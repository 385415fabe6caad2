/// A level of the box: `1` … `7` in rotation, or `finished` (retired). The same name is used as
/// directory name, on the wire, on the command line and in logs (docs/rules.md).
public enum Level: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    case one = 1, two, three, four, five, six, seven
    case finished = 8

    /// The levels in rotation, `1` … `7`.
    public static let rotation: [Level] = [.one, .two, .three, .four, .five, .six, .seven]

    /// Parses a level name: `1` … `7` or `finished`.
    /// - Parameter name: the name as written by a user or a client.
    /// - Returns: nil when the name is not a level.
    public init?(name: some StringProtocol) {
        switch name {
        case "finished": self = .finished
        case "1", "2", "3", "4", "5", "6", "7": self.init(rawValue: Int(name.utf8.first! - 48))
        default: return nil
        }
    }

    /// The level's name: its directory name and its name on the wire.
    public var name: String { self == .finished ? "finished" : String(rawValue) }
    public var description: String { name }

    /// True for `1` … `7`.
    public var inRotation: Bool { self != .finished }

    /// The level a correct answer moves a card to (R9): one up, `7` → `finished`.
    public var promoted: Level { self == .finished ? .finished : Level(rawValue: rawValue + 1)! }

    /// The level a wrong answer moves a card to (R9): `1`, or one down with `OnFail=previous`.
    public func demoted(_ policy: OnFailPolicy) -> Level {
        switch policy {
        case .first: return .one
        case .previous: return self == .finished ? .seven : Level(rawValue: max(1, rawValue - 1))!
        }
    }

    public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
}
