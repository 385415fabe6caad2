@testable import LeitnerCore

/// A browser that keeps the day's test and grades it offline, sending the grades later (R35),
/// in the model: each grade is settled with this device's changes of the card by the rules of
/// docs/sync.md ("Settling a card after a sync", "What counts"), written here from the rules
/// alone for the two devices the simulation has — this device, which changes the card in every
/// way (and whose every change of a card's level is logged, by hand or not), and the browser,
/// whose lines are all its own grades — and counts in the open test as R35 says.
extension LeitnerModel {
    /// A line of one device's log about a card, as settling ranks it.
    struct Word {
        enum Kind { case own, hand, edit }
        /// When the change was made (a `made=` time where the line has one).
        var time: Int64
        /// The browser's name sorts after this device's: of two lines at one time, its ranks newer.
        var browser: Bool
        /// The line's place in the logs: a device's later line is a later offset.
        var order: Int
        /// Where the line leaves the card; nil: deleted.
        var level: Level?
        var kind: Kind

        func isNewer(than other: Word) -> Bool {
            if time != other.time { return time > other.time }
            if browser != other.browser { return browser }
            return order > other.order
        }
    }

    /// A card's lines that stand (docs/sync.md): this device's last word and its last word of its
    /// own (not found by hand), and the browser's last grade.
    struct Words {
        var last: Word?
        var lastOwn: Word?
        var browser: Word?
    }

    /// This device logged a line about card `id` now, leaving it at `level` (nil: deleted).
    mutating func logged(_ id: String, at level: Level?, _ kind: Word.Kind) {
        lines += 1
        let word = Word(time: now, browser: false, order: lines, level: level, kind: kind)
        words[id, default: Words()].last = word
        if kind != .hand { words[id]?.lastOwn = word }
    }

    /// An `edit` of the card by a request: a line of its own that leaves it where it is.
    mutating func edit(_ id: String) {
        logged(id, at: level[id], .edit)
    }

    /// R35: a grade the browser kept, given at `time` on logical date `given`, of card `id` from
    /// level `from` in the test at `position`, taken now. Returns where the card is after it
    /// (nil: the card is gone; the grade is history all the same).
    mutating func takeKept(_ id: String, correct: Bool, time: Int64, given: LogicalDate, from: Level,
                           position: Int) -> Level? {
        let to = correct ? (from == .seven ? .finished : Level(rawValue: from.rawValue + 1)!)
            : onFail == .first ? .one : Level(rawValue: max(1, from.rawValue - 1))!
        // The browser's log stays in time order, and holds no time after now.
        let time = min(max(time, browserLastTime ?? time), now)
        browserLastTime = time
        lines += 1
        let grade = Word(time: time, browser: true, order: lines, level: to, kind: .own)
        let known = words[id] ?? Words()
        words[id, default: Words()].browser = grade
        guard let at = level[id] else { return nil }
        let standing = [known.last, known.lastOwn].compactMap { $0 } + [grade]
        // An arrival — a line found by hand that puts the card where the browser's last word
        // put it, no earlier than that — repeats the browser's change and is not ranked.
        let ranked = standing.filter { !($0.kind == .hand && $0.level == to && grade.time <= $0.time) }
        let winner = ranked.max { $1.isNewer(than: $0) }!
        // The card's only copy must be where a standing line put it, else the log that did has
        // not arrived: it waits, where it is.
        var settled = at
        if standing.contains(where: { $0.level == at }), let placed = winner.level, placed != at, winner.kind == .own {
            settled = placed
        }
        // This device's line for the grade, ranked as of the winner's time.
        lines += 1
        let line = Word(time: min(winner.time, now), browser: false, order: lines, level: settled, kind: .own)
        words[id]?.last = line
        words[id]?.lastOwn = line
        // R35: it counts in the open test when it was kept from it and the card is still asked.
        if var test = current, test.position == position, test.queue.contains(id) {
            test.grades.append(Grade(id: id, from: at, correct: correct, date: today))
            if correct {
                test.passed.insert(id)
                test.queue.remove(id)
            } else {
                test.wrong[id, default: 0] += 1
            }
            self.test = test
            if at != settled { placed(id, from: at, to: settled, byHand: false) }
            level[id] = settled
            changed(id, to: settled)
            // The grade that empties the queue completes the test on the date it was given, or
            // today when the day record holds that date already.
            if correct, test.queue.isEmpty, let date = [given, today].first(where: { date in days.last.map { $0.date < date } ?? true }) {
                days.append(Day(date: date, outcome: .completed))
            }
        } else {
            if at != settled { placed(id, from: at, to: settled, byHand: false) }
            level[id] = settled
            changed(id, to: settled)
        }
        return settled
    }
}
