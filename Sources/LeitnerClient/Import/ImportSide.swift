/// One side of an imported card: text, or a file to send as it is.
public enum ImportSide: Sendable, Hashable {
    /// Text, stored as `front.EXT`/`back.EXT`: `txt`, or `md` for Markdown (an export's
    /// `frontext`/`backext` columns).
    case text(String, extension: String = "txt")
    /// A file whose bytes become the asset; the extension of `path` names the media.
    case file(path: String)
}
