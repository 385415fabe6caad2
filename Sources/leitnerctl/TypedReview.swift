import LeitnerClient
import LeitnerCore
import LeitnerSystem

/// The terminal's side of typed answers (docs/rules.md R32): how the comparison is shown. Which
/// cards ask for one, and what they expect, is the core's `TypedAnswer`.
enum TypedReview {
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
