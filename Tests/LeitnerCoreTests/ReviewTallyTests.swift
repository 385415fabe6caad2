import Testing
@testable import LeitnerCore

/// The review log's running totals on hand-made logs: grades by day, answer times, first answers
/// in a test per level, undo (R15), hand moves, a clock set back.
@Suite struct ReviewTallyTests {
    /// Days start at 04:00 UTC: a fixed zone, whatever the machine's.
    static let clock = DayClock(dayStartsAt: 4 * 60, utcOffset: { _ in 0 })

    /// The time `hour` o'clock (4 … 27) of logical date `date`.
    static func at(_ date: String, _ hour: Int, minute: Int = 0) -> Int64 {
        clock.start(of: LogicalDate(date)!) + Int64((hour - 4) * 60 + minute) * 60_000
    }

    static func grade(_ id: String, _ date: String, _ hour: Int, from: Level, right: Bool, ms: Int? = 1000) -> LogEntry {
        LogEntry(time: at(date, hour), event: .grade, id: id, from: from, to: right ? from.promoted : .one,
                 correct: right, answerMs: ms)
    }

    static func tally(_ entries: [LogEntry]) -> ReviewTally {
        var tally = ReviewTally()
        for entry in entries { tally.take(entry, dayClock: clock) }
        return tally
    }

    static func complete(_ date: String, _ hour: Int) -> LogEntry {
        LogEntry(time: at(date, hour), event: .complete, date: LogicalDate(date))
    }

    static func undo(_ date: String, _ hour: Int) -> LogEntry { LogEntry(time: at(date, hour), event: .undo, id: "x") }

    @Test func gradesCountOnTheirLogicalDayWithTheirAnswerTimes() {
        let tally = Self.tally([
            Self.grade("a", "2026-03-02", 10, from: .one, right: true, ms: 1500),
            Self.grade("b", "2026-03-02", 10, from: .one, right: false, ms: 2500),
            Self.grade("b", "2026-03-02", 11, from: .one, right: true, ms: nil),
            // 02:00 on the 4th is still the learning day of the 3rd (DayStartsAt=04:00).
            Self.grade("c", "2026-03-03", 26, from: .two, right: true, ms: 400),
        ])
        let second = tally.days[LogicalDate("2026-03-02")!]!
        #expect(second.reviews == 3 && second.wrong == 1 && second.answerMs == 4000)
        // b's second answer in the same test is not a first answer.
        #expect(second.firstAnswers[0] == 2 && second.firstRight[0] == 1)
        let third = tally.days[LogicalDate("2026-03-03")!]!
        #expect(third.reviews == 1 && third.answerMs == 400 && third.firstAnswers[1] == 1 && third.firstRight[1] == 1)
        #expect(tally.days[LogicalDate("2026-03-04")!] == nil)
        #expect(tally.failures == ["b": [Int32(LogicalDate("2026-03-02")!.ordinal)]])
    }

    /// The cards by their wrong answers in a window are kept between two `Stats` (they took 40%
    /// of one at 100,000 cards) and counted again once an entry comes: a wrong answer, an undo,
    /// a rename, another window.
    @Test func cardsByFailuresAreKeptUntilTheNextEntry() {
        let day = { (date: String) in Int32(LogicalDate(date)!.ordinal) }
        var tally = Self.tally([
            Self.grade("a", "2026-03-02", 10, from: .one, right: false),
            Self.complete("2026-03-02", 11),
            Self.grade("a", "2026-03-03", 10, from: .one, right: false),
            Self.grade("b", "2026-03-03", 10, from: .two, right: false),
        ])
        let window = (since: day("2026-03-01"), through: day("2026-03-04"))
        // Within a count, the cards come in no particular order.
        func counted(since: Int32? = nil) -> [Int: [String]] {
            tally.cardsByFailures(since: since ?? window.since, through: window.through).mapValues { $0.sorted() }
        }
        #expect(counted() == [2: ["a"], 1: ["b"]])
        #expect(counted(since: day("2026-03-03")) == [1: ["a", "b"]])
        #expect(counted() == [2: ["a"], 1: ["b"]])
        tally.take(Self.grade("b", "2026-03-04", 10, from: .one, right: false), dayClock: Self.clock)
        #expect(counted() == [2: ["a", "b"]])
        tally.take(Self.undo("2026-03-04", 11), dayClock: Self.clock)
        #expect(counted() == [2: ["a"], 1: ["b"]])
        tally.take(LogEntry(time: Self.at("2026-03-04", 12), event: .rename, id: "a", renamedTo: "z"), dayClock: Self.clock)
        #expect(counted() == [2: ["z"], 1: ["b"]])
        #expect(ReviewTally.cardsByFailures(tally.failures, since: window.since, through: window.through) == [2: ["z"], 1: ["b"]])
    }

