
/// A card: its id, its level and its two sides (`io.leitner.Box` type `Card`).
public struct Card: Sendable, Equatable {
    public var id: String
    public var level: Level
    public var front: Side
    public var back: Side
    /// For a reverse card (R28), the id of the card whose sides it shows swapped: its front is
    /// that card's back, and the sides' paths are that card's files. Nil for any other card.
    public var reverseOf: String?

    public init(id: String, level: Level, front: Side, back: Side, reverseOf: String? = nil) {
        self.id = id
        self.level = level
        self.front = front
        self.back = back
        self.reverseOf = reverseOf
    }

    /// The side called `name`.
    public func side(_ name: SideName) -> Side {
        switch name {
        case .front: front
        case .back: back
        }
    }
}
