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
    /// Its tags (R25), written with the card in the same change; a reverse added beside it
    /// gets a copy (R28).
    public var tags: [String]
    /// The pictures and sounds its sides name (R31), each a file of the card's directory by
    /// its name, written with the card.
    public var media: [Asset]
    /// The level or place of the reverse added beside it (R28), when it is not the card's: an
    /// import keeping each card's progress (R34) puts a card and its reverse in one batch.
    public var reverseLevel: String?

    public init(front: Asset, back: Asset, id: String? = nil, level: String? = nil, typeAnswer: Bool = false,
                tags: [String] = [], media: [Asset] = [], reverseLevel: String? = nil) {
        self.front = front
        self.back = back
        self.id = id
        self.level = level
        self.typeAnswer = typeAnswer
        self.tags = tags
        self.media = media
        self.reverseLevel = reverseLevel
    }
}
