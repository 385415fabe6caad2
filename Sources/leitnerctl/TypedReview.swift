import LeitnerClient
import LeitnerCore
import LeitnerSystem

/// The terminal's side of typed answers (docs/rules.md R32): which cards ask for one, and how
/// the comparison is shown.
enum TypedReview {
    /// The marker file that makes a card ask for its answer to be typed.
    static let markerName = "type-answer"

    /// The answer `card` expects typed, when it asks for one (or `everyCard`) and its back is
    /// text; nil: the card is reviewed as usual.
    static func expectedAnswer(_ card: Card, everyCard: Bool) -> String? {
        guard let text = card.back.text, MediaType.isText(card.back.mediaType) else { return nil }
        guard everyCard || asksForTyping(card) else { return nil }
        return AnswerText.plain(text, mediaType: card.back.mediaType)
    }

    /// Whether the card's directory holds `type-answer`: the directory of its front file. The
    /// daemon reads sides from the card's own directory, on this machine.
    static func asksForTyping(_ card: Card) -> Bool {
        let path = card.front.path
        guard let slash = path.lastIndex(of: "/") else { return false }
        return FileSystem.exists(String(path[..<slash]) + "/" + markerName, in: nil)
    }

    /// Two lines: the typed answer marked against the expected one, and the proposal. Typed
    /// characters not expected are red and struck through, expected ones not typed green and
    /// underlined; without colour they read `[-x-]` and `{+y+}`.
    static func describe(_ verdict: AnswerCheck.Verdict, style: TextStyle) -> String {
        var marked = ""
        for piece in verdict.differences {
            switch piece {
            case .same(let text): marked += text
            case .extra(let text): marked += style.enabled ? style.apply(style.red + "\u{1B}[9m", text) : "[-" + text + "-]"
            case .missing(let text): marked += style.enabled ? style.apply(style.green + style.underline, text) : "{+" + text + "+}"
            }
        }
        if marked.isEmpty { marked = "(nothing typed)" }
        let proposal = verdict.isRight ? "right? Enter: yes, n: no" : "wrong? Enter: yes, y: it was right"
        return "typed: \(marked) · expected: \(verdict.expected) · \(proposal)"
    }
}
