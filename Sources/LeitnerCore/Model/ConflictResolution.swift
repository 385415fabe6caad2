/// Which side of a card's sync conflict `ResolveConflict` keeps (its `keep` parameter): on the
/// wire the words `mine` and `theirs`, or the file name of one conflict copy (docs/sync.md).
public enum ConflictResolution: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The sides as they are, under their own names; for git's markers, this machine's hunks.
    case mine
    /// The one copy of each side with copies; for git's markers, the other branch's hunks.
    case theirs
    /// That conflict copy, by its file name in the card's directory.
    case copy(named: String)

    /// The word or file name as a client sends it. Any other word is a copy's name, which the
    /// store then looks for among the card's copies (`cannotResolve` when there is none).
    public init(_ word: String) {
        switch word {
        case "mine": self = .mine
        case "theirs": self = .theirs
        default: self = .copy(named: word)
        }
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// The word on the wire.
    public var description: String {
        switch self {
        case .mine: "mine"
        case .theirs: "theirs"
        case .copy(let name): name
        }
    }
}
