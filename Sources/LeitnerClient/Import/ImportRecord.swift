import LeitnerCore

/// A card to add, read from an import source, with where it was read.
public struct ImportRecord: Sendable, Equatable {
    /// What a record adds: a card with sides of its own, or one that shows another's (R28, R30),
    /// or a cloze note.
    public enum Kind: Sendable, Equatable {
        case card
        /// A reverse card of the card named (R28): its sides, if any were read, are not its own.
        case reverse(of: String)
        /// Card `number` of the note named (R30); read from a file, its front is the note's text
        /// and its back the note's extra (empty: none), as `export` writes them.
        case cloze(ClozeOf)
        /// A note (R30) read from a directory's `notes/NOTE/`: front its text, back its extra
        /// (empty: none).
        case note
    }

    /// Where it came from: a line of a file, or the file of a pair's front or a card directory.
    public var location: ImportLocation
    /// The id asked for, or nil to let the box choose one.
    public var id: String?
    /// The level asked for, or nil for level 1 (R1).
    public var level: String?
    public var front: ImportSide
    public var back: ImportSide
    /// The tags the source gives the card (R25): a `tags` column, or Anki's tags field.
    public var tags: [String]
    public var kind: Kind
    /// Whether it asks for its answer typed (R32): a `type-answer` column or file.
    public var typeAnswer: Bool
    /// The pictures and sounds beside its sides (R31), by path: a card directory's files.
    public var media: [String]

    public init(location: ImportLocation, id: String? = nil, level: String? = nil, front: ImportSide, back: ImportSide,
                tags: [String] = [], kind: Kind = .card, typeAnswer: Bool = false, media: [String] = []) {
        self.tags = tags
        self.location = location
        self.id = id
        self.level = level
        self.front = front
        self.back = back
        self.kind = kind
        self.typeAnswer = typeAnswer
        self.media = media
    }
}
