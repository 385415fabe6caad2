import LeitnerClient
import LeitnerCore

/// The review, one card at a time: its front and "Show answer", then both sides, the card's id
/// and Right/Wrong. The front's page carries a handle, never the id (an id is often made from the
/// answer). Undo and Suspend are on both; Edit only once the answer is shown, since the edit page
/// shows the id. Keys (Space, y, n, u, s, e) and swipes come from the script, which clicks these
/// same links and buttons.
public enum ReviewPage {
    /// The part of today's test under review: all of it, or the cards with one tag
    /// (`/review?tag=ja`, `Next` with the filter as `leitnerctl review --tag` sends it). Every
    /// link and form of the review carries it, so the next card comes from the same part.
    public struct Scope: Sendable, Equatable {
        public var tag: String?

        public init(tag: String? = nil) {
            self.tag = tag
        }

        /// `&tag=…` to follow a query that has a first field, or nothing.
        var queryTail: String { tag.map { "&tag=" + PercentEncoding.encode($0) } ?? "" }

        /// The review's address for this scope.
        public var path: String { tag.map { "/review?tag=" + PercentEncoding.encode($0) } ?? "/review" }

        /// What joins a notice's query to `path`.
        var noticeJoin: String { tag == nil ? "?" : "&" }

        /// Hidden form fields that carry the scope to a POST.
        var fields: [(String, String)] { tag.map { [("tag", $0)] } ?? [] }
    }

    /// What the change just made was, said above the next card (`/review?done=…`): a grade and
    /// the level it sent the card to, an undo, a suspend (with the card's handle, so that the
    /// page offers to take back that suspend), or its taking back. Read from fixed words only.
    public enum Notice: Sendable, Equatable {
        case graded(correct: Bool, level: Level)
        case undone
        case suspended(handle: String)
        case unsuspended

        init?(_ query: [String: String]) {
            guard let done = query["done"] else { return nil }
            switch done {
            case "undone": self = .undone
            case "unsuspended": self = .unsuspended
            case "suspended":
                guard let handle = query["card"], !handle.isEmpty else { return nil }
                self = .suspended(handle: handle)
            default:
                let parts = done.split(separator: "-")
                guard parts.count == 2, parts[0] == "right" || parts[0] == "wrong", let level = Level(name: parts[1]) else { return nil }
                self = .graded(correct: parts[0] == "right", level: level)
            }
        }

        /// The notice, with the take-back form after a suspend; its button is `undo`, so the `u`
        /// key takes back the suspend and not an older grade.
        func html(scope: Scope, csrf: String) -> HTML {
            var out: HTML = "<div class=\"notice\" id=\"notice\" role=\"status\">"
            switch self {
            case .graded(let correct, let level):
                let place: HTML = level.isPlace || level == .finished ? "\(level.name)" : "level \(level.name)"
                out += correct ? "<span class=\"ok\">✓ → \(place)</span>" : "<span class=\"bad\">✗ → \(place)</span>"
            case .undone:
                out += "<span>Undone: the last grade is taken back.</span>"
            case .unsuspended:
                out += "<span>Suspend taken back.</span>"
            case .suspended(let handle):
                out += "<span>Suspended: out of every test.</span>"
                out += Layout.form(action: "/review/unsuspend", csrf: csrf, fields: [("card", handle)] + scope.fields,
                                   button: "Take back", id: "undo")
            }
            return out + "</div>\n"
        }

        var isSuspend: Bool {
            if case .suspended = self { return true }
            return false
        }
    }

    /// The front of the test's head card, under `handle`; `outside`, the queued cards a tag's
    /// scope leaves out; `notice`, the change just made.
    public static func front(_ card: Card, handle: String, test: TestSummary, scope: Scope = Scope(), outside: Int = 0,
                             csrf: String, notice: Notice? = nil, box: String? = nil, extras: Extras = Extras()) -> HTML {
        var body = heading(scope) + progress(test, scope: scope, outside: outside)
        if let notice { body += notice.html(scope: scope, csrf: csrf) }
        // The question large and centred, smaller as it grows longer, so that it fits the card.
        let length = card.front.text.map(\.count) ?? 0
        let fit: HTML = card.front.text == nil ? "" : length <= 24 ? " short" : length > 160 ? " long" : ""
        body += "<article class=\"card question\(fit)\" id=\"card\">" + SideView.html(card.front, name: .front, source: asset(handle, .front), media: media(handle))
        body += voice(handle, .front, extras) + "</article>\n"
        if extras.typing {
            body += typingForm(handle, scope: scope, csrf: csrf)
        } else {
            body += "<div class=\"actions\"><a class=\"button primary\" id=\"show\" href=\"\("/review/answer?card=\(handle)" + scope.queryTail)\">Show answer</a></div>\n"
        }
        body += footer(test, handle: handle, answered: false, scope: scope, csrf: csrf, undo: notice?.isSuspend != true)
        body += "<div class=\"secondary tools\">" + typingSetting(extras, scope: scope, csrf: csrf) + "</div>\n"
        return Layout.page(title: "Review", section: .review, body: body, box: box)
    }

