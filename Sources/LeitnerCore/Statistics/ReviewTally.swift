/// Running totals of the review log (R16) for `Stats`: per logical day, the grades, answer times
/// and first answers per level; per card, the days of its wrong answers. It takes the log's
/// entries one by one, in the log's order, so that the box reads the log once and from then on
/// only the lines appended since (`Box.statistics`), never the whole log per request.
///
/// The log is history (docs/store-format.md): a grade counts on the logical date of its own
/// time, so a grade written under a clock set back counts on that earlier day. An undo takes back
/// the last grade not undone of the current test (R15), as the test's own replay does: that grade
/// leaves every total, and a first answer it was makes the card's next answer its first.
public struct ReviewTally: Sendable {
    /// One grade of the current test not undone, as an undo needs it.
    private struct Grade {
        var id: String
        var date: LogicalDate
        /// Index of the level it was graded at (0 is level 1); nil for a level out of rotation.
        var level: Int?
        var first: Bool
        var correct: Bool
        var answerMs: Int
    }

    /// The log offset read up to: the end of the last whole line taken in.
    public internal(set) var logOffset = 0
    /// Each logical day with a grade not undone.
    public private(set) var days: [LogicalDate: DayTally] = [:]
    /// Card → the ordinals of the logical days of its wrong answers not undone, in log order.
    public private(set) var failures: [String: [Int32]] = [:]
    /// Card → the ordinals of the logical days of its wrong practice answers (R27), in log
    /// order: apart from `failures`, which a leech counts, and read with it by `practice
    /// --wrong-days`.
    public private(set) var practiceFailures: [String: [Int32]] = [:]
    /// Cards graded in the current test → their grades not undone: a card not in it is shown
    /// for the first time in this test.
    private var testCards: [String: Int] = [:]
    private var testGrades: [Grade] = []
    /// Set by a completion or a skipped day: the next grade opens a new test. An undo of the
    /// completing grade opens the same test again (R15).
    private var testClosed = false
    /// One day's bounds date every grade in it: `localtime_r` once a day, not once a line.
    private var dayBounds: (start: Int64, end: Int64, date: LogicalDate)?
    /// `cardsByFailures` of the last window asked, until the next entry is taken in.
    private var keptByFailures: (since: Int32, through: Int32, cards: [Int: [String]])?

    public init() {}

    /// True when no entry has counted: no day, no wrong answer.
    public var isEmpty: Bool { days.isEmpty && failures.isEmpty && practiceFailures.isEmpty }

    /// The cards with wrong answers not undone on the days `since` through `through` (ordinals),
    /// by how many: what the hardest cards of `Stats` are chosen from. Kept for the last window
    /// asked until the next entry is taken in: counting every card's wrong answers was 40% of a
    /// `Stats` at 100,000 cards, on every view of the statistics (docs/performance.md).
    public mutating func cardsByFailures(since: Int32, through: Int32) -> [Int: [String]] {
        if let kept = keptByFailures, kept.since == since, kept.through == through { return kept.cards }
        let cards = ReviewTally.cardsByFailures(failures, since: since, through: through)
        keptByFailures = (since, through, cards)
        return cards
    }

    /// `cardsByFailures(since:through:)` of `failures`, counted now.
    public static func cardsByFailures(_ failures: [String: [Int32]], since: Int32, through: Int32) -> [Int: [String]] {
        var cards: [Int: [String]] = [:]
        for (id, dates) in failures {
            var count = 0
            for date in dates where date >= since && date <= through { count += 1 }
            if count > 0 { cards[count, default: []].append(id) }
        }
        return cards
    }

