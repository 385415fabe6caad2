/// A cloze note's text (R30) taken apart: plain text and deletions `{{cN::answer}}` or
/// `{{cN::answer::hint}}`, N = 1…99 (Anki's syntax). The one parser of deletions: the store's
/// reading of a cloze card, the note index and the importers all ask it.
///
/// What does not parse as a deletion (`{{c0::x}}`, `{{c100::x}}`, an unclosed `{{c1::`, an empty
/// answer) is text, shown as it is written, so a note never loses a character to the parser.
public struct ClozeText: Sendable, Equatable {
    /// A run of text, or one deletion.
    public enum Piece: Sendable, Equatable {
        case text(String)
        case deletion(number: Int, answer: String, hint: String?)
    }

    /// The highest deletion number.
    public static let maxNumber = 99

    public let pieces: [Piece]
    /// The numbers that occur, each once, ascending: one card each. Found once, at the parse: a
    /// cloze card's `Show` asks whether its number is still there.
    public let numbers: [Int]

    public init(parsing text: String) {
        var pieces: [Piece] = []
        var plain = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{{c") {
            plain += rest[..<open.lowerBound]
            if let (piece, after) = ClozeText.deletion(at: rest[open.upperBound...]) {
                if !plain.isEmpty { pieces.append(.text(plain)) }
                plain = ""
                pieces.append(piece)
                rest = after
            } else {
                plain += rest[open]
                rest = rest[open.upperBound...]
            }
        }
        plain += rest
        if !plain.isEmpty { pieces.append(.text(plain)) }
        self.pieces = pieces
        var seen = Set<Int>()
        for case .deletion(let number, _, _) in pieces { seen.insert(number) }
        numbers = seen.sorted()
    }

    /// The deletion after `{{c`: digits, `::`, the answer up to the first `::` or `}}`, and
    /// a hint up to `}}`; nil when it is none.
    private static func deletion(at text: Substring) -> (Piece, Substring)? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard (1...2).contains(digits.count), let number = Int(digits), (1...maxNumber).contains(number),
              !digits.hasPrefix("0") else { return nil }
        let body = text[digits.endIndex...]
        guard body.hasPrefix("::"), let close = body.firstRange(of: "}}") else { return nil }
        let inside = body[body.index(body.startIndex, offsetBy: 2)..<close.lowerBound]
        let answer: Substring
        var hint: String?
        if let separator = inside.firstRange(of: "::") {
            answer = inside[..<separator.lowerBound]
            hint = String(inside[separator.upperBound...])
            if hint?.isEmpty == true { hint = nil }
        } else {
            answer = inside
        }
        guard !answer.isEmpty, !answer.contains("{{") else { return nil }
        return (.deletion(number: number, answer: String(answer), hint: hint), body[close.upperBound...])
    }

    /// The question of card `number`: every deletion `number` hidden as `[…]` or `[hint]`, every
    /// other one shown as its answer. `markdown` sets the hidden gap in bold, so that the
    /// terminal and the web mark it as well as bracket it.
    public func question(hiding number: Int, markdown: Bool) -> String {
        render { n, answer, hint in
            guard n == number else { return answer }
            let gap = "[" + (hint ?? "…") + "]"
            return markdown ? "**" + gap + "**" : gap
        }
    }

    /// The answer of card `number`: the whole text, every deletion `number` bracketed (and in
    /// bold for Markdown), then `extra` after a blank line when there is one.
    public func answer(revealing number: Int, markdown: Bool, extra: String?) -> String {
        var text = render { n, answer, _ in
            guard n == number else { return answer }
            return markdown ? "**[" + answer + "]**" : "[" + answer + "]"
        }
        if let extra, !extra.allSatisfy(\.isWhitespace) {
            while text.last?.isNewline == true { text.removeLast() }
            text += "\n\n" + extra
        }
        return text
    }

    private func render(_ deletion: (Int, String, String?) -> String) -> String {
        var out = ""
        for piece in pieces {
            switch piece {
            case .text(let text): out += text
            case .deletion(let number, let answer, let hint): out += deletion(number, answer, hint)
            }
        }
        return out
    }
}
