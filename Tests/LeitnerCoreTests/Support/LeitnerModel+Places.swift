@testable import LeitnerCore

/// The places of docs/rules.md in the model: R23 (new cards wait in `new/` and come into level 1
/// `NewPerDay=` a date, in the order they arrived, then those put there by hand, by id) and R24
/// (`suspended/`, and back to the level a card was suspended from).
extension LeitnerModel {
    /// R23: the day opened today (its first `Prepare`, `Next` or answer that succeeded, the test
    /// open or completed): a card added now goes straight to level 1 while the date's
    /// admissions are fewer than `NewPerDay=`. A restart changes nothing of it.
    var dayOpened: Bool { admissionsDate == today || admitted[today, default: 0] > 0 }

    /// R23: what `status` says arrives next: the date and how many, from `new/`; nil when none
    /// waits or none will come (`NewPerDay=0`). Today while the day has not opened and has room.
    var arrivals: (date: LogicalDate, cards: Int)? {
        let waiting = level.values.count { $0 == .new }
        guard waiting > 0 else { return nil }
        guard let newPerDay else { return (dayOpened ? today.next : today, waiting) }
        if !dayOpened, let left = room, left > 0 { return (today, min(left, waiting)) }
        return newPerDay > 0 ? (today.next, min(newPerDay, waiting)) : nil
    }

    /// R23: the admissions the date has room for; nil: no limit.
    var room: Int? { newPerDay.map { max(0, $0 - admitted[today, default: 0]) } }

    /// R1, R23: where a card added by a request without a level goes, counted as an admission
    /// when it goes straight to level 1 under pacing.
    mutating func addByRequest(_ id: String) {
        var to = Level.one
        if let room {
            if room > 0 && dayOpened {
                admitted[today, default: 0] += 1
            } else {
                to = .new
            }
        }
        add(id, at: to, byHand: false)
    }

    /// R23, R28: a card added with its reverse: the two are placed together, straight into
    /// level 1 (two admissions) only when the date's room takes both, else both wait in `new/`,
    /// the card before its reverse.
    mutating func addPairByRequest(_ id: String, reverse: String) {
        var to = Level.one
        if let room {
            if room >= 2 && dayOpened {
                admitted[today, default: 0] += 2
            } else {
                to = .new
            }
        }
        add(id, at: to, byHand: false)
        add(reverse, at: to, byHand: false)
    }

    /// R23: once a date, when the day opens (its test open or completed already), up to
    /// `NewPerDay=` cards from `new/` into level 1.
    mutating func admit() {
        guard admissionsDate != today else { return }
        admissionsDate = today
        let waiting = arrivalOrder + handNew.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for id in waiting.prefix(room ?? waiting.count) {
            admitted[today, default: 0] += 1
            handMove(id, to: .one, byHand: false)
        }
    }

    /// R24: `suspend ID`; a card suspended already stays as it is.
    mutating func suspend(_ id: String) {
        guard level[id] != .suspended else { return }
        handMove(id, to: .suspended, byHand: false)
    }

    /// R24: `unsuspend ID`: back to the level the card was suspended from, else level 1.
    mutating func unsuspend(_ id: String) {
        handMove(id, to: suspendedFrom[id] ?? .one, byHand: false)
    }

    /// What a card's move (or add, `from` nil; or delete, `to` nil) says about the places:
    /// where it stands in `new/`'s order, and where it was suspended from (R23, R24: the last
    /// move into `suspended/` says, from a level; from `new/` or by no move, level 1).
    mutating func placed(_ id: String, from: Level?, to: Level?, byHand: Bool) {
        arrivalOrder.removeAll { $0 == id }
        handNew.remove(id)
        if to == .new {
            if byHand { handNew.insert(id) } else { arrivalOrder.append(id) }
        }
        if to == .suspended {
            if let from, !from.isPlace { suspendedFrom[id] = from } else if from != .suspended { suspendedFrom[id] = nil }
        } else {
            suspendedFrom[id] = nil
        }
    }
}
