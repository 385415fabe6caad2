/// A card to add in a batch (`io.leitner.Box` type `NewCard`): what `Add` takes for one card.
public struct NewCard: Sendable, Equatable {
    public var front: Asset
    public var back: Asset
    /// The id asked for; nil to make one from the front (R20).
    public var id: String?
    /// The level asked for; nil for level 1 (R1).
    public var level: String?

    public init(front: Asset, back: Asset, id: String? = nil, level: String? = nil) {
        self.front = front
        self.back = back
        self.id = id
        self.level = level
    }
}
