/// One side of a card as the box shows it (`io.leitner.Box` type `Side`).
public struct Side: Sendable, Equatable {
    /// Absolute path of the asset file.
    public var path: String
    /// Media type from the file name (`text/plain`, `image/png`, …).
    public var mediaType: String
    /// The content of a text asset (up to 64 KiB), nil for other media or when not asked for.
    public var text: String?
    /// The media a Markdown side refers to and has beside it (R31), in the order of first use;
    /// filled only with the text.
    public var media: [Medium]

    public init(path: String, mediaType: String, text: String?, media: [Medium] = []) {
        self.path = path
        self.mediaType = mediaType
        self.text = text
        self.media = media
    }

    /// The medium named `name`, nil when the side lists none by that name.
    public func medium(named name: String) -> Medium? { media.first { $0.name == name } }
}
