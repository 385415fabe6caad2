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
