import Glibc
import Testing
@testable import LeitnerCore
@testable import LeitnerSystem
import LeitnerTestSupport

/// The simulation's steps for a store opened without its local state (#40), for hand changes of
/// `new/` while no box runs (R13, R23: `LeastWaiting`, the least ids of `new/` kept from the
/// change feed, walked again at each open), and for searches after sides edited by hand (R13).
/// They draw from dice of their own, as the tags' and the order's steps do, so that the rest of
/// a run's choices are those it made before they existed.
///
/// **A copy without its local state.** At random steps — after a grade, after a day's opening,
/// after hand moves, adds and deletes, mid-day, at a day's end, while the box is stopped right
/// after a kill or a close — the store is copied without `.leitner/local.here` (a `cp -a` that
/// left it out, a backup put back), twice: with the history this device published beside its
/// log as it is then (`logged-levels`, `places`, `graded-days`: current after a close, older
/// after a kill, docs/store-format.md "Published beside the log"), and with them removed, so
/// that the whole log is read. What the docs promise, and so what is compared:
/// - What the shared files say is the running box's (docs/store-format.md: the published files
///   are "derived from the log's lines alone … so that a start that takes it and reads the lines
///   after it knows exactly what a reading of the whole log would, and logs the same hand
///   changes"): every card where it is, each in one level (R18); the review log, to which the
///   copy's open adds nothing (every change was logged, so the log leaves each card where it
///   is, R13, R16); so the counts, the leeches (R24), the calendar's past days, the week's
///   graded cards and the days' admissions (R23), and `new/`'s order (which the admissions the
///   copy then makes show).
/// - The two copies answer exactly alike, before and while grading on: which published files
///   there were changes nothing but the time taken.
/// - What lives in `local.DEVICE` is lost, and the copy is compared for it with the model told of
///   that loss (`LeitnerModel.loseLocalState`), not with the running box: the open test
///   (`local.DEVICE/test`, "each device's own", docs/sync.md) — the copy has none, and its next
///   opening shuffles the test of the day record's position anew from the cards in its levels,
///   so a test carried over from missed days (R5) and today's answers in the test are the running
///   box's alone, and R6 skips days by the cards of the copy's test; a test completed today stays
///   completed (the day record), with no count of its cards. And that the day opened (R23:
///   `local.DEVICE/day-opened` and the test file; the log's admissions of today are shared): a
///   day that opened admitting none opens again on the copy, and admits what came into `new/`
///   since. So the status's test, arrivals and next test, the calendar's days from today on and
///   the days the copy skips are compared with the running box only where the model says the
///   loss changed none of them.
/// Then both copies grade on, add, undo, against that model, as the running box does against its own.
extension BoxSimulationTests {
    /// What the running box answered when a copy was taken, with the model then.
    struct RunningAnswers {
        var status: BoxStatus
        var leeches: [Leech]
        var calendar: [CalendarDay]
        var log: [LogEntry]
        var levels: [String: Level]
        var model: LeitnerModel
    }

    /// How much of the copies' steps a run made.
    struct CopyCounts {
        var copies = 0
        /// Copies whose published places' ledger was taken (not the whole log read).
        var publishedTaken = 0
        /// Copies whose test or day's opening the loss of the local state changed.
        var testsLost = 0
        var grades = 0
        var added = 0
        var stoppedMoves = 0
        var searches = 0
    }

    /// The calendar compared: from before the box's first date to three weeks ahead.
    static func calendar(_ box: Box, _ model: LeitnerModel) throws -> [CalendarDay] {
        try box.calendar(from: "2026-01-01", to: "\(model.today.adding(days: 21))")
    }

    /// The running box's answers, and the model settled as the box is by its first request
    /// (R6's skipped days, R10), which a step of the day's start may not have made yet.
    func runningAnswers(_ f: BoxFixture, _ model: LeitnerModel) throws -> RunningAnswers {
        let status = try f.box.status()
        var settled = model
        settled.settle()
        return RunningAnswers(status: status, leeches: try f.box.leeches(), calendar: try Self.calendar(f.box, settled),
                              log: try f.box.log(since: nil, limit: nil), levels: onDisk(f.dir), model: settled)
    }

