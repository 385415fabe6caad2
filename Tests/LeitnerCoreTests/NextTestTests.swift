import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// `Status`'s `next`, the one answer to "when is the next test, and how many cards will it have"
/// (docs/rules.md, "The next test"): today's while it has cards to go, counting the new cards its
/// opening admits (R23); else the first later day with cards, the new ones admitted by then
/// counted when level 1 is tested.
@Suite struct NextTestTests {
    func cards(_ box: Box, _ count: Int, level: String? = nil, from first: Int = 0) throws {
        for n in first..<first + count { try box.addText("front \(n)", "back \(n)", id: "c\(n)", level: level) }
    }

    @Test func todaysTestCountsTheNewCardsItsOpeningAdmits() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-01-05"), places: PlacesSettings(newPerDay: 20))
        defer { box.close() }
        try cards(box, 30)
        try cards(box, 2, level: "2", from: 100)
        let today = LogicalDate("2026-01-05")!
        #expect(try box.status().next == NextTest(date: today, levels: [.two, .one], cards: 22, arrivals: 20))
        _ = try box.prepare()
        // Opened: the twenty are in level 1, counted as the test's cards now, none still to come.
        #expect(try box.status().next == NextTest(date: today, levels: [.two, .one], cards: 22, arrivals: 0))
    }

    /// `Status` carries today's week as `Calendar` gives it, so that a client asks once (#35),
    /// and one forecast of the new cards answers its arrivals, its next test and the week's days.
    @Test func statusCarriesTheWeekAsTheCalendarGivesIt() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let clock = ManualClock("2026-01-07")
        let box = try Box.open(dir, clock: clock, places: PlacesSettings(newPerDay: 20))
        defer { box.close() }
        try cards(box, 30)
        for opened in [false, true] {
            if opened { _ = try box.prepare() }
            let status = try box.status()
            #expect(status.week == (try box.calendar(from: "2026-01-05", to: "2026-01-11")))
            #expect(status.week.map(\.date.description) == ["2026-01-05", "2026-01-06", "2026-01-07", "2026-01-08",
                                                             "2026-01-09", "2026-01-10", "2026-01-11"])
            let arrivals = try #require(status.arrivals)
            #expect(status.week.first { $0.date == arrivals.date }?.arrivals == arrivals.cards)
            #expect(status.next?.arrivals == (opened ? 0 : 20))
        }
    }

    @Test func afterTodaysTestTheNextDayWithCardsCountsWhatArrivesByThen() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let clock = ManualClock("2026-01-05")
        let box = try Box.open(dir, clock: clock, places: PlacesSettings(newPerDay: 20))
        defer { box.close() }
        try cards(box, 25)
        while let card = try box.next().card { _ = try box.grade(id: card.id, correct: true, answerMs: 5) }
        // Tomorrow tests levels 3 and 1: no card in them now, and the five left in new/ arrive.
        #expect(try box.status().next == NextTest(date: LogicalDate("2026-01-06")!, levels: [.three, .one], cards: 5, arrivals: 5))
        clock.advance(days: 1)
        while let card = try box.next().card { _ = try box.grade(id: card.id, correct: true, answerMs: 5) }
        // Nothing waits in new/ now, level 1 is empty: the next test with cards is the next that
        // tests level 2 (entry 2: levels 2 and 1), where all twenty-five are.
        #expect(try box.status().next == NextTest(date: LogicalDate("2026-01-07")!, levels: [.two, .one], cards: 25, arrivals: 0))
    }

    @Test func noTestHasCardsWhenEveryCardIsFinished() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-01-05"))
        defer { box.close() }
        #expect(try box.status().next == nil)
        try cards(box, 2, level: "finished")
        #expect(try box.status().next == nil)
    }

    @Test func aCycleWithoutLevelOneCountsTheArrivalsOnTheDayThatTestsIt() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let cycle = try #require(try? CycleTable(entries: [[.two], [.three], [.one]]))
        let box = try Box.open(dir, clock: ManualClock("2026-01-05"), cycle: cycle, places: PlacesSettings(newPerDay: 20))
        defer { box.close() }
        try cards(box, 50)
        // Today tests level 2 (empty): its opening admits twenty into level 1 all the same; the
        // next day tests 3 and admits twenty more; the one after tests 1, with the last ten
        // admitted as it opens: fifty.
        #expect(try box.status().next == NextTest(date: LogicalDate("2026-01-07")!, levels: [.one], cards: 50, arrivals: 50))
    }
}
