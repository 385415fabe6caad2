/// What the review log (R16) says about the places `new/` and `suspended/` (R23, R24), kept
/// between requests and fed the log's entries in order, so that the box reads the log once and
/// from then on only the lines appended since (`Box.catchUpPlaces`). The log is the one record
/// of it all: an admission, a suspension and a wrong answer are each a logged line, so whatever
/// survived a crash or a restart is counted, and nothing else (no second file to disagree).
///
/// It reads this device's log only: another device's admissions are its own (docs/sync.md,
/// "New cards on two machines").
struct PlacesLedger {
    /// The log offset read up to: the end of the last whole line taken in.
    var logOffset = 0
    /// Counts the lines that put a card in `new/`: the order of arrival (R23).
    private var sequence = 0
    /// Card → the arrival number of the line that last put it in `new/` by a request (add,
    /// import, move); `PlacesLedger.byHand` when it came there by hand (R23: those go last, by id).
    private(set) var enteredNew: [String: Int] = [:]
    /// The logged arrivals in `new/` (`enteredNew`'s numbers other than `byHand`), by arrival
    /// number: the admission order reads them from the front and stops at the day's few, rather
    /// than looking up every card of `new/` (docs/performance.md, "Admissions"). An arrival is
    /// spent once `enteredNew` no longer gives the card its number (it left `new/`, or arrived
    /// again later under a new number); spent ones at the front are dropped as it passes.
    private var arrivals: [(sequence: Int, id: String)] = []
    /// Where the arrivals not yet known spent begin.
    private var arrivalsStart = 0
    /// Card → the level it was last suspended from (R24: unsuspend returns it there).
    private(set) var suspendedFrom: [String: Level] = [:]
    /// Logical date → the cards admitted into level 1 that date (R23: at most `NewPerDay=`).
    private(set) var admissions: [LogicalDate: Int] = [:]
    /// Card → its wrong answers not undone since it last entered `1`–`7` from `new/` or
    /// `suspended/`, or was added (R24's leech count). Cards with none are absent.
    private(set) var wrongSince: [String: Int] = [:]

    /// The arrival number of a card put in `new/` by hand: after every logged arrival.
    static let byHand = Int.max

    /// Drops what was read past `offset` of a log replaced under the box: it is read again.
    mutating func forget(past offset: Int) {
        if logOffset > offset { self = PlacesLedger() }
    }

    /// Takes in the next entry of the log. `dayClock` dates admissions by their time.
    mutating func take(_ entry: LogEntry, dayClock: DayClock) {
        guard let id = entry.id else { return }
        switch entry.event {
        case .add, .move:
            place(id, from: entry.from, to: entry.to, origin: entry.origin)
            if entry.origin == .admit, entry.to == .one {
                admissions[dayClock.logicalDate(at: entry.time), default: 0] += 1
            }
        case .grade:
            if entry.correct == false { wrongSince[id, default: 0] += 1 }
            // Only a leech's suspension (R24) takes a graded card into a place.
            if entry.to == .suspended, let from = entry.from { suspendedFrom[id] = from }
        case .undo:
            // An undo takes back a grade: its wrong answer, and a suspension it made, with it.
            if entry.correct == false, let count = wrongSince[id] { wrongSince[id] = count > 1 ? count - 1 : nil }
            if entry.from == .suspended { suspendedFrom[id] = nil }
        case .delete:
            enteredNew[id] = nil
            suspendedFrom[id] = nil
            wrongSince[id] = nil
        case .rename:
            guard let newID = entry.renamedTo, newID != id else { return }
            if let value = enteredNew.removeValue(forKey: id) {
                enteredNew[newID] = value
                if value != PlacesLedger.byHand { arrive(newID, sequence: value) }
            }
            if let value = suspendedFrom.removeValue(forKey: id) { suspendedFrom[newID] = value }
            if let value = wrongSince.removeValue(forKey: id) { wrongSince[newID] = value }
        case .skip, .complete, .edit, .practice:
            // A practice answer moves nothing and is no grade (R27): it makes no leech.
            return
        }
    }

    /// A card added or moved: where it arrived in `new/`, where it was suspended from, and
    /// whether its leech count starts again.
    private mutating func place(_ id: String, from: Level?, to: Level?, origin: LogOrigin?) {
        if to == .new {
            // A card put back in `new/` waits behind those already there.
            if origin == .hand {
                enteredNew[id] = PlacesLedger.byHand
            } else {
                enteredNew[id] = sequence
                arrive(id, sequence: sequence)
            }
            sequence += 1
        } else {
            enteredNew[id] = nil
        }
        if to == .suspended {
            if let from, !from.isPlace { suspendedFrom[id] = from } else if from != .suspended { suspendedFrom[id] = nil }
        } else {
            suspendedFrom[id] = nil
        }
        // R24: the count is of the wrong answers since the card (re-)entered the schedule.
        if let to, to.inRotation, from == nil || from?.isPlace == true { wrongSince[id] = nil }
    }

    /// The cards admitted on `date`.
    func admitted(on date: LogicalDate) -> Int { admissions[date] ?? 0 }

    /// Notes that `id` arrived in `new/` with the arrival number `sequence`. Numbers are given in
    /// the order the log's lines are read, so this appends, but for a renamed card, which keeps
    /// its number: it goes where that number belongs.
    private mutating func arrive(_ id: String, sequence: Int) {
        var low = arrivalsStart, high = arrivals.count
        while low < high {
            let middle = (low + high) / 2
            if arrivals[middle].sequence < sequence { low = middle + 1 } else { high = middle }
        }
        // A card renamed back to an id it had keeps the arrival it had under it.
        var same = low
        while same < arrivals.count, arrivals[same].sequence == sequence {
            if arrivals[same].id == id { return }
            same += 1
        }
        arrivals.insert((sequence, id), at: low)
    }

    /// The order in which the cards of `new/` are admitted (R23): by arrival, then those put
    /// there by hand or never logged, by id; the first `limit` of it. `index` is the store's:
    /// the cards in `new/` are its entries at that level. Only the day's few are made strings:
    /// the logged arrivals are read from the front until `limit` of them are in `new/`, and the
    /// rest, when those are too few, are the least ids of `new/` compared where they lie in the
    /// index (`CardIndex.leastEntries`).
    mutating func admissionOrder(in index: CardIndex, limit: Int) -> [String] {
        guard limit > 0 else { return [] }
        var order: [String] = []
        var position = arrivalsStart
        while position < arrivals.count, order.count < limit {
            let (number, id) = arrivals[position]
            if enteredNew[id] != number {
                // Spent for good: dropped when at the front.
                if position == arrivalsStart { arrivalsStart += 1 }
            } else if index[id] == .new {
                order.append(id)
            }
            position += 1
        }
        if arrivalsStart > 1024, arrivalsStart * 2 > arrivals.count {
            arrivals.removeFirst(arrivalsStart)
            arrivalsStart = 0
        }
        guard order.count < limit else { return order }
        // Every logged card in `new/` is in `order` now, fewer than `limit` of them: of the
        // `limit` least ids in `new/` at most that many are logged, so the first of the others
        // are among them.
        for entry in index.leastEntries(limit, at: .new) where order.count < limit {
            let id = index.id(ofEntry: entry)
            if let number = enteredNew[id], number != PlacesLedger.byHand { continue }
            order.append(id)
        }
        return order
    }
}
