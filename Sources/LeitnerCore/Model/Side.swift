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
