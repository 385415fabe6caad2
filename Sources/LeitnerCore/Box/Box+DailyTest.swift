import LeitnerSystem

/// The daily test's requests: `Prepare`, `Next`, `Grade`, `Undo` (R6–R11, R15).
extension Box {
    /// The longest answer time a grade records, in ms: a day. A longer one, or a line of the
    /// log written by hand with one, counts as a day, so that the statistics' sums of answer
    /// times cannot overflow (docs/protocol.md, "Numbers from clients").
    public static let maxAnswerMs = 86_400_000

    /// Applies R6, opens today's test (R11) and returns it (`Prepare`); moves no card.
    /// `isNewlyReady` is true the first time a test with cards is prepared: the daemon then runs
    /// the `TestReady=` hook, once per test.
    public func prepare() throws(BoxError) -> (test: TestSummary, isNewlyReady: Bool) {
        let moment = try begin()
        try openTest(moment)
        let summary = summary(moment)
        guard summary.state == .open, daily.readyPosition != summary.position else { return (summary, false) }
        try daily.markReady(summary.position)
        return (summary, true)
    }

    /// The card at the head of the queue, nil when the test has none or is completed (`Next`).
    /// A card found damaged on the way is reported and left out of the test (R21).
    public func next() throws(BoxError) -> (card: Card?, test: TestSummary) {
        let moment = try begin()
        // R23: the day opens, also when its test was completed before (by a move, say).
        try openTest(moment)
        if completedToday(moment) { return (nil, summary(moment)) }
        while let id = daily.head() {
            do {
                let card = apart(try store.card(id, withText: true))
                lastShown = card
                return (card, summary(moment))
            } catch {
                // In transit, or a part of it delivered: it keeps its place, and the next card
                // that can be shown is offered meanwhile (docs/sync.md, "A store a sync tool is
                // changing"); none when every card left is in transit.
                if isInTransit(id) {
                    for other in daily.test?.queue ?? [] where other != id && sync.inTransit[other] == nil {
                        guard let card = try? store.card(other, withText: true) else { continue }
                        lastShown = card
                        return (card, summary(moment))
                    }
                    return (nil, summary(moment))
                }
                // Damaged (now recorded as such) or gone: it leaves the queue; try the next one.
                daily.levelChanged(id, to: nil)
            }
        }
        // R10: a graded test whose last cards were just found damaged is completed.
        if daily.isDone { try complete(moment) }
        return (nil, summary(moment))
    }

    /// Grades a card of the queue (R9): correct moves it up one level and out of the queue; wrong
    /// moves it to level 1 (or one down with `OnFail=previous`) and to the end of the queue. The
    /// grade that empties the queue completes the test (R10). One `fdatasync` makes it durable.
    /// `answerMs` below 0 is recorded as 0, above `Box.maxAnswerMs` as `Box.maxAnswerMs` (R16).
    /// - Throws: `testComplete`, `notInTest`, `noSuchCard`, `invalidCardId`, `storeFailure`.
    public func grade(id: String, correct: Bool, answerMs: Int?) throws(BoxError) -> (card: Card, test: TestSummary) {
        try CardID.validate(id)
        let moment = try awaitTransit(try begin()) { hasArrived(id) }
        if completedToday(moment) { throw .testComplete }
        // R16: an answer that fails changes nothing, not even as the first call of its date: it
        // fails before the day opens (R23) and its test with it.
        guard store.level(of: id) != nil else { throw .noSuchCard(id: id) }
        guard try inTestOnceOpened(id, moment) else { throw .notInTest(id: id) }
        try openTest(moment)
        // `test` is used in place throughout: a copy held across its mutation would copy the queue.
        guard daily.test != nil, let from = store.level(of: id) else { throw .noSuchCard(id: id) }
        guard daily.contains(id), !store.isDamaged(id) else { throw .notInTest(id: id) }
        // R21: a card `Next` did not just show is read first, so a damaged one is never moved;
        // the reply is made from that reading.
        let shown: Card
        if let last = lastShown, last.id == id {
            shown = last
        } else {
            do { shown = try store.card(id, withText: true) } catch {
                daily.levelChanged(id, to: nil)
                if daily.isDone { try complete(moment) }
                throw .notInTest(id: id)
            }
        }
        lastShown = nil
        lastGraded = (id, shown.reverseOf, shown.clozeOf?.note)
        // R24: with `SuspendLeeches=yes`, the wrong answer that makes a leech suspends it: the
        // grade's own move goes to `suspended/` (one logged move, undone by `Undo` as any grade).
        var suspends = false
        if !correct { suspends = try wrongAnswerMakesLeech(id) }
        let to = correct ? from.promoted : suspends ? .suspended : from.demoted(options.onFail)
        var journal = [LogEntry(time: moment.now, event: .grade, id: id, from: from, to: to,
                                correct: correct, answerMs: answerMs.map { min(max(0, $0), Box.maxAnswerMs) },
                                origin: suspends ? .leech : nil)]
        // R10: a correct answer to the last card in the queue completes the test; so does the
        // wrong one that suspends it.
        let completes = (correct || suspends) && daily.remaining == 1
        if completes { journal.append(LogEntry(time: moment.now, event: .complete, date: moment.today)) }
        if from == to {
            try store.appendToLog(journal, durable: true)
        } else {
            try moveServedCard(id, from: from, to: to, journal: journal)
        }
        // Only now that the journal holds it: mutate in place (a copy would cost O(queue)).
        daily.grade(DailyTest.Grade(id: id, from: from, to: to, correct: correct, time: moment.now))
        if completes {
            daily.complete(on: moment.today)
            try recordDay(DayRecord.Entry(date: moment.today, outcome: .completed))
        }
        return (store.relocated(shown, to: to), summary(moment))
    }