    /// issue #25: an answer time near `Int.max` — sent by a client, or written into the log by
    /// hand — counts as a day (`Box.maxAnswerMs`), so the day's sum cannot overflow; a negative
    /// one counts as 0.
    @Test func anAnswerTimeNearIntMaxCountsAsADay() {
        let tally = Self.tally([
            Self.grade("a", "2026-03-02", 10, from: .one, right: true, ms: .max),
            Self.grade("b", "2026-03-02", 10, from: .one, right: true, ms: .max),
            Self.grade("c", "2026-03-02", 11, from: .one, right: true, ms: .min),
        ])
        #expect(tally.days[LogicalDate("2026-03-02")!]!.answerMs == 2 * Box.maxAnswerMs)
    }

    @Test func aCompletionOrASkippedDayStartsANewTestForFirstAnswers() {
        let tally = Self.tally([
            Self.grade("a", "2026-03-02", 10, from: .one, right: false),
            Self.grade("a", "2026-03-02", 10, from: .one, right: true),
            Self.complete("2026-03-02", 10),
            Self.grade("a", "2026-03-03", 10, from: .two, right: true),
            LogEntry(time: Self.at("2026-03-05", 10), event: .skip, date: LogicalDate("2026-03-04")),
            Self.grade("a", "2026-03-05", 10, from: .three, right: false),
        ])
        #expect(tally.days[LogicalDate("2026-03-02")!]!.firstAnswers[0] == 1)
        #expect(tally.days[LogicalDate("2026-03-02")!]!.firstRight[0] == 0)
        #expect(tally.days[LogicalDate("2026-03-03")!]!.firstRight[1] == 1)
        #expect(tally.days[LogicalDate("2026-03-05")!]!.firstAnswers[2] == 1)
    }

    /// A test carried over a missed day (R5) is one test: a card's answer on the second day is
    /// not a first answer if it was answered on the first.
    @Test func aTestCarriedOverAMissedDayIsOneTest() {
        let tally = Self.tally([
            Self.grade("a", "2026-03-02", 10, from: .one, right: false),
            Self.grade("a", "2026-03-04", 10, from: .one, right: true),
        ])
        #expect(tally.days[LogicalDate("2026-03-04")!]!.reviews == 1)
        #expect(tally.days[LogicalDate("2026-03-04")!]!.firstAnswers == [0, 0, 0, 0, 0, 0, 0])
    }

    /// R15: an undone grade leaves every total; the card's next answer is its first.
    @Test func anUndoneGradeCountsNowhere() {
        let tally = Self.tally([
            Self.grade("a", "2026-03-02", 10, from: .three, right: false, ms: 700),
            Self.undo("2026-03-02", 10),
            Self.grade("a", "2026-03-02", 11, from: .three, right: true, ms: 300),
        ])
        let day = tally.days[LogicalDate("2026-03-02")!]!
        #expect(day.reviews == 1 && day.wrong == 0 && day.answerMs == 300)
        #expect(day.firstAnswers[2] == 1 && day.firstRight[2] == 1)
        #expect(tally.failures.isEmpty)
    }

