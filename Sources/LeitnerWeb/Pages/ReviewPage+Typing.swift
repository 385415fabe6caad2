import LeitnerCore

/// The review's typed answers (docs/rules.md R32) and voice (R33) on the web: a form that posts
/// the typed answer (no script needed), the comparison beside the answer with the proposed grade
/// marked, the "Type every answer" setting, and an audio player for a side's speech.
extension ReviewPage {
    /// What the review page shows of a card beyond its sides.
    public struct Extras: Sendable, Equatable {
        /// The front asks for its answer typed: a text field and Check, in place of Show answer.
        public var typing = false
        /// "Type every answer" is ticked on this browser.
        public var typesEvery = false
        /// The sides whose speech is made or being made: an audio player each.
        public var voices: Set<SideName> = []
        /// The typed answer compared, on the answer's page.
        public var verdict: AnswerCheck.Verdict?

        public init(typing: Bool = false, typesEvery: Bool = false, voices: Set<SideName> = [], verdict: AnswerCheck.Verdict? = nil) {
            self.typing = typing
            self.typesEvery = typesEvery
            self.voices = voices
            self.verdict = verdict
        }
    }

    /// The side's speech, played by the browser's own player.
    static func voice(_ handle: String, _ side: SideName, _ extras: Extras) -> HTML {
        guard extras.voices.contains(side) else { return "" }
        return voicePlayer("/review/voice/\(handle)/\(side.rawValue)", side)
    }

    /// The player of a side's speech at `source`; the kept review (R35) draws it from the card's
    /// own address.
    static func voicePlayer(_ source: String, _ side: SideName) -> HTML {
        "<p class=\"voice\"><audio controls preload=\"none\" id=\"voice-\(side.rawValue)\" src=\"\(source)\"></audio></p>"
    }

    /// The answer typed in a field and sent with Check: a form POST, which needs no script.
    static func typingForm(_ handle: String, scope: Scope, csrf: String) -> HTML {
        var out: HTML = "<form method=\"post\" action=\"/review/typed\" class=\"typed-answer\"><input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">"
        for (name, value) in [("card", handle)] + scope.fields {
            out += "<input type=\"hidden\" name=\"\(name)\" value=\"\(value)\">"
        }
        out += "<label for=\"answer\">Your answer</label>"
        out += "<input type=\"text\" name=\"answer\" id=\"answer\" autofocus autocomplete=\"off\" autocapitalize=\"off\" spellcheck=\"false\" maxlength=\"1000\">"
        return out + "<div class=\"actions\"><button type=\"submit\" id=\"check\" class=\"primary\">Check</button></div></form>\n"
    }

    /// What was typed beside what was expected, character by character: typed and not expected
    /// struck through, expected and not typed underlined (and bracketed, for a reader without
    /// the style), and the proposed grade.
    static func comparison(_ verdict: AnswerCheck.Verdict) -> HTML {
        var marked: HTML = ""
        for piece in verdict.differences {
            switch piece {
            case .same(let text): marked += "\(text)"
            case .extra(let text): marked += "<del title=\"typed, not expected\">\(text)</del>"
            case .missing(let text): marked += "<ins title=\"expected, not typed\">\(text)</ins>"
            }
        }
        if verdict.differences.isEmpty { marked = "<em>(nothing typed)</em>" }
        let proposal: HTML = verdict.isRight ? "<span class=\"ok\">right</span>" : "<span class=\"bad\">wrong</span>"
        return "<div class=\"typed\" id=\"typed\"><p>Typed: <span id=\"typed-marked\">\(marked)</span></p>"
            + "<p>Expected: <span id=\"expected\">\(verdict.expected)</span></p>"
            + "<p id=\"proposal\">Proposed: \(proposal) — confirm it, or choose the other.</p></div>\n"
    }

    /// The setting of this browser: every answer typed, or only the cards that ask.
    static func typingSetting(_ extras: Extras, scope: Scope, csrf: String) -> HTML {
        Layout.form(action: "/review/typing", csrf: csrf, fields: [("on", extras.typesEvery ? "no" : "yes")] + scope.fields,
                    button: extras.typesEvery ? "Type only the cards that ask" : "Type every answer", id: "typing")
    }
}
