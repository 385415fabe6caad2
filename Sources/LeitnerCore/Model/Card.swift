/// One side of a card as the box shows it (`io.leitner.Box` type `Side`).
public struct Side: Sendable, Equatable {
    /// Absolute path of the asset file.
    public var path: String
    /// Media type from the file name (`text/plain`, `image/png`, …).
    public var mediaType: String
    /// The content of a text asset (up to 64 KiB), nil for other media or when not asked for.
    public var text: String?

    public init(path: String, mediaType: String, text: String?) {
        self.path = path
        self.mediaType = mediaType
        self.text = text
    }
}

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

/// Which side of a card.
public enum SideName: String, Sendable, CaseIterable {
    case front, back
}

/// A side of a new card as a client sends it (`io.leitner.Box` type `Asset`): text, or bytes;
/// `name` gives the extension (`front.md`, `back.png`).
public struct Asset: Sendable, Equatable {
    public var name: String
    public var content: [UInt8]

    public init(name: String, content: [UInt8]) {
        self.name = name
        self.content = content
    }

    /// An asset made of text.
    public init(name: String, text: String) {
        self.init(name: name, content: Array(text.utf8))
    }
}
