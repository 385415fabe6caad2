@testable import LeitnerCore

/// docs/rules.md as a plain value, written from the rules alone and sharing no code with the box's
/// schedule or test: the levels of the cards (R1, R9, R12), the day record (R4–R7, R10), the
/// open test's queue as a set with its passed and failed cards (R8), undo (R15), and the places
/// `new/` and `suspended/` (R23, R24: `LeitnerModel+Places.swift`). The
/// simulation drives it beside a real box and compares. The queue's order is the box's own
/// (a seeded shuffle, R11); the model checks membership, that a card offered is no sibling of
/// the card graded last while the queue holds one that is none (R11, "Siblings apart"), and the
/// simulation checks the order across restarts.
struct LeitnerModel {
    enum Outcome: String { case completed, skipped }

    struct Day {
        var date: LogicalDate
        var outcome: Outcome
    }

    struct Grade {
        var id: String
        var from: Level
        var correct: Bool
        var date: LogicalDate
    }

    struct Test {
        var position: Int
        var queue: Set<String>
        var passed: Set<String> = []
        /// Wrong grades not undone, per card.
        var wrong: [String: Int] = [:]
        var grades: [Grade] = []
    }

    var today: LogicalDate
    let onFail: OnFailPolicy
    var level: [String: Level] = [:]
    var days: [Day] = []
    /// The last test opened.
    var test: Test?
    /// R23: `NewPerDay=`; nil is `all`, pacing off.
    var newPerDay: Int?
    /// R23: the cards in `new/` put there by a request, in the order they arrived; those put
    /// there by hand, apart (they come after, by id).
    var arrivalOrder: [String] = []
    var handNew: Set<String> = []
    /// R23: the cards admitted into level 1 on each date.
    var admitted: [LogicalDate: Int] = [:]
    /// R23: the date of the last day's admissions (they are made once a date).
    var admissionsDate: LogicalDate?
    /// R24: the level each suspended card was suspended from; absent: back to level 1.
    var suspendedFrom: [String: Level] = [:]
    /// The time of what happens now (ms), for the lines this device logs: what settling ranks
    /// (docs/sync.md), when a browser's kept grades come (`LeitnerModel+Kept.swift`).
    var now: Int64 = 0
    /// Each card's lines that settling reads (`Words`), and how many lines have been logged.
    var words: [String: Words] = [:]
    var lines = 0
    /// The time of the browser's last line, which its log keeps in order (R35).
    var browserLastTime: Int64?

    init(today: LogicalDate, onFail: OnFailPolicy = .first, newPerDay: Int? = nil) {
        self.today = today
        self.onFail = onFail
        self.newPerDay = newPerDay
    }

    /// R3, from the table in docs/rules.md.
    static let table: [[Level]] = BoxTestRulesTests.specTable.map { $0.map { Level(rawValue: $0)! } }

    /// The cycle position: the number of day-record entries.
    var p: Int { days.count }

    func levels(at position: Int) -> [Level] { LeitnerModel.table[position % LeitnerModel.table.count] }

    var completedToday: Bool { days.last.map { $0.date == today && $0.outcome == .completed } ?? false }

    /// The test of the current position, when it has been opened.
    var current: Test? { test?.position == p ? test : nil }

    /// The open test's queue (empty when none is open).
    var queue: Set<String> { current?.queue ?? [] }

    /// R11, siblings apart: whether `Next` may offer `id` now — yes unless it is a sibling of the
    /// card graded last in the open test (`siblings`) while the queue holds a card that is none.
    func mayOffer(_ id: String, siblings: (String, String) -> Bool) -> Bool {
        guard let last = current?.grades.last?.id, last != id, siblings(id, last) else { return true }
        return !queue.contains { $0 != id && $0 != last && !siblings($0, last) }
    }

    /// R8: cards now in the test at `position` — its queue when open, else its levels' cards.
    func queueCount(at position: Int) -> Int {
        if let test, test.position == position { return test.queue.count }
        let due = levels(at: position)
        return level.values.filter { due.contains($0) }.count
    }

    /// What happens before every request: R10 completion of a graded test whose queue emptied,
    /// then R6 skipped days.
    mutating func settle() {
        if let test = current, !test.grades.isEmpty, test.queue.isEmpty, days.last?.date != today {
            days.append(Day(date: today, outcome: .completed))
        }
        while let last = days.last, last.date.next < today, queueCount(at: p) == 0 {
            days.append(Day(date: last.date.next, outcome: .skipped))
        }
    }

