/// The files of a card directory that are not sides, and of a note (docs/store-format.md): what
/// makes a directory a reverse card (R28) or a cloze card (R30), and where notes live. The store
/// reads and writes them; `export --dir` and `import DIR` write and read the same layout, so a
/// directory of cards is a store's and the names are said once, here.
public enum CardLayout {
    /// The file that makes a card directory a reverse card: the other card's id on one line.
    public static let reverseFile = "reverse-of"
    /// The file that makes a card directory a cloze card: the note's id, then `cN`.
    public static let clozeFile = "cloze-of"
    /// The place of the notes, beside the levels.
    public static let notesDirectory = "notes"
    /// A note's text, Markdown first; its extra, shown with every answer.
    public static let noteTexts = ["text.md", "text.txt"]
    public static let noteExtra = "extra.md"

    /// The text of a `reverse-of` file naming `original`.
    public static func reverseFileText(_ original: String) -> String { original + "\n" }

    /// The text of a `cloze-of` file naming `link`.
    public static func clozeFileText(_ link: ClozeOf) -> String { link.note + "\nc\(link.number)\n" }

    /// The id a `reverse-of` file's text names: its first line that is not blank, without
    /// surrounding white space, in normal form C.
    public static func reverseOf(fileText text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).first { !$0.allSatisfy(\.isWhitespace) } ?? ""
        return CardID.composed(String(line.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()))
    }

    /// What a `cloze-of` file's text names, or why it names nothing.
    public static func clozeOf(fileText text: String) -> Result<ClozeOf, Unreadable> {
        Store.parseClozeFile(text).mapError { Unreadable(reason: $0.reason) }
    }

    /// Why a link file names nothing.
    public struct Unreadable: Error, Equatable {
        public var reason: String
    }
}