    /// Two copies of the store without its local state, one with the published files and one
    /// without, opened, compared with `running` and each other, and graded on (above).
    func checkCopies(_ f: BoxFixture, _ running: RunningAnswers, _ dice: inout Learner, _ counts: inout CopyCounts,
                     reverseOf: [String: String], search: HandSearch, when: String, agree report: (Bool, String) -> Void) throws {
        // Each message made only when it is needed: some walk the copies again.
        func agree(_ ok: Bool, _ what: @autoclosure () -> String) { if !ok { report(false, what()) } }
        let copies = [f.dir.copy(leavingOut: TestBox.local), f.dir.copy(leavingOut: TestBox.local)]
        defer { for copy in copies { copy.remove() } }
        PublishedHistoryTests.removePublished(copies[1])
        let names = ["with the published files", "without them"]
        // Both shuffle their tests alike (R11), so that they can be compared answer by answer.
        let shuffle = dice.next()
        var boxes: [Box] = []
        defer { for box in boxes { box.close() } }
        for copy in copies {
            boxes.append(try Box.open(copy, clock: f.clock, onFail: f.onFail, cycle: f.cycle, seeds: SeedSequence(seed: shuffle),
                                      places: f.places, publishEvery: f.publishEvery))
        }
        counts.copies += 1
        var lost = running.model
        lost.loseLocalState()
        lost.settle()
        let skipped = lost.days.dropFirst(running.model.days.count)
        let same = lost.summary() == running.model.summary() && lost.dayOpened == running.model.dayOpened && skipped.isEmpty
        if !same { counts.testsLost += 1 }
        /// The days the loss changes nothing of: those before any the copy skipped, without the
        /// arrivals from today on when the day's opening was lost.
        func shared(_ days: [CalendarDay]) -> [CalendarDay] {
            days.filter { day in skipped.first.map { day.date < $0.date } ?? true }.map { day in
                var day = day
                if !same, day.date >= lost.today { day.arrivals = nil }
                return day
            }
        }
        var first: (status: BoxStatus, leeches: [Leech], calendar: [CalendarDay], log: [LogEntry])?
        for (index, box) in boxes.enumerated() {
            let what = "\(when), a copy without its local state \(names[index])"
            let status = try box.status()
            if index == 0, (box.placesKept ?? 0) > 0 { counts.publishedTaken += 1 }
            let leeches = try box.leeches()
            let calendar = try Self.calendar(box, lost)
            let log = try box.log(since: nil, limit: nil)
            agree(status.test == lost.summary(), "\(what): status \(status.test), the model without the local state \(lost.summary())")
            agree(status.counts == running.status.counts, "\(what): counts \(status.counts), the running box's \(running.status.counts)")
            agree(status.today == running.status.today && status.problems == running.status.problems
                   && status.leeches == running.status.leeches,
                   "\(what): status \(status), the running box's \(running.status)")
            agree(status.arrivals?.date == lost.arrivals?.date && status.arrivals?.cards == lost.arrivals?.cards,
                  "\(what): arrivals \(String(describing: status.arrivals)), model \(String(describing: lost.arrivals))")
            agree(shared(status.week) == shared(running.status.week), "\(what): the week \(status.week), the running box's \(running.status.week)")
            if same { agree(status == running.status, "\(what): status \(status), the running box's \(running.status)") }
            agree(leeches == running.leeches, "\(what): leeches \(leeches), the running box's \(running.leeches)")
            agree(shared(calendar) == shared(running.calendar), "\(what): the calendar differs from the running box's at "
                  + "\(zip(shared(calendar), shared(running.calendar)).first { $0.0 != $0.1 }.map { "\($0.0) against \($0.1)" } ?? "its length")")
            // The running box's log, then the days the copy's test skipped (R6): nothing found by hand.
            agree(Array(log.prefix(running.log.count)) == running.log,
                  "\(what): the log differs from the running box's at \(zip(log, running.log).first { $0.0 != $0.1 }.map { "\($0.0) against \($0.1)" } ?? "its length \(log.count) < \(running.log.count)")")
            let added = log.dropFirst(running.log.count).map { entry in "\(entry.event) \(entry.id ?? "-") \(entry.date.map(String.init(describing:)) ?? "-")" }
            agree(added == skipped.map { "skip - \($0.date)" }, "\(what): the open logged \(added), the model skips \(skipped.map(\.date))")
            agree(onDisk(copies[index]) == running.levels, "\(what): on disk \(onDisk(copies[index]).filter { running.levels[$0.key] != $0.value })")
            agree(copies[index].dayLines == lost.days.map { "\($0.date) \($0.outcome)" }, "\(what): days \(copies[index].dayLines.suffix(3))")
            if let first {
                agree(status == first.status && leeches == first.leeches && calendar == first.calendar && log == first.log,
                      "\(what): answers otherwise than the copy \(names[0])")
            } else {
                first = (status, leeches, calendar, log)
            }
        }
        // The day's opening and grading on, on both copies alike, against the model told of the loss.
        let what = "\(when), the copies without local state"
        func added(_ id: String) throws {
            let cards = try boxes.map { try $0.addText("front \(id)", "back \(id)", id: id) }
            lost.settle()
            lost.addByRequest(id)
            agree(cards.allSatisfy { $0.level == lost.level[id] }, "\(what): add \(id) → \(cards.map(\.level)), model \(lost.level[id]!)")
            counts.added += 1
        }
        if dice.chance(0.3) { try added("x\(counts.added)") }
        let prepared = try boxes.map { try $0.prepare().test }
        lost.settle()
        lost.open()
        agree(prepared.allSatisfy { $0 == lost.summary() }, "\(what): prepare \(prepared), model \(lost.summary())")
        agree(Set(boxes[0].queueNow) == lost.queue && boxes[1].queueNow == boxes[0].queueNow,
              "\(what): the queues have \(Set(boxes[0].queueNow).subtracting(lost.queue).sorted()) beyond the model's, "
              + "lack \(lost.queue.subtracting(boxes[0].queueNow).sorted()); alike: \(boxes[1].queueNow == boxes[0].queueNow)")
        if dice.chance(0.2) { try added("x\(counts.added)") }
        for _ in 0..<dice.below(7) {
            guard let card = try boxes[0].next().card else { break }
            let other = try boxes[1].next().card
            lost.settle()
            guard lost.queue.contains(card.id), other?.id == card.id else {
                agree(false, "\(what): next shows \(card.id) and \(other?.id ?? "none"), the model's queue \(lost.queue.sorted().prefix(8))")
                return
            }
            agree(lost.mayOffer(card.id) { reverseOf[$0] == $1 || reverseOf[$1] == $0 }, "\(what): next shows \(card.id) right after its sibling")
            agree(card.level == lost.level[card.id], "\(what): \(card.id) in \(card.level), model \(lost.level[card.id]!)")
            let correct = dice.chance(0.8)
            let graded = try boxes.map { try $0.grade(id: card.id, correct: correct, answerMs: 700) }
            lost.grade(card.id, correct: correct)
            counts.grades += 1
            agree(graded.allSatisfy { $0.card.level == lost.level[card.id] && $0.test == lost.summary() },
                  "\(what): grade \(card.id) → \(graded.map { "\($0.card.level) \($0.test)" }), model \(lost.level[card.id]!) \(lost.summary())")
        }
        if dice.chance(0.2) {
            lost.settle()
            if let id = lost.undoableCard() {
                let undone = try boxes.map { try $0.undo() }
                lost.undo()
                agree(undone.allSatisfy { $0.card.id == id && $0.card.level == lost.level[id] && $0.test == lost.summary() },
                      "\(what): undo \(undone.map { "\($0.card.id) \($0.card.level) \($0.test)" }), model \(id) \(lost.summary())")
            } else {
                for box in boxes { expectBoxError(.nothingToUndo) { try box.undo() } }
            }
        }
        let statuses = try boxes.map { try $0.status() }
        lost.settle()
        agree(statuses.allSatisfy { $0.test == lost.summary() }, "\(what): status \(statuses.map(\.test)), model \(lost.summary())")
        agree(statuses[1] == statuses[0], "\(what): the copies' status \(statuses[1]), \(statuses[0])")
        for copy in copies {
            agree(onDisk(copy) == lost.level, "\(what): on disk \(onDisk(copy).filter { lost.level[$0.key] != $0.value })")
            agree(copy.dayLines == lost.days.map { "\($0.date) \($0.outcome)" }, "\(what): days \(copy.dayLines.suffix(3))")
        }
        agree(try boxes[1].log(since: nil, limit: nil) == boxes[0].log(since: nil, limit: nil), "\(what): the copies' logs differ")
        try checkSearch(boxes[0], search, lost, &counts, when: what, agree: report)
    }

