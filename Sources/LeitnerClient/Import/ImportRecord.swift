/// A card to add, read from an import source, with where it was read.
public struct ImportRecord: Sendable, Equatable {
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

    public init(location: ImportLocation, id: String? = nil, level: String? = nil, front: ImportSide, back: ImportSide,
                tags: [String] = []) {
        self.tags = tags
        self.location = location
        self.id = id
        self.level = level
        self.front = front
        self.back = back
    }
}