    /// R11: `Prepare` opens today's test unless it is open or completed today; R23: the day's
    /// new cards are admitted first.
    mutating func open() {
        admit()
        guard !completedToday, current == nil else { return }
        let due = levels(at: p)
        test = Test(position: p, queue: Set(level.filter { due.contains($0.value) }.keys))
    }

    /// R8: a card's level changed (nil: it left the store).
    mutating func changed(_ id: String, to new: Level?) {
        // The test completed today keeps its queue by R8's definition: an undo may reopen it (R15).
        guard var test, test.position == p || (test.position == p - 1 && completedToday) else { return }
        let failed = test.wrong[id] != nil
        // A place is in no test (R23, R24), whatever the card's answers.
        if let new, !new.isPlace, !test.passed.contains(id), levels(at: test.position).contains(new) || (failed && new != .finished) {
            test.queue.insert(id)
        } else {
            test.queue.remove(id)
        }
        self.test = test
    }

    /// R1 (a card made by hand goes where it is put; `byHand` false: added by a request, to
    /// the level R23 chose).
    mutating func add(_ id: String, at new: Level = .one, byHand: Bool = true) {
        placed(id, from: nil, to: new, byHand: byHand)
        logged(id, at: new, byHand ? .hand : .own)
        level[id] = new
        changed(id, to: new)
    }

    /// A card deleted, by request or by hand: it leaves the test (R8).
    mutating func delete(_ id: String) {
        placed(id, from: level[id], to: nil, byHand: true)
        logged(id, at: nil, .hand)
        level[id] = nil
        changed(id, to: nil)
    }

    /// R12, R13: a move by hand (`byHand` false: by a request, `move`).
    mutating func handMove(_ id: String, to new: Level, byHand: Bool = true) {
        // A move to the level the card is in changes nothing (R12): its place in new/'s order too.
        if level[id] != new {
            placed(id, from: level[id], to: new, byHand: byHand)
            logged(id, at: new, byHand ? .hand : .own)
        }
        level[id] = new
        changed(id, to: new)
    }

    /// R9: correct one up (7 → finished); wrong to 1, or one down with OnFail=previous.
    mutating func grade(_ id: String, correct: Bool) {
        guard var test = current, let from = level[id] else { preconditionFailure("grade outside a test") }
        test.grades.append(Grade(id: id, from: from, correct: correct, date: today))
        if correct {
            level[id] = from == .seven ? .finished : Level(rawValue: from.rawValue + 1)!
            test.passed.insert(id)
            test.queue.remove(id)
        } else {
            level[id] = onFail == .first ? .one : Level(rawValue: max(1, from.rawValue - 1))!
            test.wrong[id, default: 0] += 1
        }
        self.test = test
        logged(id, at: level[id], .own)
        settle()
    }

    /// R15: the card the next undo reverts, nil when there is nothing to undo.
    func undoableCard() -> String? {
        guard let test, let last = test.grades.last, last.date == today,
              test.position == p || (test.position == p - 1 && completedToday) else { return nil }
        return last.id
    }

    mutating func undo() {
        guard var test, let last = test.grades.popLast() else { return }
        if last.correct {
            test.passed.remove(last.id)
        } else if let count = test.wrong[last.id] {
            test.wrong[last.id] = count > 1 ? count - 1 : nil
        }
        level[last.id] = last.from
        logged(last.id, at: last.from, .own)
        test.queue.insert(last.id)
        if test.position == p - 1, completedToday { days.removeLast() }
        self.test = test
    }

    /// What `Status` should say.
    func summary() -> TestSummary {
        if completedToday {
            let done = test?.position == p - 1 ? test : nil
            return TestSummary(date: today, position: p - 1, levels: levels(at: p - 1), state: .completed,
                               remaining: 0, passed: done?.passed.count ?? 0, failed: done?.wrong.count ?? 0)
        }
        let remaining = queueCount(at: p)
        return TestSummary(date: today, position: p, levels: levels(at: p), state: remaining > 0 ? .open : .empty,
                           remaining: remaining, passed: current?.passed.count ?? 0, failed: current?.wrong.count ?? 0,
                           repeating: current.map { test in test.wrong.keys.filter { test.queue.contains($0) }.count } ?? 0)
    }
}
