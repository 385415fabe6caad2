import Testing
@testable import LeitnerClient
import LeitnerCore

/// The statistics drawn: the screen fits its width, is ASCII without colour and Unicode with it;
/// the HTML page is self-contained, escapes ids, has a tooltip per heatmap day and axes with units.
@Suite struct StatsRenderingTests {
    static func date(_ text: String) -> LogicalDate { LogicalDate(text)! }

    /// A box of eight weeks: today 2026-03-04 (a Wednesday).
    static let stats: BoxStatistics = {
        let today = date("2026-03-04")
        let monday = today.adding(days: -today.weekday - 7 * 51)
        let heatmap = (0..<364).map { index -> StatsDay in
            let day = monday.adding(days: index)
            let age = today.ordinal - day.ordinal
            let state: CalendarDay.State = age < 0 ? .upcoming : age == 0 ? .today : age > 56 ? .none
                : age % 9 == 0 ? .missed : age % 7 == 0 ? .skipped : .completed
            let reviews = state == .completed ? (age * 7) % 40 + 1 : 0
            return StatsDay(date: day, state: state, reviews: reviews, answerMs: reviews * 2500)
        }
        return BoxStatistics(
            today: today, window: 30, leechWindow: 90,
            counts: [.one: 120, .two: 60, .three: 30, .four: 12, .five: 6, .six: 2, .seven: 1, .finished: 40],
            damaged: 2, loose: 1,
            forecast: (0..<30).map { ForecastTest(date: today.adding(days: $0), position: 56 + $0, levels: [.two, .one], cards: 20 + ($0 * 13) % 50) },
            heatmap: heatmap,
            retention: Level.rotation.map { LevelRetention(level: $0, recentAnswers: 40 / $0.rawValue, recentRight: 30 / $0.rawValue, answers: 400 / $0.rawValue, right: 300 / $0.rawValue) },
            retentionWeeks: (0..<8).flatMap { week in [Level.one, .two].map { WeekRetention(week: date("2026-01-12").adding(days: 7 * week), level: $0, answers: 30 - week * 3, right: 20 - week) } },
            work: Array(heatmap.filter { $0.date <= today }.suffix(30)),
            weekReviews: 12, weekAnswerMs: 31_000,
            streaks: Streaks(current: 4, longest: 11, longestEnd: date("2026-02-10")),
            leeches: [Leech(id: "<b>猫</b>", failures: 7, level: .one), Leech(id: "perro", failures: 3, level: .two)])
    }()

    static func occurrences(of needle: String, in text: String) -> Int {
        let pattern = Array(needle.utf8), bytes = Array(text.utf8)
        guard bytes.count >= pattern.count else { return 0 }
        return (0...(bytes.count - pattern.count)).filter { bytes[$0..<$0 + pattern.count].elementsEqual(pattern) }.count
    }

    @Test(arguments: [40, 60, 80, 132])
    func thePlainScreenIsASCIIAndFitsTheWidth(width: Int) {
        let lines = StatsScreen(Self.stats, style: TextStyle(enabled: false), width: width).lines()
        #expect(lines.allSatisfy { $0.allSatisfy(\.isASCII) || $0.contains("猫") })
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(lines.filter { DisplayWidth.of($0) > width })")
        #expect(lines.contains { $0.contains("current 4 days, longest 11 days") })
        #expect(lines.contains { $0.contains("1 damaged card") == false && $0.contains("2 damaged cards, 1 loose file") })
    }

