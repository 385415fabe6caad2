/// A card answered wrong often (`io.leitner.Box` type `Leech`): a card worth rewriting.
public struct Leech: Sendable, Equatable {
    public var id: String
    /// Wrong answers not undone in the leech window.
    public var failures: Int
    /// The level the card is in now.
    public var level: Level

    public init(id: String, failures: Int, level: Level) {
        self.id = id
        self.failures = failures
        self.level = level
    }
}
