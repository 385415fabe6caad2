import Testing
@testable import LeitnerCore

/// `Calendar`: past days from the day record (completed, skipped, missed) with the levels of the
/// test open that day and the distinct cards graded (undone grades left out); today; upcoming
/// days projected from the cycle (day k after today shows `T[q + k]`, q today's position) with
/// the cards now in their levels.
@Suite struct CalendarTests {
    /// A day of a box with nothing in `new/`: no arrivals.
    func day(_ date: String, _ state: CalendarDay.State, _ levels: [Level], _ cards: Int) -> CalendarDay {
        var day = CalendarDay(date: LogicalDate(date)!, state: state, levels: levels, cards: cards)
        day.arrivals = 0
        return day
    }

    /// Day record after this: 03-02 completed (3 cards), 03-03 skipped, 03-04 missed (one grade
    /// kept, one undone), 03-05 completed (2 cards); today is 03-06.
    func history() throws -> BoxFixture {
        let f = try BoxFixture()
        for id in ["a", "b", "c"] { try f.box.addText(id, id, id: id) }
        _ = try f.box.grade(id: "a", correct: false, answerMs: nil)
        try f.box.passAll() // a, b, c → 2
        f.clock.advance(days: 2) // 03-03 ([3,1]) is empty: skipped
        _ = try f.box.grade(id: "a", correct: true, answerMs: nil)
        _ = try f.box.grade(id: "b", correct: true, answerMs: nil)
        _ = try f.box.undo()
        f.clock.advance(days: 1)
        try f.box.passAll() // b, c → 3 on 03-05
        f.clock.advance(days: 1)
        try f.box.addText("d", "d", id: "d", level: "4")
        return f
    }

    @Test func pastTodayAndUpcoming() throws {
        let f = try history()
        #expect(f.dir.dayLines == ["2026-03-02 completed", "2026-03-03 skipped", "2026-03-05 completed"])
        let days = try f.box.calendar(from: "2026-03-02", to: "2026-03-10")
        #expect(days == [
            day("2026-03-02", .completed, [.two, .one], 3),
            day("2026-03-03", .skipped, [.three, .one], 0),
            day("2026-03-04", .missed, [.two, .one], 1),
            day("2026-03-05", .completed, [.two, .one], 2),
            day("2026-03-06", .today, [.four, .one], 1),
            day("2026-03-07", .upcoming, [.two, .one], 0),
            day("2026-03-08", .upcoming, [.three, .one], 3),
            day("2026-03-09", .upcoming, [.two, .one], 0),
            day("2026-03-10", .upcoming, [.one], 0),
        ])
    }

    /// The graded counts are read from the log once and then kept up with it: asked again after
    /// more grades, undos and a new day, they match a box that reads the log afresh.
    @Test func countsKeepUpWithTheLog() throws {
        let f = try history()
        let range = ("2026-03-01", "2026-03-08")
        _ = try f.box.calendar(from: range.0, to: range.1)
        _ = try f.box.grade(id: "d", correct: false, answerMs: nil)
        _ = try f.box.grade(id: "d", correct: true, answerMs: nil)
        _ = try f.box.undo()
        f.clock.advance(days: 1)
        _ = try f.box.calendar(from: range.0, to: range.1)
        f.clock.advance(days: 1)
        let live = try f.box.calendar(from: range.0, to: range.1)
        #expect(live.first { $0.date == LogicalDate("2026-03-06")! }?.cards == 1, "d graded twice, once undone: one card")
        try f.reopen()
        #expect(try f.box.calendar(from: range.0, to: range.1) == live)
    }

    /// Today is `completed` once its test is; the projection does not shift.
    @Test func todayCompleted() throws {
        let f = try history()
        _ = try f.box.grade(id: "d", correct: true, answerMs: nil)
        let days = try f.box.calendar(from: "2026-03-06", to: "2026-03-08")
        #expect(days == [
            day("2026-03-06", .completed, [.four, .one], 0),
            day("2026-03-07", .upcoming, [.two, .one], 0),
            day("2026-03-08", .upcoming, [.three, .one], 3),
        ])
    }

    /// Both ends are included; a one-day range is one day; the range may lie wholly in the future.
    @Test func rangesIncludeBothEnds() throws {
        let f = try history()
        #expect(try f.box.calendar(from: "2026-03-04", to: "2026-03-04").map(\.state) == [.missed])
        let future = try f.box.calendar(from: "2026-04-01", to: "2026-04-30")
        #expect(future.count == 30)
        #expect(future.allSatisfy { $0.state == .upcoming })
        // 2026-04-01 is 26 days after today (position 3): T[29] = [3,1].
        #expect(future[0].levels == [.three, .one])
        #expect(future.map(\.levels.first!.rawValue) == (29..<59).map { BoxTestRulesTests.specTable[$0][0] })
    }

    /// Asking changes nothing.
    @Test func calendarIsReadOnly() throws {
        let f = try history()
        let before = f.dir.snapshot(excluding: "")
        _ = try f.box.calendar(from: "2026-01-01", to: "2026-12-31")
        #expect(f.dir.snapshot(excluding: "") == before)
    }

    /// Days before the box's first logical date are `none`, not missed; the date is kept in
    /// `.leitner/created`.
    @Test func daysBeforeTheBoxExistedAreNone() throws {
        let f = try BoxFixture("2026-03-05")
        try f.box.addText("a", "A", id: "a")
        #expect(f.dir.read(".leitner/created") == "2026-03-05\n")
        let days = try f.box.calendar(from: "2026-03-02", to: "2026-03-06")
        #expect(days.map(\.state) == [.none, .none, .none, .today, .upcoming])
        #expect(days[0].levels.isEmpty && days[0].cards == 0)
        f.clock.advance(days: 3) // 03-05 to 03-07 missed, not the days before
        #expect(try f.box.calendar(from: "2026-03-03", to: "2026-03-08").map(\.state)
                == [.none, .none, .missed, .missed, .missed, .today])
    }

    /// A store from before `.leitner/created` takes the date of its oldest day-record or log
    /// entry, and keeps it.
    @Test func anOldStoreTakesItsOldestEntry() throws {
        let f = try history()
        f.close()
        f.dir.removeFile(".leitner/created")
        f.clock.advance(days: 10)
        try f.reopen()
        #expect(f.dir.read(".leitner/created") == "2026-03-02\n")
        let days = try f.box.calendar(from: "2026-03-01", to: "2026-03-02")
        #expect(days.map(\.state) == [.none, .completed])
    }
}
