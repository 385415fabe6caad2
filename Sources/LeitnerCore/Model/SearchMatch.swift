/// One line a search found (`Search`): the card, where in it, and the line as it is in the card.
public struct SearchMatch: Sendable, Equatable {
    /// What of a card is searched.
    public enum Field: String, Sendable, CaseIterable {
        case id, front, back
    }

    public var id: String
    public var level: Level
    public var field: Field
    /// The matching line of the side (or the id), without its line break.
    public var line: String
    /// The side's media type (`text/markdown`, ...), so that a reader can show the line as the
    /// side reads, without its marks; nil for the id.
    public var mediaType: String?

    public init(id: String, level: Level, field: Field, line: String, mediaType: String? = nil) {
        self.id = id
        self.level = level
        self.field = field
        self.line = line
        self.mediaType = mediaType
    }
}
