
/// A card: its id, its level and its two sides (`io.leitner.Box` type `Card`).
public struct Card: Sendable, Equatable {
    public var id: String
    public var level: Level
    public var front: Side
    public var back: Side

    public init(id: String, level: Level, front: Side, back: Side) {
        self.id = id
        self.level = level
        self.front = front
        self.back = back
    }
}