    /// Both sides, the id and level, the tags, and the two grades.
    public static func answer(_ card: Card, handle: String, test: TestSummary, scope: Scope = Scope(), outside: Int = 0,
                              csrf: String, notice: String? = nil, box: String? = nil, extras: Extras = Extras()) -> HTML {
        var body = heading(scope) + progress(test, scope: scope, outside: outside)
        if let notice { body += "<p class=\"muted\" id=\"notice\">\(notice)</p>\n" }
        // The answer is what is read here: larger than the question above it, sized to the screen.
        // The card's id and level are for the script, which keeps a grade given offline (R35).
        body += "<article class=\"card answer\" id=\"card\" data-card=\"\(card.id)\" data-level=\"\(card.level.name)\">"
        body += SideView.html(card.front, name: .front, source: asset(handle, .front), media: media(handle))
        body += voice(handle, .front, extras)
        body += SideView.html(card.back, name: .back, source: asset(handle, .back), media: media(handle))
        body += voice(handle, .back, extras)
        body += "<p class=\"card-id\">\(card.id) · level \(card.level.name)</p>"
        body += CardPage.tagList(card.tags) + "</article>\n"
        if let verdict = extras.verdict { body += comparison(verdict) }
        // The proposed grade is the marked button; the other overrides it (R32).
        let proposed = extras.verdict.map(\.isRight)
        body += "<div class=\"actions\">"
        body += Layout.form(action: "/review/grade", csrf: csrf, fields: [("card", handle), ("correct", "no")] + scope.fields,
                            button: "Wrong", id: "wrong", buttonClass: proposed == false ? "wrong proposed" : "wrong")
        body += Layout.form(action: "/review/grade", csrf: csrf, fields: [("card", handle), ("correct", "yes")] + scope.fields,
                            button: "Right", id: "right", buttonClass: proposed == true ? "right proposed" : "right")
        body += "</div>\n" + footer(test, handle: handle, answered: true, scope: scope, csrf: csrf)
        return Layout.page(title: "Review", section: .review, body: body, box: box)
    }

    /// The text sides of the card under review, to edit before grading it; saving goes back to
    /// its answer. Shown only once the answer was, so the id it shows gives nothing away.
    public static func edit(_ card: Card, sources: [SideName: Asset], handle: String, scope: Scope = Scope(), csrf: String,
                            box: String? = nil) -> HTML {
        let back = "/review/answer?card=\(handle)" + scope.queryTail
        var body: HTML = "<h1>Edit \(card.id)</h1>\n"
        let fields = CardPage.textFields(card, sources)
        if fields.isEmpty {
            body += "<p>Neither side of this card is text: change its files with <code>leitnerctl edit</code>.</p>\n"
        } else {
            body += "<form method=\"post\" action=\"/review/edit\"><input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">"
            for (name, value) in [("card", handle)] + scope.fields {
                body += "<input type=\"hidden\" name=\"\(name)\" value=\"\(value)\">"
            }
            body += fields + "<div class=\"actions\"><button type=\"submit\" id=\"save\" class=\"primary\">Save and go back</button></div></form>\n"
        }
        body += "<p><a href=\"\(back)\" id=\"cancel\">Back to the card, unchanged</a></p>\n"
        return Layout.page(title: "Edit", section: .review, body: body, box: box)
    }

