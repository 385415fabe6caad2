import LeitnerClient
import LeitnerCore

/// Today: the test's levels and how far it is, the next test, the new cards waiting and when they arrive,
/// the suspended cards and the leeches (as `leitnerctl status` says them), the cards per level,
/// the week as a paper Leitner calendar, and the button that starts the review.
public enum TodayPage {
    /// Whether the box holds no card at all, in levels or places.
    static func isEmpty(_ status: BoxStatus) -> Bool {
        status.counts.values.allSatisfy { $0 == 0 }
    }

    /// A newcomer's first page, Today's or the review's: the way on, not "nothing is due".
    static let noCards: HTML = "<p id=\"no-cards\">No cards yet: <a href=\"/cards/new\">add a card</a>, or import a deck on the"
        + " computer with <code>leitnerctl import FILE</code> (TSV, CSV, an Anki package).</p>\n"

    public static func html(status: BoxStatus, week: [CalendarDay], csrf: String, box: String? = nil) -> HTML {
        let test = status.test
        let date = status.today
        var body: HTML = "<h1>Today · \(date.weekdayAbbreviation) \(date)</h1>\n"
        // New cards that come in when today's test opens (pacing): the test is empty only until
        // then, so it is offered as any other (Start opens it, `Prepare`).
        let arriving = TestWords.arriving(status)
        switch test.state {
        case .empty where arriving > 0:
            body += "<p>Today's test opens with <strong>\(arriving) new card\(arriving == 1 ? "" : "s")</strong>.</p>\n"
            body += "<div class=\"actions\">" + Layout.form(action: "/review/start", csrf: csrf, button: "Start the review",
                                                             id: "start", buttonClass: "primary") + "</div>\n"
        case .empty where isEmpty(status):
            body += noCards
        case .empty:
            body += "<p>Nothing is due today.</p>\n"
        case .completed:
            body += "<p>Today's test is complete: \(TestWords.progress(test))"
                + (test.failed > 0 ? ", \(test.failed) answered wrong on the way" : "") + ".</p>\n"
        case .open:
            // Its progress as the review and `status` say it (TestWords), not its levels: "levels
            // 2, 1" tells a newcomer nothing (#35). Until it opens, the new cards its opening
            // admits into level 1 are not in it yet, but they are today's cards all the same:
            // "0 of 2 done" before 20 arrive would be wrong the moment Start is pressed.
            let progress = TestWords.progress(done: test.done, of: test.cards + arriving, repeating: test.repeating)
            body += "<p id=\"progress\">Today's test: <strong>\(progress)</strong>"
            body += arriving > 0 ? ", \(arriving) of them new, coming in when it starts.</p>\n" : ".</p>\n"
            body += "<div class=\"actions\">" + Layout.form(action: "/review/start", csrf: csrf,
                                                             button: test.passed + test.failed == 0 ? "Start the review" : "Go on with the review",
                                                             id: "start", buttonClass: "primary") + "</div>\n"
        }
        // The box's one answer to "when next?" (`Status`'s `next`), as the review's end says it.
        if let next = status.next, next.date != date {
            body += "<p id=\"next\">Next test: \(TestWords.next(next, today: date)).</p>\n"
        }
        body += places(status)
        if status.problems > 0 {
            body += "<p class=\"problem\">The store has \(status.problems) problem\(status.problems == 1 ? "" : "s"): run <code>leitnerctl doctor</code>.</p>\n"
        }
        body += "<h2>This week</h2>\n<ol class=\"week\">"
        for day in week {
            let isToday = day.date == date
            body += "<li\(isToday ? " class=\"today\"" : "" as HTML)><strong>\(day.date.weekdayAbbreviation) \(day.date.components.day)</strong>"
            body += "<span class=\"state\">\(stateWord(day))</span>"
            // Its levels in words: "2 1" alone read as two numbers of nothing (#36).
            if !day.levels.isEmpty {
                body += "<span>level\(day.levels.count == 1 ? "" : "s") \(day.levels.map(\.name).joined(separator: ", "))</span>"
            }
            body += "</li>"
        }
        // The levels and places that hold cards, a line of chips rather than a table of ten rows.
        body += "</ol>\n<h2>Cards by level</h2>\n<ul class=\"counts\" id=\"counts\">"
        for level in Level.allCases where (status.counts[level] ?? 0) > 0 {
            let name = level.isPlace || level == .finished ? level.name : "level \(level.name)"
            body += "<li>\(name): <strong>\(status.counts[level] ?? 0)</strong></li>"
        }
        body += "</ul>\n"
        body += "<p class=\"muted\"><a href=\"/devices\" id=\"devices-link\">Devices</a>: the browsers paired with this box.</p>\n"
        return Layout.page(title: "Today", section: .today, body: body, box: box)
    }

    /// The places beside the levels, a line each and none when empty: what waits in `new/` and
    /// when the next cards of it arrive (pacing, `NewPerDay=`), the suspended cards, the leeches.
    static func places(_ status: BoxStatus) -> HTML {
        var out: HTML = ""
        let waiting = status.counts[.new] ?? 0
        if waiting > 0 {
            out += "<p id=\"waiting\">\(waiting) new card\(waiting == 1 ? "" : "s") wait\(waiting == 1 ? "s" : "")"
            if let arrivals = status.arrivals {
                // The date the daemon gives is today's while today's test is not open yet: the
                // cards come in when it opens, which the Start button does.
                let when = arrivals.date == status.today ? "today, when the test opens"
                    : arrivals.date == status.today.next ? "tomorrow" : "on \(arrivals.date.weekdayAbbreviation) \(arrivals.date)"
                out += "; \(arrivals.cards) arrive\(arrivals.cards == 1 ? "s" : "") \(when)"
            }
            out += ".</p>\n"
        }
        let suspended = status.counts[.suspended] ?? 0
        if suspended > 0 {
            out += "<p id=\"suspended\">\(suspended) card\(suspended == 1 ? " is" : "s are") suspended: "
            out += "<a href=\"/cards?level=suspended\">see \(suspended == 1 ? "it" : "them")</a>.</p>\n"
        }
        if let leeches = status.leeches, leeches > 0 {
            out += "<p id=\"leeches\">\(leeches) leech\(leeches == 1 ? "" : "es") (cards answered wrong again and again): "
            out += "<a href=\"/stats\">see the statistics</a>.</p>\n"
        }
        return out
    }

    static func stateWord(_ day: CalendarDay) -> String {
        switch day.state {
        case .completed: "done"
        case .skipped: "nothing due"
        case .missed: "missed"
        case .today: "today"
        // With the new cards that day brings beside them, as `calendar` says: "0 due" beside
        // "20 arrive tomorrow" read as two answers (#35).
        case .upcoming: "\(day.cards) card\(day.cards == 1 ? "" : "s")" + ((day.arrivals ?? 0) > 0 ? " +\(day.arrivals ?? 0) new" : "")
        case .none: "·"
        }
    }
}
