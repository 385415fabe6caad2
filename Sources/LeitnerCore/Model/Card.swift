
/// A card: its id, its level, its two sides and its tags (`io.leitner.Box` type `Card`).
public struct Card: Sendable, Equatable {
    public var id: String
    public var level: Level
    public var front: Side
    public var back: Side
    /// Its tags (R25), from its `tags` file: valid ones only, each once, in the file's order.
    /// A reverse card (R28) has its own: those of its own directory's `tags` file.
    public var tags: [String]
    /// For a reverse card (R28), the id of the card whose sides it shows swapped: its front is
    /// that card's back, and the sides' paths are that card's files. Nil for any other card.
    public var reverseOf: String?
    /// For a cloze card (R30), the note and the deletion number it asks; its sides are the
    /// note's text, served with that deletion hidden and revealed. Nil for any other card.
    public var clozeOf: ClozeOf?

    public init(id: String, level: Level, front: Side, back: Side, tags: [String] = [], reverseOf: String? = nil,
                clozeOf: ClozeOf? = nil) {
        self.id = id
        self.level = level
        self.front = front
        self.back = back
        self.tags = tags
        self.reverseOf = reverseOf
        self.clozeOf = clozeOf
    }

    /// The side called `name`.
    public func side(_ name: SideName) -> Side {
        switch name {
        case .front: front
        case .back: back
        }
    }
}
