import LeitnerCore

/// Adding a card from the phone (`/cards/new`): each side text (plain or Markdown), a photo (the
/// camera or a file) or a drawing made with a finger or pen; tags, the level or `new`, a reverse
/// card, and an id when the one made from the front will not do. The form is
/// `multipart/form-data`, the one way a browser sends a file without a script; the script only
/// draws and turns the drawing into the PNG file the form sends (and shrinks a photo to fit the
/// body limit). A refusal is shown beside the field it is about, with what was typed kept.
public enum NewCardPage {
    /// What the form held and what was refused, field by field (`front`, `back`, `tags`,
    /// `level`, `id`; `form` for the rest).
    public struct Draft: Sendable, Equatable {
        public var text: [SideName: String] = [:]
        public var markdown: Set<SideName> = []
        public var kind: [SideName: String] = [:]
        public var tags = ""
        public var level = ""
        public var reverse = false
        /// The card, its reverse, or the note asks for its answer typed (R32: `type-answer`).
        public var typeAnswer = false
        public var id = ""
        /// A cloze note's text and extra, when the draft is the cloze form's (R30).
        public var cloze: String?
        public var extra = ""
        public var errors: [String: String] = [:]

        public init() {}
    }

    /// The ways a side is given: the form's `SIDE-kind`.
    static let kinds = [("text", "Text"), ("photo", "Photo"), ("drawing", "Drawing")]

    /// `added`: the id of the card just added, said above the empty form for the next one, and
    /// `more`, how many cards more its note made. A cloze draft fills the cloze form, and leaves
    /// the card's empty.
    public static func html(_ draft: Draft, csrf: String, added: String? = nil, more: Int = 0, box: String? = nil) -> HTML {
        var body: HTML = "<h1>Add a card</h1>\n"
        if let added {
            // One span: a notice lays out its children side by side (a sentence and a button), and
            // the sentence's words and link would be spread across the line.
            body += "<p class=\"notice\" id=\"notice\" role=\"status\"><span>Added <a href=\"/cards/\(PercentEncoding.encode(added))\">\(added)</a>"
            body += more > 0 ? " and \(more) card\(more == 1 ? "" : "s") more of its note.</span></p>\n" : ".</span></p>\n"
        }
        if let problem = draft.errors["form"] { body += "<p class=\"problem\" id=\"form-error\">\(problem)</p>\n" }
        body += cardForm(draft.cloze == nil ? draft : Draft(), csrf: csrf) + clozeForm(draft, csrf: csrf)
        return Layout.page(title: "Add a card", section: .cards, body: body, box: box)
    }

    static func cardForm(_ draft: Draft, csrf: String) -> HTML {
        var body: HTML = ""
        body += "<form method=\"post\" action=\"/cards/new\" enctype=\"multipart/form-data\" id=\"add-form\" class=\"add\">"
        body += "<input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">"
        for side in SideName.allCases { body += sideFields(side, draft) }
        body += "<label for=\"tags\">Tags</label>"
        body += "<input type=\"text\" id=\"tags\" name=\"tags\" value=\"\(draft.tags)\" placeholder=\"ja verbs\" autocapitalize=\"none\">"
        body += error("tags", draft)
        body += levelChoice(id: "level", draft)
        body += "<label class=\"check\"><input type=\"checkbox\" id=\"reverse\" name=\"reverse\" value=\"yes\"\(draft.reverse ? " checked" : "" as HTML)> "
        body += "Also a reverse card (the back asked, the front answered)</label>"
        // "(its reverse's too)" only while the reverse is ticked (the style sheet's `.reverse-too`).
        body += typeAnswerChoice(id: "type-answer", draft, "<span class=\"reverse-too\"> (its reverse's too)</span>")
        body += "<label for=\"id\">Id <span class=\"muted\">(made from the front when empty)</span></label>"
        body += "<input type=\"text\" id=\"id\" name=\"id\" value=\"\(draft.id)\" autocapitalize=\"none\">"
        body += error("id", draft)
        body += "<div class=\"actions\"><button type=\"submit\" id=\"add\" class=\"primary\">Add the card</button></div></form>\n"
        return body
    }

    /// Where the new cards go: `new/` or a level.
    static func levelChoice(id: String, _ draft: Draft) -> HTML {
        var out: HTML = "<label for=\"\(id)\">Goes to</label><select id=\"\(id)\" name=\"level\">"
        // The first choice is leitnerctl add's: new/ when the box paces new cards, else level 1;
        // said without the program's name, which a phone's user need not know.
        out += "<option value=\"\"\(draft.level.isEmpty ? " selected" : "" as HTML)>as usual: new if new cards come a few a day, else level 1</option>"
        for level in [Level.new] + Level.allCases.filter({ !$0.isPlace && $0 != .finished }) {
            let label = level == .new ? "new: comes with the day's new cards" : "level \(level.name)"
            out += "<option value=\"\(level.name)\"\(level.name == draft.level ? " selected" : "" as HTML)>\(label)</option>"
        }
        return out + "</select>" + error("level", draft)
    }

