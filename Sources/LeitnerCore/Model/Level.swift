/// A level of the box: `1` … `7` in rotation, or `finished` (retired); or one of the two places
/// beside them, `new` (cards waiting to be admitted, R23) and `suspended` (R24), whose cards are
/// in no test. A place is a directory of the store like a level, so the store opens, indexes,
/// scans and watches it by the same code; only the schedule tells them apart (`inRotation`,
/// `isPlace`). The same name is used as directory name, on the wire, on the command line and
/// in logs (docs/rules.md). The raw values are contiguous from 1: tables indexed by
/// `rawValue - 1` hold the places too.
public enum Level: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    case one = 1, two, three, four, five, six, seven
    case finished = 8
    /// R23: cards added and not yet admitted into level `1`.
    case new = 9
    /// R24: cards taken out of the schedule until unsuspended.
    case suspended = 10

    /// The levels in rotation, `1` … `7`.
    public static let rotation: [Level] = [.one, .two, .three, .four, .five, .six, .seven]

    /// The levels proper, `1` … `7` and `finished`: where a test, a grade or a chart looks.
    public static let levels: [Level] = rotation + [.finished]

    /// The places beside the levels, `new` and `suspended`.
    public static let places: [Level] = [.new, .suspended]

    /// Parses a level name: `1` … `7`, `finished`, `new` or `suspended`.
    /// - Parameter name: the name as written by a user or a client.
    /// - Returns: nil when the name is not a level.
    public init?(name: some StringProtocol) {
        switch name {
        case "finished": self = .finished
        case "new": self = .new
        case "suspended": self = .suspended
        case "1", "2", "3", "4", "5", "6", "7": self.init(rawValue: Int(name.utf8.first! - 48))
        default: return nil
        }
    }

    /// The level's name: its directory name and its name on the wire.
    public var name: String {
        switch self {
        case .finished: "finished"
        case .new: "new"
        case .suspended: "suspended"
        default: String(rawValue)
        }
    }
    public var description: String { name }

    /// True for `1` … `7`.
    public var inRotation: Bool { rawValue <= Level.seven.rawValue }

    /// True for `new` and `suspended`: in no test, never graded.
    public var isPlace: Bool { self == .new || self == .suspended }

    /// The level a correct answer moves a card to (R9): one up, `7` → `finished`. A place is
    /// never graded; it stays where it is.
    public var promoted: Level { inRotation ? Level(rawValue: rawValue + 1)! : self }

    /// The level a wrong answer moves a card to (R9): `1`, or one down with `OnFail=previous`.
    public func demoted(_ policy: OnFailPolicy) -> Level {
        switch policy {
        case .first: return isPlace ? self : .one
        case .previous:
            if isPlace { return self }
            return self == .finished ? .seven : Level(rawValue: max(1, rawValue - 1))!
        }
    }

    public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
}
