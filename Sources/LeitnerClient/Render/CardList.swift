import LeitnerCore

/// How `leitnerctl list` prints cards, one line each, given one at a time (so that it prints
/// as the daemon's replies arrive, however many cards there are).
///
/// On a terminal: a header (LEVEL, ID, FRONT, BACK) and aligned columns whose widths come from
/// the terminal's width alone, never from the cards (they are not all known when the first is
/// printed); a side longer than its column is cut with `…`, unless `long`. Elsewhere (a pipe,
/// a file): no header, no colour, fields separated by one tab and sides whole, so that `cut -f2`
/// and `awk -F'\t'` read it. Either way a line break in a side shows as `⏎` and a tab as `→`,
/// so that a card stays on one line.
public struct CardList: Sendable {
    /// The terminal's width in columns, or nil when not printing to a terminal.
    public var width: Int?
    /// Whole sides on a terminal, not cut to the column.
    public var long: Bool
    public var style: TextStyle

    public init(width: Int?, long: Bool, style: TextStyle) {
        self.width = width
        self.long = long
        self.style = style
    }

    static let levelWidth = 8
    static let gap = "  "

    /// The id column: a fifth of the terminal, between 12 and 32 columns.
    var idWidth: Int { min(32, max(12, (width ?? 80) / 5)) }

    /// Each side's column: what is left, shared, at least 10.
    var sideWidth: Int {
        max(10, ((width ?? 80) - CardList.levelWidth - idWidth - 3 * CardList.gap.count) / 2)
    }

    /// The header line, nil when not on a terminal.
    public var header: String? {
        guard width != nil else { return nil }
        let line = pad("LEVEL", CardList.levelWidth) + CardList.gap + pad("ID", idWidth) + CardList.gap
            + pad("FRONT", sideWidth) + CardList.gap + "BACK"
        return style.apply(style.bold, line)
    }

    /// One card's line (a `Card` of the interface, its text filled). A reverse card (R28) is
    /// marked `↺ of ID`: after its id in the table, and in a fifth field of its own where the
    /// fields are tab-separated, so that the first four stay what a script reads.
    public func line(_ card: Card) -> String {
        let level = card.level.name
        let front = CardList.flat(card.front)
        let back = CardList.flat(card.back)
        guard width != nil else {
            let fields = [level, card.id, front, back] + (CardList.kindMark(card).map { [$0] } ?? [])
            return fields.joined(separator: "\t")
        }
        let id = CardList.kindMark(card).map { card.id + " " + $0 } ?? card.id
        if long {
            return pad(level, CardList.levelWidth) + CardList.gap + pad(id, idWidth) + CardList.gap
                + front + CardList.gap + style.apply(style.dim, back)
        }
        return pad(level, CardList.levelWidth) + CardList.gap + pad(CardList.fit(id, idWidth), idWidth) + CardList.gap
            + pad(CardList.fit(front, sideWidth), sideWidth) + CardList.gap + style.apply(style.dim, CardList.fit(back, sideWidth))
    }

    /// How a reverse card of `original` is marked.
    public static func reverseMark(_ original: String) -> String { "↺ of " + original }

    /// What a card is when it is no plain card: `↺ of ID` for a reverse (R28), `cloze 2 of NOTE`
    /// for a cloze card (R30); nil for a plain card.
    public static func kindMark(_ card: Card) -> String? {
        card.reverseOf.map(reverseMark) ?? card.clozeOf?.description
    }

    /// A side on one line: its text with `⏎` for line breaks and `→` for tabs (a final line
    /// break dropped), or `[media/type]` for other media.
    public static func flat(_ side: Side) -> String {
        guard let text = side.text else { return "[\(side.mediaType)]" }
        return flat(text: text)
    }

    /// A text on one line, as `flat(_:)` shows a side's text.
    public static func flat(text: String) -> String {
        var text = text
        while text.last?.isNewline == true { text.removeLast() }
        var out = ""
        for character in text {
            switch character {
            case "\r\n", "\n", "\r": out += "⏎"
            case "\t": out += "→"
            default: out.append(character)
            }
        }
        return out
    }

    /// `text` cut to `width` display columns, ending in `…` when cut.
    public static func fit(_ text: String, _ width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        var out = ""
        var used = 0
        for character in text {
            let size = DisplayWidth.of(String(character))
            if used + size > width - 1 { break }
            out.append(character)
            used += size
        }
        return out + "…"
    }

    func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - DisplayWidth.of(text)))
    }
}