    /// Whether `id` is in the queue once the day has opened (R23) and the test with it (R11):
    /// in the open test's queue, or in one of the levels of the test that would open, or in
    /// `new/` among the cards the opening admits into level 1 when level 1 joins that test (R8).
    /// Asked before anything is opened, so that an answer that would fail changes nothing.
    private func inTestOnceOpened(_ id: String, _ moment: Moment) throws(BoxError) -> Bool {
        guard let level = store.level(of: id), !store.isDamaged(id) else { return false }
        var opening = false
        if level == .new { opening = try admissionPlan(moment).contains(id) }
        if let test = daily.test(at: days.position) {
            return test.contains(id) || (opening && test.belongs(id, at: .one))
        }
        return options.cycle.levels(at: days.position).contains(opening ? .one : level)
    }

    /// Reverts the last grade made today (R15): the card returns to its level before that grade and
    /// to the front of the queue, its mark is withdrawn, and so is a completion.
    /// - Throws: `nothingToUndo` when no grade of today's test is left to undo.
    public func undo() throws(BoxError) -> (card: Card, test: TestSummary) {
        let moment = try begin()
        guard let position = daily.test?.position, let last = daily.test?.grades.last,
              options.dayClock.logicalDate(at: last.time) == moment.today,
              position == days.position || (position == days.position - 1 && completedToday(moment))
        else { throw .nothingToUndo }
        guard let now = store.level(of: last.id) else { throw .noSuchCard(id: last.id) }
        // Read first: a card damaged since is refused before anything is written (R21).
        let card = try store.card(last.id, withText: true)
        let wasCompleted = daily.test?.completed != nil
        let journal = [LogEntry(time: moment.now, event: .undo, id: last.id, from: now, to: last.from,
                                correct: last.correct)]
        if now == last.from {
            try store.appendToLog(journal, durable: true)
        } else {
            try moveServedCard(last.id, from: now, to: last.from, journal: journal)
        }
        if lastShown?.id == last.id { lastShown = nil }
        daily.undo()
        if wasCompleted, completedToday(moment) { try withdrawCompletion(of: moment.today) }
        return (store.relocated(card, to: last.from), summary(moment))
    }

    /// Today, today's test, the cards per level, the problems known, whether the clock reads
    /// earlier than the last change, and the next test with cards (`Status`). Never opens the test.
    public func status() throws(BoxError) -> BoxStatus {
        let moment = try begin()
        // Cards with a sync conflict may have been resolved by hand since: look at them again
        // (the damaged ones, begin() looked at already).
        store.lookAgainAtConflictedCards()
        // A clock set back leaves the day record and the log ahead of "today": say so, rather
        // than show a stale day without a word.
        let latest = store.log.latestTime
        let behind = latest.flatMap { moment.now < $0 - BoxStatus.clockTolerance ? $0 : nil }
        let test = summary(moment)
        // The day's arrivals, once: for the status's own, the next test's and the week's.
        let forecast = try arrivalForecast(moment)
        let monday = moment.today.adding(days: -moment.today.weekday)
        return BoxStatus(today: moment.today, test: test, counts: store.counts(),
                         problems: store.damagedCards.count + store.strayProblems.count + store.looseFileProblems().count
                            + store.rootProblems().count
                            + store.syncConflictCount + store.sharedStateProblems().count
                            + store.unusableLevels.count,
                         clockBehind: behind, arrivals: forecast.map { ($0.first, $0.firstCards) }, leeches: try leechCount(),
                         next: nextTest(moment, test, forecast: forecast),
                         week: try calendarDays(from: monday, to: monday.adding(days: 6), moment, test, arrivals: forecast))
    }
}