    /// No card left: the test complete, or nothing due; with a tag, the cards of today's test
    /// without it (`outside`) are still to review.
    public static func finished(_ test: TestSummary, scope: Scope = Scope(), outside: Int = 0, csrf: String,
                                notice: Notice? = nil, next: BoxStatus? = nil, box: String? = nil) -> HTML {
        var body = heading(scope)
        if let notice { body += notice.html(scope: scope, csrf: csrf) }
        if let tag = scope.tag, outside > 0 {
            body += "<p id=\"complete\">No card tagged \(tag) is left in today's test; "
            body += "\(outside) other card\(outside == 1 ? " is" : "s are") to review.</p>\n"
            body += "<div class=\"actions\"><a class=\"button primary\" id=\"review-all\" href=\"/review\">Review the rest</a></div>\n"
        } else {
            switch test.state {
            case .empty where next.map(TodayPage.isEmpty) ?? false:
                body += TodayPage.noCards
            case .empty:
                body += "<p>Nothing is due today.</p>\n"
            case .completed, .open:
                body += "<p id=\"complete\">Today's test is complete: \(TestWords.progress(test))"
                    + (test.failed > 0 ? ", \(test.failed) answered wrong on the way" : "") + ".</p>\n"
            }
        }
        // The box's one answer to "when next?", as Today and the terminal's review end say it.
        if let status = next, let coming = status.next, coming.date != status.today {
            body += "<p id=\"next\">Next test: \(TestWords.next(coming, today: status.today)).</p>\n"
        }
        body += "<div class=\"actions\"><a class=\"button primary\" id=\"today\" href=\"/\">Back to Today</a></div>\n"
        body += "<div class=\"secondary tools\"><a class=\"button\" href=\"/stats\">Statistics</a>"
        if test.passed + test.failed > 0, notice?.isSuspend != true {
            body += Layout.form(action: "/review/undo", csrf: csrf, fields: scope.fields, button: "Undo the last grade", id: "undo")
        }
        body += "</div>\n"
        return Layout.page(title: "Review", section: .review, body: body, box: box)
    }

    static func heading(_ scope: Scope) -> HTML {
        guard let tag = scope.tag else { return "" }
        return "<h1>Review · tag \(tag)</h1>\n"
    }

    /// The test's progress as the terminal's review and `status` say it (TestWords): its cards
    /// done of its cards, a card answered wrong counted once (docs/rules.md, "How far you are").
    /// A tag's scope counts its own cards, never the whole test's: those it still has queued
    /// (a page keeps no sitting whose passes it could count, as the terminal's review does).
    static func progress(_ test: TestSummary, scope: Scope, outside: Int) -> HTML {
        if let tag = scope.tag {
            let queued = max(0, test.remaining - outside)
            return "<p class=\"muted\"><span id=\"progress\">\(queued) card\(queued == 1 ? "" : "s") tagged \(tag) to go</span></p>\n"
        }
        return "<p class=\"muted\"><progress max=\"\(max(test.cards, 1))\" value=\"\(test.done)\"></progress><br>"
            + "<span id=\"progress\">\(TestWords.progress(done: test.done, of: test.cards))</span>"
            + (test.repeating > 0 ? " · \(test.repeating) to repeat" : "") + "</p>\n"
    }

    /// Edit (once the answer is shown), Suspend and Undo, then the keys.
    static func footer(_ test: TestSummary, handle: String, answered: Bool, scope: Scope, csrf: String, undo: Bool = true) -> HTML {
        var out: HTML = "<div class=\"secondary tools\">"
        if answered {
            out += "<a class=\"button\" id=\"edit\" href=\"\("/review/edit?card=\(handle)" + scope.queryTail)\">Edit</a>"
        }
        out += Layout.form(action: "/review/suspend", csrf: csrf, fields: [("card", handle)] + scope.fields,
                           button: "Suspend", id: "suspend")
        if undo, test.passed + test.failed > 0 {
            out += Layout.form(action: "/review/undo", csrf: csrf, fields: scope.fields, button: "Undo", id: "undo")
        }
        out += "</div>\n" + keptLine + "<p class=\"keys\">Keys: Space shows the answer, y right, n wrong, u undo, s suspend"
        out += answered ? ", e edit." : "; e edits once the answer is shown."
        return out + " Swipe right or left.</p>\n"
    }

    /// Where the script says how many grades this browser kept and waits to send, and shows
    /// those the box refused (R35).
    static let keptLine: HTML = "<p class=\"muted\" id=\"kept\" role=\"status\" hidden></p><div id=\"kept-refused\" role=\"alert\" hidden></div>\n"

    static func asset(_ handle: String, _ side: SideName) -> String {
        "/review/asset/\(handle)/\(side.rawValue)"
    }

    /// Where the shown card's media are (R31): `/review/medium/HANDLE/NAME`.
    static func media(_ handle: String) -> String { "/review/medium/\(handle)" }
}