    /// Takes in the next entry of the log.
    /// - Parameters: `dayClock`: dates each grade by its time.
    public mutating func take(_ entry: LogEntry, dayClock: DayClock) {
        keptByFailures = nil
        switch entry.event {
        case .grade:
            guard let id = entry.id, let correct = entry.correct else { return }
            if testClosed {
                testCards = [:]
                testGrades = []
                testClosed = false
            }
            let date = self.date(of: entry.time, dayClock: dayClock)
            let level = entry.from.flatMap { $0.inRotation ? $0.rawValue - 1 : nil }
            let grade = Grade(id: id, date: date, level: level, first: testCards[id] == nil, correct: correct,
                              answerMs: min(max(0, entry.answerMs ?? 0), Box.maxAnswerMs))
            testCards[id, default: 0] += 1
            testGrades.append(grade)
            count(grade, by: 1)
        case .undo:
            guard let grade = testGrades.popLast() else { return }
            testClosed = false
            if let count = testCards[grade.id] { testCards[grade.id] = count > 1 ? count - 1 : nil }
            count(grade, by: -1)
        case .complete, .skip:
            testClosed = true
        case .rename:
            // The card keeps its history under its new id: its wrong answers stay its own, and
            // its grades in the current test still make its next answer a repeat.
            guard let old = entry.id, let new = entry.renamedTo, old != new else { return }
            if let dates = failures.removeValue(forKey: old) { failures[new, default: []] += dates }
            if let dates = practiceFailures.removeValue(forKey: old) { practiceFailures[new, default: []] += dates }
            if let count = testCards.removeValue(forKey: old) { testCards[new, default: 0] += count }
            for index in testGrades.indices where testGrades[index].id == old { testGrades[index].id = new }
        case .practice:
            // Counted apart from the test (R27): no first answer, no failure of a leech, and no
            // undo takes it back.
            guard let id = entry.id, let correct = entry.correct else { return }
            let date = self.date(of: entry.time, dayClock: dayClock)
            var day = days[date] ?? DayTally()
            day.practiced += 1
            day.practiceMs += min(max(0, entry.answerMs ?? 0), Box.maxAnswerMs)
            if !correct {
                day.practiceWrong += 1
                practiceFailures[id, default: []].append(Int32(truncatingIfNeeded: date.ordinal))
            }
            days[date] = day
        case .add, .move, .delete, .edit:
            return
        }
    }

    /// Adds a grade to the totals (`by` 1), or takes it out of them (-1).
    private mutating func count(_ grade: Grade, by sign: Int) {
        var day = days[grade.date] ?? DayTally()
        day.reviews += sign
        day.answerMs += sign * grade.answerMs
        if !grade.correct { day.wrong += sign }
        if grade.first, let level = grade.level {
            day.firstAnswers[level] += sign
            if grade.correct { day.firstRight[level] += sign }
        }
        days[grade.date] = day.reviews == 0 && day.practiced == 0 && day.firstAnswers.allSatisfy({ $0 == 0 }) ? nil : day
        guard !grade.correct else { return }
        if sign > 0 {
            failures[grade.id, default: []].append(Int32(truncatingIfNeeded: grade.date.ordinal))
        } else if var dates = failures[grade.id] {
            dates.removeLast()
            failures[grade.id] = dates.isEmpty ? nil : dates
        }
    }

    /// The totals of a box kept by several devices (docs/sync.md), from each device's tally: each
    /// is fed its own device's log, since an undo takes back a grade of that device's test. The
    /// days are summed; each card's wrong-answer days are those of every device, in ascending
    /// order. That is what `BoxStatistics(tally:input:)` reads: `days` (work, heatmap, retention
    /// per level and week — a first answer is first in its own device's test) and `failures`
    /// (leeches, counted in a window of dates).
    ///
    /// The result is for computing figures, not to be fed further: it has no current test (an
    /// undo taken in would take back nothing) and no log offset. A card renamed on one device is
    /// not renamed in another device's tally: its wrong answers there stay under its old id.
    public static func combined(_ tallies: [ReviewTally]) -> ReviewTally {
        var combined = ReviewTally()
        for tally in tallies {
            for (date, day) in tally.days { combined.days[date, default: DayTally()] += day }
            for (id, dates) in tally.failures { combined.failures[id, default: []] += dates }
            for (id, dates) in tally.practiceFailures { combined.practiceFailures[id, default: []] += dates }
        }
        // A device's own list is in log order, which a clock set back or a rename leaves out of
        // date order; sorted, each card's days read the same whichever device holds them.
        for index in combined.failures.values.indices { combined.failures.values[index].sort() }
        return combined
    }

    private mutating func date(of time: Int64, dayClock: DayClock) -> LogicalDate {
        if let dayBounds, time >= dayBounds.start, time < dayBounds.end { return dayBounds.date }
        let date = dayClock.logicalDate(at: time)
        dayBounds = (dayClock.start(of: date), dayClock.start(of: date.next), date)
        return date
    }
}