    /// R13, R23: a card no grade of the test names moved by hand into `new/`, or out of it to
    /// a level or `suspended/`, while no box runs: the next open takes it in, the least ids of
    /// `new/` walked again there (`LeastWaiting`), and it waits or is admitted in its turn (by id,
    /// after the logged arrivals). Returns the card and where it went, for the model once the box
    /// is open again; nil when no card was free.
    func handPlaceWhileStopped(_ f: BoxFixture, _ model: LeitnerModel, _ dice: inout Learner) -> (id: String, to: Level)? {
        let graded = Set(model.test?.grades.map(\.id) ?? [])
        let free = model.level.keys.filter { !graded.contains($0) }.sorted()
        let waiting = free.filter { model.level[$0] == .new }
        let elsewhere = free.filter { model.level[$0] != .new }
        let id: String, to: Level
        if !waiting.isEmpty, elsewhere.isEmpty || dice.chance(0.4) {
            id = dice.pick(waiting)
            to = dice.pick(Level.levels + [.suspended])
        } else if !elsewhere.isEmpty {
            id = dice.pick(elsewhere)
            to = .new
        } else {
            return nil
        }
        f.dir.move("\(model.level[id]!.name)/\(id)", "\(to.name)/\(id)")
        return (id, to)
    }

    /// The card whose front a hand last edited to hold a word no other card holds, and the word
    /// before it, which a hand edited out since.
    struct HandSearch {
        var edits = 0
        var matching: (id: String, word: String)?
        var unmatched: String?
    }