    /// Whether the answer is typed in the review (R32, `leitnerctl add --type-answer`): a
    /// `type-answer` file with the card, or with the note; `which` says which cards ask.
    static func typeAnswerChoice(id: String, _ draft: Draft, _ which: HTML) -> HTML {
        // One span for the words: the label lays out its children apart (a flex row).
        "<label class=\"check\"><input type=\"checkbox\" id=\"\(id)\" name=\"type-answer\" value=\"yes\"\(draft.typeAnswer ? " checked" : "" as HTML)> "
            + "<span>The answer is typed in the review\(which)</span></label>"
    }

    /// A cloze note (R30, `leitnerctl add --cloze`): its text with deletions, an extra shown with
    /// each answer, tags, where its cards go and the note's id; one card per deletion number.
    /// Folded under the card's form, open when it holds a draft.
    static func clozeForm(_ draft: Draft, csrf: String) -> HTML {
        let mine = draft.cloze != nil
        let shown = mine ? draft : Draft()
        var out: HTML = "<details class=\"cloze\" id=\"cloze\"\(mine ? " open" : "" as HTML)><summary>Or a cloze note: a text with gaps</summary>"
        out += "<form method=\"post\" action=\"/cards/new-cloze\" id=\"cloze-form\"><input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">"
        out += "<label for=\"cloze-text\">Text <span class=\"muted\">(each gap {{c1::word}}, a number a card)</span></label>"
        out += "<textarea id=\"cloze-text\" name=\"text\" placeholder=\"The capital of {{c1::France}} is {{c2::Paris}}.\">\(shown.cloze ?? "")</textarea>"
        out += error("text", shown)
        out += "<label for=\"cloze-extra\">Extra <span class=\"muted\">(shown with each answer)</span></label>"
        out += "<textarea id=\"cloze-extra\" name=\"extra\">\(shown.extra)</textarea>"
        out += "<label for=\"cloze-tags\">Tags</label>"
        out += "<input type=\"text\" id=\"cloze-tags\" name=\"tags\" value=\"\(shown.tags)\" autocapitalize=\"none\">" + error("tags", shown)
        out += levelChoice(id: "cloze-level", shown)
        out += typeAnswerChoice(id: "cloze-type-answer", shown, " (each card of the note)")
        out += "<label for=\"cloze-id\">Id of the note <span class=\"muted\">(made from the text when empty)</span></label>"
        out += "<input type=\"text\" id=\"cloze-id\" name=\"id\" value=\"\(shown.id)\" autocapitalize=\"none\">" + error("id", shown)
        out += "<div class=\"actions\"><button type=\"submit\" id=\"add-cloze\" class=\"primary\">Add the note</button></div></form></details>\n"
        return out
    }

    /// One side: the choice of text, photo or drawing, and the field of each (the style shows the
    /// chosen one), then the refusal about this side.
    static func sideFields(_ side: SideName, _ draft: Draft) -> HTML {
        let name = side.rawValue
        let chosen = draft.kind[side] ?? "text"
        var out: HTML = "<fieldset class=\"side-input\" id=\"\(name)-side\"><legend>The \(name)</legend><div class=\"kinds\">"
        for (kind, label) in kinds {
            out += "<label><input type=\"radio\" name=\"\(name)-kind\" value=\"\(kind)\" id=\"\(name)-is-\(kind)\""
            out += "\(kind == chosen ? " checked" : "" as HTML)><span>\(label)</span></label>"
        }
        out += "</div><div class=\"kind-text\"><textarea id=\"\(name)\" name=\"\(name)\" aria-label=\"The \(name)'s text\">"
        out += "\(draft.text[side] ?? "")</textarea>"
        out += "<label class=\"check\"><input type=\"checkbox\" name=\"\(name)-markdown\" value=\"yes\" id=\"\(name)-markdown\""
        out += "\(draft.markdown.contains(side) ? " checked" : "" as HTML)> Markdown</label></div>"
        out += "<div class=\"kind-photo\"><input type=\"file\" id=\"\(name)-photo\" name=\"\(name)-photo\" accept=\"image/*\" capture=\"environment\" aria-label=\"A photo for the \(name)\"></div>"
        out += "<div class=\"kind-drawing\"><canvas class=\"pad\" id=\"\(name)-pad\" width=\"600\" height=\"450\" aria-label=\"Draw the \(name) here\"></canvas>"
        out += "<input type=\"file\" hidden id=\"\(name)-drawing\" name=\"\(name)-drawing\" accept=\"image/png\">"
        out += "<p class=\"pad-tools\"><button type=\"button\" class=\"clear\" data-pad=\"\(name)-pad\">Clear</button>"
        out += "<span class=\"muted no-script\">Drawing needs JavaScript.</span></p></div>"
        out += error(name, draft)
        if side == .front, draft.errors["front"]?.hasPrefix("a card with the same front") == true {
            out += "<label class=\"check\"><input type=\"checkbox\" id=\"force\" name=\"force\" value=\"yes\"> Add it anyway</label>"
        }
        return out + "</fieldset>"
    }

    static func error(_ field: String, _ draft: Draft) -> HTML {
        guard let message = draft.errors[field] else { return "" }
        return "<p class=\"field-error\" id=\"\(field)-error\" role=\"alert\">\(message)</p>"
    }
}
