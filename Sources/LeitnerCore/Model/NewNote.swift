/// A cloze note to add in a batch (`io.leitner.Box` type `NewNote`): what `AddCloze` takes for
/// one note, and the level of each of its cards when they are not all in one.
public struct NewNote: Sendable, Equatable {
    /// The note's text, with deletions `{{c1::answer}}` (R30).
    public var text: String
    /// The note's id asked for; nil to make one from its text (R20).
    public var id: String?
    /// The level or place of its cards; nil for where a new card goes (R23).
    public var level: String?
    /// Shown under every answer.
    public var extra: String?
    /// Its tags (R25), given to the note and to each of its cards.
    public var tags: [String]
    /// Whether its cards ask for their deletions typed (R32): the note gets a `type-answer` file.
    public var typeAnswer: Bool
    /// The pictures and sounds its text names (R31), files of the note's directory.
    public var media: [Asset]
    /// The level or place of the card of a deletion number, when it is not `level`: an import
    /// keeping each card's progress (R34) puts every card where it belongs in the one change
    /// that adds it, not by a move afterwards.
    public var cardLevels: [Int: String]

    public init(text: String, id: String? = nil, level: String? = nil, extra: String? = nil, tags: [String] = [],
                typeAnswer: Bool = false, media: [Asset] = [], cardLevels: [Int: String] = [:]) {
        self.text = text
        self.id = id
        self.level = level
        self.extra = extra
        self.tags = tags
        self.typeAnswer = typeAnswer
        self.media = media
        self.cardLevels = cardLevels
    }
}