    /// R15: the undo of a completing grade opens the same test again: the card's answer after it
    /// is still its first in that test, and the test's other cards are not shown anew.
    @Test func undoingTheCompletingGradeReopensTheTest() {
        let tally = Self.tally([
            Self.grade("a", "2026-03-02", 10, from: .one, right: true),
            Self.grade("b", "2026-03-02", 10, from: .one, right: true),
            Self.complete("2026-03-02", 10),
            Self.undo("2026-03-02", 11),
            Self.grade("b", "2026-03-02", 11, from: .one, right: false),
            Self.grade("a", "2026-03-02", 11, from: .two, right: true),  // a hand-written repeat, say
        ])
        let day = tally.days[LogicalDate("2026-03-02")!]!
        #expect(day.reviews == 3)
        #expect(day.firstAnswers[0] == 2 && day.firstRight[0] == 1)
        #expect(day.firstAnswers[1] == 0)
    }

    /// R12, R13: moves, adds and deletes — by hand or not — are not reviews; a grade counts at
    /// the level it was graded at.
    /// A renamed card keeps its history: its wrong answers move to the new id, and its next
    /// answer in the same test is still a repeat, not a first answer.
    @Test func aRenamedCardKeepsItsWrongAnswersAndItsPlaceInTheTest() {
        let tally = Self.tally([
            Self.grade("a", "2026-03-02", 10, from: .two, right: false),
            LogEntry(time: Self.at("2026-03-02", 11), event: .rename, id: "a", renamedTo: "b"),
            Self.grade("b", "2026-03-02", 12, from: .one, right: true),
        ])
        #expect(tally.failures["a"] == nil)
        #expect(tally.failures["b"]?.count == 1)
        let day = tally.days[LogicalDate("2026-03-02")!]!
        #expect(day.reviews == 2)
        #expect(day.firstAnswers[0] == 0)
        #expect(day.firstAnswers[1] == 1)
    }

    @Test func handMovesAreNotReviews() {
        let tally = Self.tally([
            LogEntry(time: Self.at("2026-03-02", 9), event: .add, id: "a", to: .one),
            LogEntry(time: Self.at("2026-03-02", 9), event: .move, id: "a", from: .one, to: .five, origin: "hand"),
            Self.grade("a", "2026-03-02", 10, from: .five, right: true),
            LogEntry(time: Self.at("2026-03-02", 11), event: .delete, id: "a", from: .six, origin: "hand"),
        ])
        let day = tally.days[LogicalDate("2026-03-02")!]!
        #expect(day.reviews == 1 && day.firstAnswers[4] == 1 && day.firstRight[4] == 1)
    }

    /// A clock set back writes a grade dated before the ones above it: it counts on its own day,
    /// and an undo still takes back the last grade written.
    @Test func aClockSetBackCountsEachGradeOnItsOwnDay() {
        let tally = Self.tally([
            Self.grade("a", "2026-03-05", 10, from: .one, right: true, ms: 100),
            Self.grade("b", "2026-03-02", 10, from: .one, right: false, ms: 200),
            Self.grade("c", "2026-03-02", 11, from: .one, right: false, ms: 300),
            Self.undo("2026-03-02", 11),
        ])
        #expect(tally.days[LogicalDate("2026-03-05")!]!.reviews == 1)
        let earlier = tally.days[LogicalDate("2026-03-02")!]!
        #expect(earlier.reviews == 1 && earlier.answerMs == 200 && earlier.wrong == 1)
        #expect(Array(tally.failures.keys) == ["b"])
    }

    @Test func anUndoWithNothingToUndoChangesNothing() {
        let tally = Self.tally([Self.undo("2026-03-02", 10)])
        #expect(tally.days.isEmpty && tally.failures.isEmpty)
    }

    // MARK: Several devices (docs/sync.md)

