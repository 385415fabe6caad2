import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// Each figure of `Stats` computed on hand-made logs and day records, with the day given: the
/// heatmap, work, retention, streaks (skipped and missed days), the forecast, the leeches, and
/// the first day of a box. Then through a real box: the totals follow the log as it grows.
@Suite struct BoxStatisticsTests {
    typealias T = ReviewTallyTests

    static func date(_ text: String) -> LogicalDate { LogicalDate(text)! }

    static func record(_ entries: [(String, DayRecord.Outcome)]) -> DayRecord {
        try! DayRecord(entries: entries.map { DayRecord.Entry(date: date($0.0), outcome: $0.1) })
    }

    static func input(today: String, first: String, days: DayRecord, counts: [Level: Int] = [:],
                      openQueue: [Level: Int]? = [:], levels: [String: Level] = [:], window: Int = 30,
                      leechWindow: Int = 90, leechCount: Int = 10, onFail: OnFailPolicy = .first) -> StatisticsInput {
        StatisticsInput(today: date(today), firstDate: date(first), days: days, onFail: onFail, counts: counts,
                        openQueue: openQueue, levelOf: { levels[$0] }, window: window, leechWindow: leechWindow,
                        leechCount: leechCount)
    }

    /// 2026-03-04 is a Wednesday.
    @Test func theHeatmapIs52WeeksMondayToSundayWithEachDaysState() {
        let days = Self.record([("2026-03-01", .completed), ("2026-03-02", .skipped)])
        let tally = T.tally([T.grade("a", "2026-03-01", 10, from: .one, right: true, ms: 2000),
                             T.grade("b", "2026-03-04", 10, from: .one, right: false, ms: 500)])
        let stats = BoxStatistics(tally: tally, input: Self.input(today: "2026-03-04", first: "2026-03-01", days: days))
        #expect(stats.heatmap.count == 364)
        #expect(stats.heatmap.first!.date.weekday == 0 && stats.heatmap.last!.date == Self.date("2026-03-08"))
        let states = stats.heatmap.suffix(9).map(\.state)
        #expect(states == [.none, .completed, .skipped, .missed, .today, .upcoming, .upcoming, .upcoming, .upcoming])
        #expect(stats.heatmap.suffix(9).map(\.reviews) == [0, 1, 0, 0, 1, 0, 0, 0, 0])
        #expect(stats.heatmap.first { $0.date == Self.date("2026-03-01") }!.answerMs == 2000)
    }

    @Test func workCoversTheWindowAndTheWeekRunsFromMonday() {
        let tally = T.tally([T.grade("a", "2026-03-01", 10, from: .one, right: true, ms: 2000),  // a Sunday
                             T.grade("a", "2026-03-02", 10, from: .two, right: true, ms: 700),
                             T.grade("b", "2026-03-04", 10, from: .one, right: false, ms: 500),
                             T.grade("b", "2026-03-04", 11, from: .one, right: true, ms: 300)])
        let stats = BoxStatistics(tally: tally, input: Self.input(today: "2026-03-04", first: "2026-02-01",
                                                                  days: DayRecord(), window: 7))
        #expect(stats.window == 7 && stats.work.count == 7)
        #expect(stats.work.first!.date == Self.date("2026-02-26") && stats.work.last!.date == Self.date("2026-03-04"))
        #expect(stats.work.map(\.reviews) == [0, 0, 0, 1, 1, 0, 2])
        #expect(stats.weekReviews == 3 && stats.weekAnswerMs == 1500)
    }

