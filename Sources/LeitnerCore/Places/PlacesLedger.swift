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
            if let value = enteredNew.removeValue(forKey: id) { enteredNew[newID] = value }
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
            enteredNew[id] = origin == .hand ? PlacesLedger.byHand : sequence
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

    /// The order in which the cards of `new/` are admitted (R23): by arrival, then those put
    /// there by hand or never logged, by id. `ids` is every card now in `new/`; only the first
    /// `limit` are wanted, so the whole of a large `new/` is never sorted by id.
    func admissionOrder(of ids: [String], limit: Int) -> [String] {
        guard limit > 0 else { return [] }
        var logged: [(sequence: Int, id: String)] = []
        var unlogged: [String] = []
        for id in ids {
            if let sequence = enteredNew[id], sequence != PlacesLedger.byHand {
                logged.append((sequence, id))
            } else {
                unlogged.append(id)
            }
        }
        var order = PlacesLedger.least(limit, of: logged) { $0.sequence < $1.sequence }.map(\.id)
        if order.count < limit {
            order += PlacesLedger.least(limit - order.count, of: unlogged) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
        return order
    }

    /// The `limit` least of `items` by `less`, in order. A day's admissions are a few of a
    /// `new/` that may hold 100,000 cards: those few are kept in a small sorted array as the
    /// items go by, rather than sorting them all (a full sort of 100,000 ids was 60–80 ms of each
    /// paced Prepare, leitner-bench prepare-new). A limit near the count sorts them all.
    static func least<T>(_ limit: Int, of items: [T], by less: (T, T) -> Bool) -> [T] {
        guard limit > 0 else { return [] }
        if limit > 64 || limit * 8 >= items.count {
            return Array(items.sorted(by: less).prefix(limit))
        }
        var kept: [T] = []
        kept.reserveCapacity(limit + 1)
        for item in items {
            if kept.count == limit, let last = kept.last, !less(item, last) { continue }
            // Binary search for the place: the first kept item `item` is less than.
            var low = 0, high = kept.count
            while low < high {
                let middle = (low + high) / 2
                if less(item, kept[middle]) { high = middle } else { low = middle + 1 }
            }
            kept.insert(item, at: low)
            if kept.count > limit { kept.removeLast() }
        }
        return kept
    }
}