    @Test(arguments: [40, 100])
    func theTerminalScreenHasColourAndBlocksAndFitsTheWidth(width: Int) {
        let lines = StatsScreen(Self.stats, style: TextStyle(enabled: true), width: width).lines()
        let text = lines.joined(separator: "\n")
        #expect(text.contains("\u{1B}[38;5;") && text.contains("█") && text.contains("■"))
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= width })
    }

    @Test func theHeatmapLegendKeepsItsSeparatorsApartFromTheMarks() {
        // On a terminal the no-review mark is `·`: the legend's entries are set apart by commas.
        let text = StatsScreen(Self.stats, style: TextStyle(enabled: false), width: 132).lines().joined(separator: "\n")
        let fancy = StatsScreen(Self.stats, style: TextStyle(enabled: true), width: 132).lines().joined(separator: "\n")
        #expect(text.contains(" skipped, . no review, blank: before the box"))
        #expect(fancy.contains(" no review, blank: before the box") && !fancy.contains(" more · "))
    }

    @Test(arguments: [(60, "in 2 days"), (80, "a day")])
    func theWorkChartNamesTheDaysAMarkStandsFor(width: Int, unit: String) {
        // 30 days in 26 columns: a mark for two days, and the maximum is per two days.
        let lines = StatsScreen(Self.stats, style: TextStyle(enabled: false), width: width).lines()
        let reviews = lines.first { $0.hasPrefix("  reviews ") }!, time = lines.first { $0.hasPrefix("  time ") }!
        #expect(reviews.hasSuffix(" \(unit)") && time.hasSuffix(" \(unit)"), "\(reviews)\n\(time)")
        #expect(!reviews.contains(" a 2 days"))
    }

    @Test func theHeatmapShowsEachStateAndMonths() {
        let lines = StatsScreen(Self.stats, style: TextStyle(enabled: false), width: 80).lines()
        let start = lines.firstIndex { $0.hasPrefix("The last 52 weeks") }!
        #expect(lines[start + 1].contains("Jan") && lines[start + 1].contains("Feb"))
        let rows = lines[(start + 2)...(start + 8)].joined()
        #expect(rows.contains("x") && rows.contains("-") && rows.contains("#"))
    }

    @Test func retentionUnderTwentyAnswersIsMarkedUncertain() {
        let lines = StatsScreen(Self.stats, style: TextStyle(enabled: false), width: 80).lines()
        // Level 3: 13 answers in the window (uncertain), 133 all time (not).
        let start = lines.firstIndex { $0.hasPrefix("Retention") }!
        let row = lines[start...].first { $0.hasPrefix("  3 ") }!
        #expect(row.contains("77%? of 13") && row.contains("75% of 133") && !row.contains("75%?"))
        #expect(lines.contains("  ? fewer than 20 answers: uncertain"))
    }

    @Test func theHTMLPageIsSelfContainedAndLabelled() {
        let html = StatsReport(Self.stats).html()
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>\n"))
        #expect(!html.contains("<script") && !html.contains("http") && !html.contains("url("))
        // Each chart twice: for a screen and for a phone (its heatmap the last 13 weeks).
        #expect(Self.occurrences(of: "<svg viewBox=\"0 0 920 ", in: html) == 6)
        #expect(Self.occurrences(of: "<svg viewBox=\"0 0 330 ", in: html) == 6)
        #expect(html.contains("aria-label=\"reviews per day, last 52 weeks\"") && html.contains("aria-label=\"reviews per day, last 13 weeks\""))
        // A day is a link to its figures, shown by the style when tapped.
        #expect(html.contains("<a href=\"#day-2026-03-04\">") && html.contains("<p id=\"day-2026-03-04\">Wed 4 Mar 2026: today</p>"))
        #expect(html.contains(".figures p:target { display: block; }"))
        // One tooltip per heatmap day, with its date and state.
        #expect(Self.occurrences(of: "</title></rect>", in: html) >= 364 + 30 + 8)
        #expect(html.contains("<title>Wed 4 Mar 2026: today</title>"))
        #expect(html.contains(": missed</title>") && html.contains(": before the box</title>"))
        for unit in ["cards per test", "reviews per day", "minutes per day", "right the first time", ">cards<", "week (its Monday)"] {
            #expect(html.contains(unit), "\(unit)")
        }
        // Ids are text, never markup.
        #expect(html.contains("&lt;b&gt;猫&lt;/b&gt;") && !html.contains("<b>猫"))
        #expect(html.contains("(uncertain)"))
    }

    /// Practice (R27) is shown apart from the test's work, on the screen and in the page, and
    /// said to be none when there was none.
    @Test(arguments: [40, 80])
    func practiceIsShownApartFromTheWork(width: Int) {
        var stats = Self.stats
        let none = StatsScreen(stats, style: TextStyle(enabled: false), width: width).lines()
        #expect(none.contains { $0.hasPrefix("  practice") && $0.contains("none") })
        #expect(StatsReport(stats).html().contains("<p>No practice in the last 30 days.</p>"))
        stats.practiceAnswers = 12
        stats.practiceWrong = 3
        stats.practiceMs = 95_000
        let lines = StatsScreen(stats, style: TextStyle(enabled: false), width: width).lines()
        let line = lines.first { $0.hasPrefix("  practice") }
        #expect(line?.contains("12 answers, 3 wrong, ") == true)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= width })
        // The reviews of the work section do not count it.
        #expect(lines.contains { $0.contains("Work") && !$0.contains("12 answers") })
        let html = StatsReport(stats).html()
        #expect(html.contains("<h2>Practice</h2>") && html.contains("12 answers, 3 wrong (75% right)"))
        #expect(html.contains("<title>9 answers right</title>") && html.contains("<title>3 answers wrong</title>"))
        // Seven charts, each drawn for a screen and for a phone.
        #expect(Self.occurrences(of: "<svg", in: html) == 14)
    }

    @Test func theHeatmapNoteNamesQuartilesOnlyWhenThereAreReviews() {
        #expect(StatsReport(Self.stats).html().contains("(by quartile of the days with reviews: "))
        var none = Self.stats
        none.heatmap = none.heatmap.map { StatsDay(date: $0.date, state: $0.state, reviews: 0, answerMs: 0) }
        let html = StatsReport(none).html()
        #expect(!html.contains("quartile") && html.contains("darker with more reviews; 0 reviews on 0 days."))
    }

    @Test func axisTicksAreRoundNumbersCoveringTheMaximum() {
        #expect(StatsReport.ticks(0) == [0, 1])
        #expect(StatsReport.ticks(7) == [0, 2, 4, 6, 8])
        #expect(StatsReport.ticks(25) == [0, 5, 10, 15, 20, 25])
        #expect(StatsReport.ticks(100) == [0, 20, 40, 60, 80, 100])
        #expect(StatsReport.ticks(2.07) == [0, 0.5, 1, 1.5, 2, 2.5])
    }

    @Test func durationsAndShares() {
        #expect(StatsFormat.duration(ms: 400) == "0 s" && StatsFormat.duration(ms: 45_200) == "45 s")
        #expect(StatsFormat.duration(ms: 14 * 60_000 + 10_000) == "14 min")
        #expect(StatsFormat.duration(ms: 72 * 60_000) == "1 h 12 min" && StatsFormat.duration(ms: 120 * 60_000) == "2 h")
        #expect(StatsFormat.percent(2, of: 3) == "67%" && StatsFormat.percent(0, of: 0) == "-")
        #expect(StatsFormat.shade(0, thresholds: [2, 5, 9]) == 0)
        #expect([1, 2, 3, 5, 6, 9, 10].map { StatsFormat.shade($0, thresholds: [2, 5, 9]) } == [1, 1, 2, 2, 3, 3, 4])
    }
}
