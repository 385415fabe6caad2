/// Media types from file extensions (docs/rules.md: the extension says what the asset is).
public enum MediaType {
    static let byExtension: [String: String] = [
        "txt": "text/plain", "text": "text/plain", "md": "text/markdown", "markdown": "text/markdown",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "svg": "image/svg+xml", "webp": "image/webp", "mp3": "audio/mpeg", "ogg": "audio/ogg",
        "oga": "audio/ogg", "wav": "audio/wav", "flac": "audio/flac", "m4a": "audio/mp4",
        "opus": "audio/opus", "html": "text/html", "pdf": "application/pdf",
    ]

    /// The media type of a file named `name`, by its extension; `application/octet-stream` when unknown.
    public static func of(fileName name: String) -> String {
        guard let ext = fileExtension(name) else { return "application/octet-stream" }
        return byExtension[ext.lowercased()] ?? "application/octet-stream"
    }

    /// True when assets of this media type are text the box returns inline.
    public static func isText(_ mediaType: String) -> Bool { mediaType.hasPrefix("text/") }

    /// The extension of `name` (after the last dot), nil when it has none.
    public static func fileExtension(_ name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...]
        return ext.isEmpty ? nil : String(ext)
    }
}
