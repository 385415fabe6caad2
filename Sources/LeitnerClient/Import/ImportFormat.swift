import LeitnerCore
/// The file formats `leitnerctl import` reads.
public enum ImportFormat: String, Sendable, CaseIterable {
    /// Tab-separated values, backslash escapes, `#` comment lines.
    case tsv
    /// Comma-separated values, RFC 4180 quoting.
    case csv
    /// Anki's "Notes in Plain Text" export: `#separator:` and `#html:` header lines.
    case anki

    /// The format of a file, from its first bytes, then its name: a file starting with Anki's
    /// `#separator:`, `#html:`, `#notetype`, `#deck`, `#tags` or `#guid` header lines is
    /// Anki's; `.csv` is CSV; anything else TSV.
    public static func detect(fileName: String, text: Substring) -> ImportFormat {
        let headers = ["#separator:", "#html:", "#notetype", "#deck", "#tags", "#guid", "#columns:"]
        let firstLine = text.prefix { !$0.isNewline }
        if headers.contains(where: { firstLine.lowercased().hasPrefix($0) }) { return .anki }
        if MediaType.fileExtension(fileName)?.lowercased() == "csv" { return .csv }
        return .tsv
    }
}
