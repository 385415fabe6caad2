/// A picture or a sound a Markdown side shows (R31, `io.leitner.Box` type `Medium`): a file
/// in the card's directory, or its note's for a cloze card, that the side names and that is
/// there to be read.
public struct Medium: Sendable, Equatable {
    /// The file's name in the directory: what the side writes and what a client asks for.
    public var name: String
    /// Media type from the name (`image/png`, `audio/mpeg`, …).
    public var mediaType: String
    /// Absolute path of the file, for a client on this machine.
    public var path: String

    public init(name: String, mediaType: String, path: String) {
        self.name = name
        self.mediaType = mediaType
        self.path = path
    }
}
