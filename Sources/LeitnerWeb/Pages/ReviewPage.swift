import LeitnerCore

/// The review, one card at a time: its front and "Show answer", then both sides, the card's id
/// and Right/Wrong. The front's page carries a handle, never the id (an id is often made from the
/// answer). Undo is on both. Keys (Space, y, n, u) and swipes come from the script, which clicks
/// these same links and buttons.
public enum ReviewPage {
    /// The front of the test's head card, under `handle`.
    public static func front(_ card: Card, handle: String, test: TestSummary, csrf: String) -> String {
        var body = progress(test)
        body += "<article class=\"card\" id=\"card\">" + SideView.html(card.front, name: .front, source: asset(handle, .front))
        body += "</article>\n<div class=\"actions\"><a class=\"button primary\" id=\"show\" href=\"/review/answer?card=\(handle)\">Show answer</a></div>\n"
        body += footer(test, csrf: csrf)
        return Layout.page(title: "Review", section: .review, body: body)
    }

    /// Both sides, the id and level, and the two grades.
    public static func answer(_ card: Card, handle: String, test: TestSummary, csrf: String) -> String {
        var body = progress(test)
        body += "<article class=\"card\" id=\"card\">" + SideView.html(card.front, name: .front, source: asset(handle, .front))
        body += SideView.html(card.back, name: .back, source: asset(handle, .back))
        body += "<p class=\"card-id\">\(HTML.escape(card.id)) · level \(card.level.name)</p></article>\n"
        body += "<div class=\"actions\">"
        body += Layout.form(action: "/review/grade", csrf: csrf, fields: [("card", handle), ("correct", "no")],
                            button: "Wrong", id: "wrong", buttonClass: "wrong")
        body += Layout.form(action: "/review/grade", csrf: csrf, fields: [("card", handle), ("correct", "yes")],
                            button: "Right", id: "right", buttonClass: "right")
        body += "</div>\n" + footer(test, csrf: csrf)
        return Layout.page(title: "Review", section: .review, body: body)
    }

    /// No card left: the test complete, or nothing due.
    public static func finished(_ test: TestSummary, csrf: String) -> String {
        var body = "<h1>Review</h1>\n"
        switch test.state {
        case .empty:
            body += "<p>Nothing is due today.</p>\n"
        case .completed, .open:
            body += "<p id=\"complete\">Today's test is complete: \(test.passed) right, \(test.failed) wrong.</p>\n"
        }
        body += "<div class=\"secondary\"><a href=\"/stats\">Statistics</a>"
        if test.passed + test.failed > 0 {
            body += Layout.form(action: "/review/undo", csrf: csrf, button: "Undo the last grade", id: "undo")
        }
        body += "</div>\n"
        return Layout.page(title: "Review", section: .review, body: body)
    }

    static func progress(_ test: TestSummary) -> String {
        let done = test.passed + test.failed
        let total = done + test.remaining
        return "<p class=\"muted\"><progress max=\"\(max(total, 1))\" value=\"\(done)\"></progress><br>"
            + "<span id=\"progress\">\(done) of \(total)</span> · \(test.passed) right · \(test.failed) wrong</p>\n"
    }

    static func footer(_ test: TestSummary, csrf: String) -> String {
        var out = "<div class=\"secondary\"><span class=\"keys\">Keys: Space shows the answer, y right, n wrong, u undo. Swipe right or left.</span>"
        if test.passed + test.failed > 0 {
            out += Layout.form(action: "/review/undo", csrf: csrf, button: "Undo", id: "undo")
        }
        return out + "</div>\n"
    }

    static func asset(_ handle: String, _ side: SideName) -> String {
        "/review/asset/\(handle)/\(side.rawValue)"
    }
}