    @Test func retentionPerLevelRecentAndAllTime() {
        var entries: [LogEntry] = []
        // Level 2: 40 days ago, 3 first answers, 1 right; yesterday 2 first answers, both right.
        for (index, right) in [true, false, false].enumerated() {
            entries.append(T.grade("old\(index)", "2026-01-23", 10, from: .two, right: right))
        }
        entries.append(T.complete("2026-01-23", 10))
        entries.append(T.grade("new0", "2026-03-03", 10, from: .two, right: true))
        entries.append(T.grade("new1", "2026-03-03", 10, from: .two, right: true))
        // A repeat after a wrong answer is no first answer.
        entries.append(T.grade("new2", "2026-03-03", 10, from: .one, right: false))
        entries.append(T.grade("new2", "2026-03-03", 11, from: .one, right: true))
        let stats = BoxStatistics(tally: T.tally(entries), input: Self.input(today: "2026-03-04", first: "2026-01-01",
                                                                             days: DayRecord()))
        #expect(stats.retention.map(\.level) == Level.rotation)
        #expect(stats.retention[1] == LevelRetention(level: .two, recentAnswers: 2, recentRight: 2, answers: 5, right: 3))
        #expect(stats.retention[0] == LevelRetention(level: .one, recentAnswers: 1, recentRight: 0, answers: 1, right: 0))
        #expect(stats.retention[6].answers == 0)
        // By week: the week of 2026-03-02 (Monday) has level 1 and level 2.
        let week = stats.retentionWeeks.filter { $0.week == Self.date("2026-03-02") }
        #expect(week == [WeekRetention(week: Self.date("2026-03-02"), level: .one, answers: 1, right: 0),
                         WeekRetention(week: Self.date("2026-03-02"), level: .two, answers: 2, right: 2)])
        #expect(stats.retentionWeeks.contains(WeekRetention(week: Self.date("2026-01-19"), level: .two, answers: 3, right: 1)))
    }

    /// A skipped day neither counts nor breaks a run; a missed day ends it; today ends nothing
    /// while open and counts once completed.
    @Test func streaksCountCompletedDaysBridgeSkippedOnesAndEndAtAMissedOne() {
        let days = Self.record([
            ("2026-03-01", .completed), ("2026-03-02", .completed), ("2026-03-03", .skipped),
            ("2026-03-04", .completed),
            // 03-05 missed
            ("2026-03-06", .completed), ("2026-03-07", .skipped),
        ])
        let open = BoxStatistics.streaks(Self.input(today: "2026-03-08", first: "2026-03-01", days: days))
        #expect(open == Streaks(current: 1, longest: 3, longestEnd: Self.date("2026-03-04")))
        var done = days
        try! done.append(DayRecord.Entry(date: Self.date("2026-03-08"), outcome: .completed))
        let completed = BoxStatistics.streaks(Self.input(today: "2026-03-08", first: "2026-03-01", days: done))
        #expect(completed == Streaks(current: 2, longest: 3, longestEnd: Self.date("2026-03-04")))
        // Yesterday missed: the current run is over.
        let later = BoxStatistics.streaks(Self.input(today: "2026-03-09", first: "2026-03-01", days: days))
        #expect(later.current == 0 && later.longest == 3)
        // The box's days before the first entry were missed: nothing runs across them.
        let lateStart = BoxStatistics.streaks(Self.input(today: "2026-03-08", first: "2026-02-20", days: days))
        #expect(lateStart.longest == 3)
    }

    @Test func theFirstDayOfABox() {
        let stats = BoxStatistics(tally: ReviewTally(),
                                  input: Self.input(today: "2026-03-04", first: "2026-03-04", days: DayRecord(),
                                                    counts: [.one: 3], openQueue: [.one: 3]))
        #expect(stats.streaks == Streaks(current: 0, longest: 0, longestEnd: nil))
        #expect(stats.heatmap.filter { $0.date < Self.date("2026-03-04") }.allSatisfy { $0.state == .none })
        #expect(stats.work.last!.state == .today && stats.work.dropLast().allSatisfy { $0.state == .none })
        #expect(stats.retention.allSatisfy { $0.answers == 0 } && stats.retentionWeeks.isEmpty && stats.leeches.isEmpty)
        #expect(stats.counts[.one] == 3 && stats.counts[.finished] == 0 && stats.counts.count == 10, "the levels and the places (R23, R24)")
        #expect(stats.forecast.first == ForecastTest(date: Self.date("2026-03-04"), position: 0, levels: [.two, .one], cards: 3))
    }

    /// The forecast with no answers yet: every card answered right, up one level a test.
    @Test func theForecastMovesTheCardsOfEachTestUp() {
        let days = Self.record([("2026-03-01", .completed)])   // position 1: levels 3,1
        let input = Self.input(today: "2026-03-04", first: "2026-03-01", days: days,
                               counts: [.one: 10, .three: 4, .finished: 9], openQueue: [.one: 6, .three: 4])
        let forecast = BoxStatistics.forecast(input, retention: BoxStatistics.retention(ReviewTally(), since: Self.date("2026-03-04"), through: Self.date("2026-03-04")))
        #expect(forecast.count == 30)
        #expect(forecast.prefix(4).map(\.position) == [1, 2, 3, 4])
        #expect(forecast.prefix(4).map(\.date) == ["2026-03-04", "2026-03-05", "2026-03-06", "2026-03-07"].map(Self.date))
        // Today: the 10 left in the queue; they move to 2 (6) and 4 (4). Entry 2 (2,1): those 6
        // and the 4 left in level 1, then in 3 and 2; entry 3 (4,1): the 4 in level 4; entry 4
        // (2,1): the 4 in level 2; entry 5 (3,1): the 10 now in level 3.
        #expect(forecast.prefix(5).map(\.cards) == [10, 10, 4, 4, 10])
    }

    /// With retention: of level 2's cards, half are answered wrong, go down (OnFail=previous) to
    /// 1 and back to 2 once answered right in the same test.
    @Test func theForecastUsesEachLevelsRetention() {
        let tally = T.tally([T.grade("a", "2026-03-01", 10, from: .two, right: true),
                             T.grade("b", "2026-03-01", 10, from: .two, right: false)])
        let input = Self.input(today: "2026-03-04", first: "2026-03-01", days: DayRecord(), counts: [.two: 8],
                               openQueue: nil, onFail: .previous)
        let retention = BoxStatistics.retention(tally, since: Self.date("2026-03-01"), through: Self.date("2026-03-04"))
        let forecast = BoxStatistics.forecast(input, retention: retention)
        // Completed today: the forecast starts tomorrow with position 0 (levels 2,1): 8 cards;
        // then 4 stay in 2 and 4 go to 3: entry 1 (3,1) has 4, entry 2 (2,1) has 4.
        #expect(forecast.first!.date == Self.date("2026-03-05"))
        #expect(forecast.prefix(3).map(\.cards) == [8, 4, 4])
    }

    @Test func leechesAreTheCardsFailedMostInTheWindowStillInTheBox() {
        var entries: [LogEntry] = []
        for _ in 0..<3 { entries.append(T.grade("hard", "2026-03-03", 10, from: .one, right: false)) }
        for _ in 0..<2 { entries.append(T.grade("soso", "2026-03-03", 10, from: .one, right: false)) }
        for _ in 0..<2 { entries.append(T.grade("also", "2026-03-03", 10, from: .one, right: false)) }
        for _ in 0..<5 { entries.append(T.grade("gone", "2026-03-03", 10, from: .one, right: false)) }
        for _ in 0..<9 { entries.append(T.grade("long-ago", "2025-10-01", 10, from: .one, right: false)) }
        let levels: [String: Level] = ["hard": .two, "soso": .one, "also": .four, "long-ago": .one]
        let stats = BoxStatistics(tally: T.tally(entries),
                                  input: Self.input(today: "2026-03-04", first: "2025-01-01", days: DayRecord(),
                                                    levels: levels, leechCount: 2))
        #expect(stats.leeches == [Leech(id: "hard", failures: 3, level: .two), Leech(id: "also", failures: 2, level: .four)])
        let wide = BoxStatistics.leeches(T.tally(entries), Self.input(today: "2026-03-04", first: "2025-01-01",
                                                                      days: DayRecord(), levels: levels, leechWindow: 365))
        #expect(wide.first == Leech(id: "long-ago", failures: 9, level: .one))
    }

    // MARK: Through the box

    /// The totals follow the log as it grows, a line written by hand included, and a reopened
    /// box computes the same figures from the whole log.
    @Test func theBoxKeepsItsTotalsAsTheLogGrows() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a")
        try f.box.addText("b", "B", id: "b")
        _ = try f.box.prepare()
        _ = try f.box.grade(id: "a", correct: false, answerMs: 1200)
        var stats = try f.box.statistics(window: nil, leeches: nil)
        #expect(stats.work.last!.reviews == 1 && stats.work.last!.answerMs == 1200)
        #expect(stats.leeches == [Leech(id: "a", failures: 1, level: .one)])
        #expect(stats.forecast.first!.cards == 2)
        _ = try f.box.grade(id: "b", correct: true, answerMs: 800)
        _ = try f.box.grade(id: "a", correct: true, answerMs: 400)
        stats = try f.box.statistics(window: nil, leeches: nil)
        #expect(stats.work.last!.reviews == 3 && stats.work.last!.answerMs == 2400)
        #expect(stats.work.last!.state == .completed && stats.streaks.current == 1)
        #expect(stats.retention[0].answers == 2 && stats.retention[0].right == 1)
        f.clock.advance(days: 1)
        _ = try f.box.prepare()
        stats = try f.box.statistics(window: 7, leeches: 0)
        #expect(stats.leeches.isEmpty && stats.work.count == 7 && stats.streaks.current == 1)
        let again = try f.box.statistics(window: 7, leeches: 0)
        try f.reopen()
        #expect(try f.box.statistics(window: 7, leeches: 0) == again)
    }

    @Test func aWindowOrCountOutOfRangeIsRefused() throws {
        let f = try BoxFixture()
        expectBoxError(.invalidParameter(name: "days", reason: "must be 1 to 3660")) { try f.box.statistics(window: 0, leeches: nil) }
        expectBoxError(.invalidParameter(name: "leeches", reason: "must be 0 to 1000")) { try f.box.statistics(window: nil, leeches: 1001) }
    }
}
