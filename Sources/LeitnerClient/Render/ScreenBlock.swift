/// One piece of the review's scrolling body: a line of text, or an image that covers `rows`
/// lines and is drawn by `drawing` (escape sequences) at the top-left of its place.
public enum ScreenBlock: Equatable, Sendable {
    case text(String)
    case image(rows: Int, drawing: String)

    /// The body lines of `blocks`, one entry a screen line: the text, or for an image its
    /// drawing on its first line and nil on the lines it covers.
    static func lines(_ blocks: [ScreenBlock]) -> [(text: String, image: (rows: Int, drawing: String)?)] {
        var lines: [(text: String, image: (rows: Int, drawing: String)?)] = []
        for block in blocks {
            switch block {
            case .text(let text): lines.append((text, nil))
            case .image(let rows, let drawing):
                lines.append(("", (max(1, rows), drawing)))
                for _ in 1..<max(1, rows) { lines.append(("", nil)) }
            }
        }
        return lines
    }
}
