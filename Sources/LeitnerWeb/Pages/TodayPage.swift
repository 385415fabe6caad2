import LeitnerClient
import LeitnerCore

/// Today: the test's levels and what is left of it, the cards per level, the week as a paper
/// Leitner calendar, and the button that starts the review.
public enum TodayPage {
    public static func html(status: BoxStatus, week: [CalendarDay], csrf: String) -> String {
        let test = status.test
        let date = status.today
        var body = "<h1>Today · \(date.weekdayAbbreviation) \(date)</h1>\n"
        switch test.state {
        case .empty:
            body += "<p>Nothing is due today.</p>\n"
        case .completed:
            body += "<p>Today's test is complete: \(test.passed) right, \(test.failed) wrong.</p>\n"
        case .open:
            let levels = test.levels.map(\.name).joined(separator: ", ")
            body += "<p>The test of level\(test.levels.count == 1 ? "" : "s") \(HTML.escape(levels)): "
            body += "<strong>\(test.remaining) card\(test.remaining == 1 ? "" : "s") left</strong>"
            body += ", \(test.passed) right, \(test.failed) wrong.</p>\n"
            body += "<div class=\"actions\">" + Layout.form(action: "/review/start", csrf: csrf,
                                                             button: test.passed + test.failed == 0 ? "Start the review" : "Go on with the review",
                                                             id: "start", buttonClass: "primary") + "</div>\n"
        }
        if status.problems > 0 {
            body += "<p class=\"problem\">The store has \(status.problems) problem\(status.problems == 1 ? "" : "s"): run <code>leitnerctl doctor</code>.</p>\n"
        }
        body += "<h2>This week</h2>\n<ol class=\"week\">"
        for day in week {
            let isToday = day.date == date
            body += "<li\(isToday ? " class=\"today\"" : "")><strong>\(day.date.weekdayAbbreviation) \(day.date.components.day)</strong>"
            body += "<span class=\"state\">\(stateWord(day))</span>"
            if !day.levels.isEmpty { body += "<span>\(HTML.escape(day.levels.map(\.name).joined(separator: " ")))</span>" }
            body += "</li>"
        }
        body += "</ol>\n<h2>Cards by level</h2>\n<table><thead><tr><th>Level</th><th>Cards</th></tr></thead><tbody>"
        for level in Level.allCases {
            body += "<tr><td>\(level.name)</td><td>\(status.counts[level] ?? 0)</td></tr>"
        }
        body += "</tbody></table>\n"
        return Layout.page(title: "Today", section: .today, body: body)
    }

    static func stateWord(_ day: CalendarDay) -> String {
        switch day.state {
        case .completed: "done"
        case .skipped: "nothing due"
        case .missed: "missed"
        case .today: "today"
        case .upcoming: "\(day.cards) due"
        case .none: "·"
        }
    }
}
