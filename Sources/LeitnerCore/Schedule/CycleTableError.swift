/// Why a cycle table was rejected (R3).
public enum CycleTableError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case emptyEntry(index: Int)
    case invalidLevel(index: Int, level: String)
    case repeatedLevel(index: Int, level: Level)

    public var description: String {
        switch self {
        case .empty: "the cycle has no entry"
        case .emptyEntry(let i): "cycle entry \(i + 1) is empty"
        case .invalidLevel(let i, let level): "cycle entry \(i + 1) names level '\(level)', not one of 1 to 7"
        case .repeatedLevel(let i, let level): "cycle entry \(i + 1) names level \(level) twice"
        }
    }
}
