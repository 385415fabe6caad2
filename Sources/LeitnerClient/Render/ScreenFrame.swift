/// One screen of the review, laid out for a terminal of `columns` × `rows`: a fixed header
/// (its parts packed into one or two lines) over a rule, the body scrolled to `scroll`, and a
/// fixed footer (a rule saying what is above or below, the message, the keys). Nothing is
/// ever wider than the terminal, so nothing wraps and the header stays on top at any size
/// from 40×12 up (docs/leitnerctl.md, "The review").
public struct ScreenFrame {
    public let columns: Int
    public let rows: Int
    public let header: [String]
    public let footer: [String]
    /// The body, wrapped to the width; an image covers its lines.
    private let body: [(text: String, image: (rows: Int, drawing: String)?)]
    /// The first body line shown, within `0...maxScroll`.
    public let scroll: Int
    private let style: TextStyle
    /// The text shown in an image's place when it is not wholly on screen.
    private let imageCut: String

    /// - Parameters:
    ///   - headerParts: the header's parts, joined with ` · ` (never split).
    ///   - body: the card, as blocks; text lines wider than the body are broken.
    ///   - message: the line above the keys (empty for none).
    ///   - keyParts: the keys, packed like the header.
    ///   - scroll: the wanted first body line; clamped.
    public init(columns: Int, rows: Int, headerParts: [String], body: [ScreenBlock], message: String,
                keyParts: [String], scroll: Int, style: TextStyle, imageCut: String = "[image: scroll to see it whole]") {
        self.columns = max(columns, 10)
        self.rows = max(rows, 6)
        self.style = style
        self.imageCut = imageCut
        let inner = self.columns - 2
        header = Array(TerminalText.pack(headerParts, width: inner).prefix(2))
        footer = [TerminalText.clip(message, width: inner)] + TerminalText.pack(keyParts, width: inner).prefix(2)
        var wrapped: [ScreenBlock] = []
        for block in body {
            if case .text(let text) = block {
                wrapped += TerminalText.hardWrap(text, width: inner).map(ScreenBlock.text)
            } else {
                wrapped.append(block)
            }
        }
        self.body = ScreenBlock.lines(wrapped)
        let height = max(1, self.rows - header.count - footer.count - 2)
        self.scroll = min(max(0, scroll), max(0, self.body.count - height))
    }

    /// How many body lines fit between the rules.
    public var bodyHeight: Int { max(1, rows - header.count - footer.count - 2) }

    /// The body's length in screen lines.
    public var bodyLineCount: Int { body.count }

    /// The largest useful scroll: the last body line at the bottom.
    public var maxScroll: Int { max(0, body.count - bodyHeight) }

    /// The body lines below the screen.
    public var linesBelow: Int { max(0, body.count - scroll - bodyHeight) }

    /// The visible rows, as text (images left out): what a test or a screen reader sees.
    public var textRows: [String] {
        var out = header.map { "  " + $0 }
        out.append(rule(scroll > 0 ? "↑ \(scroll) more" : ""))
        for index in scroll..<(scroll + bodyHeight) {
            if index < body.count {
                let line = body[index]
                if let image = line.image, index + image.rows > scroll + bodyHeight {
                    out.append("  " + style.apply(style.dim, TerminalText.clip(imageCut, width: columns - 2)))
                } else if line.image == nil, isCovered(index) {
                    out.append(index == scroll ? "  " + style.apply(style.dim, TerminalText.clip(imageCut, width: columns - 2)) : "")
                } else {
                    out.append(line.text.isEmpty ? "" : "  " + line.text)
                }
            } else {
                out.append("")
            }
        }
        out.append(rule(linesBelow > 0 ? "↓ \(linesBelow) more: j, ↓, PgDn" : ""))
        out += footer.map { $0.isEmpty ? "" : "  " + $0 }
        return out
    }

    /// True when body line `index` lies under an image that starts above it.
    private func isCovered(_ index: Int) -> Bool {
        var start = index
        while start >= 0 {
            if let image = body[start].image { return start + image.rows > index && start != index }
            if !body[start].text.isEmpty { return false }
            start -= 1
        }
        return false
    }

    /// The whole screen: drawn from the top-left, each row ended by erasing the rest of the
    /// line, then the images that are wholly visible, each at its place.
    public var output: String {
        var out = "\u{1B}[H"
        let visible = textRows
        for (index, row) in visible.enumerated() {
            out += row + "\u{1B}[0m\u{1B}[K" + (index + 1 < visible.count ? "\r\n" : "")
        }
        out += "\u{1B}[J"
        let top = header.count + 1
        for index in scroll..<min(body.count, scroll + bodyHeight) {
            if let image = body[index].image, index + image.rows <= scroll + bodyHeight {
                out += "\u{1B}[\(top + index - scroll + 1);3H" + image.drawing
            }
        }
        return out
    }

    private func rule(_ label: String) -> String {
        let line = String(repeating: "─", count: max(0, columns - 4 - (label.isEmpty ? 0 : DisplayWidth.of(label) + 2)))
        return "  " + style.apply(style.dim, label.isEmpty ? line : line + " " + label)
    }
}
