/// How a terminal is asked to draw an image (docs/leitnerctl.md, "Images").
public enum ImageProtocol: String, CaseIterable, Sendable {
    /// The kitty graphics protocol (kitty, Ghostty, WezTerm, Konsole): PNG bytes as they are.
    case kitty
    /// iTerm2's inline images (iTerm2, WezTerm, Konsole): PNG or JPEG bytes as they are.
    case iterm
    /// DEC sixel graphics (foot, xterm -ti vt340, mlterm, WezTerm, Windows Terminal), made by chafa.
    case sixel
    /// Unicode half blocks in colour, any terminal, made by chafa.
    case blocks
    /// No image: its media type, and `o` to open it.
    case none

    /// The protocol named by `--images=` or `Images=`; `auto` (and nil) mean "ask the terminal".
    /// - Returns: nil for `auto`.
    /// - Throws: the names allowed, when `name` is none of them.
    public static func named(_ name: String) throws(ImageProtocolNameError) -> ImageProtocol? {
        if name == "auto" { return nil }
        guard let value = ImageProtocol(rawValue: name) else { throw ImageProtocolNameError(name: name) }
        return value
    }
}