    @Test func dayTalliesAddUp() {
        var a = DayTally()
        a.reviews = 3; a.wrong = 1; a.answerMs = 4000; a.firstAnswers[0] = 2; a.firstRight[0] = 1
        var b = DayTally()
        b.reviews = 2; b.answerMs = 500; b.firstAnswers[0] = 1; b.firstAnswers[6] = 1; b.firstRight[6] = 1
        let sum = a + b
        #expect(sum.reviews == 5 && sum.wrong == 1 && sum.answerMs == 4500)
        #expect(sum.firstAnswers == [3, 0, 0, 0, 0, 0, 1] && sum.firstRight == [1, 0, 0, 0, 0, 0, 1])
        #expect(a + DayTally() == a)
    }

    /// Each device's log fed to its own tally, then combined: the same days and wrong answers as
    /// one tally of both logs, when each device's tests are its own.
    @Test func combinedTalliesSumTheDaysAndMergeTheWrongAnswers() {
        let laptop = [
            Self.grade("a", "2026-03-02", 10, from: .one, right: false, ms: 1500),
            Self.grade("a", "2026-03-02", 10, from: .one, right: true, ms: 500),
            Self.grade("b", "2026-03-02", 11, from: .two, right: true),
            Self.complete("2026-03-02", 11),
            Self.grade("a", "2026-03-04", 10, from: .two, right: false),
            Self.complete("2026-03-04", 10),
        ]
        let desktop = [
            Self.grade("a", "2026-03-02", 20, from: .one, right: false, ms: 3000),
            Self.grade("c", "2026-03-03", 9, from: .three, right: true),
            Self.complete("2026-03-03", 9),
            Self.grade("a", "2026-03-05", 10, from: .one, right: false),
            Self.complete("2026-03-05", 10),
        ]
        let combined = ReviewTally.combined([Self.tally(laptop), Self.tally(desktop)])
        let both = Self.tally(laptop + desktop)
        #expect(combined.days == both.days)
        let second = combined.days[LogicalDate("2026-03-02")!]!
        #expect(second.reviews == 4 && second.wrong == 2 && second.answerMs == 6000)
        // a's first answers on the 2nd: one in each device's test.
        #expect(second.firstAnswers[0] == 2 && second.firstRight[0] == 0 && second.firstAnswers[1] == 1)
        let ordinals = ["2026-03-02", "2026-03-02", "2026-03-04", "2026-03-05"].map { Int32(LogicalDate($0)!.ordinal) }
        #expect(combined.failures == ["a": ordinals])
        // In ascending order whichever device comes first.
        #expect(ReviewTally.combined([Self.tally(desktop), Self.tally(laptop)]).failures == ["a": ordinals])
        #expect(combined.logOffset == 0)
    }

    @Test func combiningNoneOrOneTally() {
        let none = ReviewTally.combined([])
        #expect(none.days.isEmpty && none.failures.isEmpty)
        let log = [
            Self.grade("a", "2026-03-03", 10, from: .one, right: false),
            // A clock set back: a wrong answer logged after, dated before.
            Self.grade("a", "2026-03-02", 10, from: .one, right: false),
        ]
        let one = Self.tally(log)
        let combined = ReviewTally.combined([one])
        #expect(combined.days == one.days)
        #expect(combined.failures["a"] == ["2026-03-02", "2026-03-03"].map { Int32(LogicalDate($0)!.ordinal) })
    }

    /// An undo takes back its own device's last grade (R15): the tallies are fed each its own
    /// log, and a grade of another device at the same time stays.
    @Test func anUndoTakesBackItsOwnDevicesGrade() {
        let laptop = [Self.grade("a", "2026-03-02", 10, from: .one, right: false), Self.undo("2026-03-02", 12)]
        let desktop = [Self.grade("b", "2026-03-02", 11, from: .two, right: false)]
        let combined = ReviewTally.combined([Self.tally(laptop), Self.tally(desktop)])
        let day = combined.days[LogicalDate("2026-03-02")!]!
        #expect(day.reviews == 1 && day.wrong == 1 && day.firstAnswers == [0, 1, 0, 0, 0, 0, 0])
        #expect(combined.failures == ["b": [Int32(LogicalDate("2026-03-02")!.ordinal)]])
    }
}
