/// The name of a medium (R31): one file name in a card's or a note's directory, never a path.
/// The one check of such a name, asked by the side parser, `add --media`, the importers, the
/// web's handler and `doctor`, so that a name one of them accepts no other refuses.
public enum MediaName {
    /// The longest name, in UTF-8 bytes: the longest file name Linux file systems take.
    public static let maxBytes = 255

    /// The kind of medium a reference asks for; its file's media type must be of that kind.
    public enum Kind: String, Sendable, Equatable {
        case image, sound

        /// The prefix of the media types this kind takes (`image/`, `audio/`).
        var mediaTypePrefix: String { self == .image ? "image/" : "audio/" }
    }

    /// Why `name` cannot name a medium of `kind`, nil when it can. The reasons read after the
    /// quoted name ("'../x.png' is a path, not a file name").
    public static func problem(_ name: String, kind: Kind) -> String? {
        if let problem = problem(name) { return problem }
        let mediaType = MediaType.of(fileName: name)
        guard mediaType.hasPrefix(kind.mediaTypePrefix) else {
            return "is not \(kind == .image ? "an image" : "a sound") (\(mediaType))"
        }
        return nil
    }

    /// Why `name` cannot be a medium's file name whatever its kind, nil when it can: empty, a
    /// path (a `/`, a backslash, `.` or `..`, which also turns away URLs and absolute paths), a
    /// hidden file (a leading dot: sync tools keep their own files so), a control character,
    /// or too long. A side's own file name (`front.md`) is a name like any other here;
    /// `add --media` refuses those itself, since there they would overwrite a side.
    public static func problem(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name.contains("/") || name.contains("\\") || name == ".." { return "is a path, not a file name" }
        if name.hasPrefix(".") { return "is a hidden file name" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "holds a control character"
        }
        if name.utf8.count > maxBytes { return "is longer than \(maxBytes) bytes" }
        return nil
    }

    /// The kind a media type's file serves as, nil for a file that is neither image nor sound.
    public static func kind(ofMediaType mediaType: String) -> Kind? {
        if mediaType.hasPrefix("image/") { return .image }
        if mediaType.hasPrefix("audio/") { return .sound }
        return nil
    }
}