    /// R13: a side edited by hand — the box running or stopped — is what the next search reads:
    /// the card edited last to hold a new word, the one before edited back without its word.
    /// A card whose front is its own file (no reverse, R28).
    /// The card is looked for on disk: while no box runs, the model learns a hand move only
    /// once the box is open again.
    func editForSearch(_ f: BoxFixture, _ model: LeitnerModel, _ dice: inout Learner, _ search: inout HandSearch) {
        func write(_ id: String, _ text: String) {
            let levels = f.dir.levelOnDisk(id)
            if levels.count == 1 { f.dir.write("\(levels[0])/\(id)/front.txt", text) }
        }
        if let (id, word) = search.matching {
            write(id, "front \(id)")
            search.unmatched = word
        }
        let ids = model.level.keys.filter { !$0.hasSuffix(".rev") }.sorted()
        guard !ids.isEmpty else { return }
        let id = dice.pick(ids)
        let word = "zq\(search.edits)w"
        search.edits += 1
        write(id, "front \(id) \(word)")
        search.matching = (id, word)
    }

    /// R13: a search of the fronts for the word a hand put in one finds that card alone, wherever
    /// it is now (none once it was deleted; its reverse shows that front as its back), and one
    /// for the word edited out finds none.
    func checkSearch(_ box: Box, _ search: HandSearch, _ model: LeitnerModel, _ counts: inout CopyCounts, when: String,
                     agree report: (Bool, String) -> Void) throws {
        func agree(_ ok: Bool, _ what: @autoclosure () -> String) { if !ok { report(false, what()) } }
        if let (id, word) = search.matching {
            let found = try box.search(SearchPattern(word, regex: false), fields: [.front], level: nil).map { "\($0.id) \($0.level)" }
            let expected = model.level[id].map { ["\(id) \($0)"] } ?? []
            agree(found == expected, "\(when): a search for \(word) finds \(found), a hand put it in \(expected)")
            counts.searches += 1
        }
        if let word = search.unmatched {
            let found = try box.search(SearchPattern(word, regex: false), fields: [.front], level: nil).map(\.id)
            agree(found.isEmpty, "\(when): a search for \(word), edited out by hand, finds \(found)")
        }
    }
}

extension LeitnerModel {
    /// The model of a store opened without its local state (`.leitner/local.DEVICE` gone, see
    /// `BoxSimulationTests+Copies.swift`): the open test is lost — the next opening makes the test
    /// of the day record's position anew — and the day's opening with it (R23), unless the log
    /// admitted a card today, which says the day opened. Everything else is the log's and the
    /// store's, and kept.
    mutating func loseLocalState() {
        test = nil
        admissionsDate = admitted[today, default: 0] > 0 ? today : nil
    }
}
