
/// A card: its id, its level, its two sides and its tags (`io.leitner.Box` type `Card`).
public struct Card: Sendable, Equatable {
    public var id: String
    public var level: Level
    public var front: Side
    public var back: Side
    /// Its tags (R25), from its `tags` file: valid ones only, each once, in the file's order.
    public var tags: [String]

    public init(id: String, level: Level, front: Side, back: Side, tags: [String] = []) {
        self.id = id
        self.level = level
        self.front = front
        self.back = back
        self.tags = tags
    }

    /// The side called `name`.
    public func side(_ name: SideName) -> Side {
        switch name {
        case .front: front
        case .back: back
        }
    }
}
