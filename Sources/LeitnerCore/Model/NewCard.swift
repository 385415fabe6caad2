/// A card to add in a batch (`io.leitner.Box` type `NewCard`): what `Add` takes for one card.
public struct NewCard: Sendable, Equatable {
    public var front: Asset
    public var back: Asset
    /// The id asked for; nil to make one from the front (R20).
    public var id: String?
    /// The level asked for; nil for level 1 (R1).
    public var level: String?
    /// Whether its answer is typed in the review (R32): the card gets a `type-answer` file.
    public var typeAnswer: Bool

    public init(front: Asset, back: Asset, id: String? = nil, level: String? = nil, typeAnswer: Bool = false) {
        self.front = front
        self.back = back
        self.id = id
        self.level = level
        self.typeAnswer = typeAnswer
    }
}
