import Glibc

/// What the review log (R16) says about the places `new/` and `suspended/` (R23, R24), kept
/// between requests and fed the log's entries in order, so that the box reads the log once and
/// from then on only the lines appended since (`Box.catchUpPlaces`). The log is the one record
/// of it all: an admission, a suspension and a wrong answer are each a logged line, so whatever
/// survived a crash or a restart is counted, and nothing else: the file that keeps the ledger
/// across restarts (`fileName`) is a cache of the log, checked against it and read past.
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
    /// The last answer of `leechCount`, with the threshold and the box's cards it was counted for;
    /// dropped by every change of `wrongSince`.
    private var leechesCounted: (threshold: Int, cards: Int, count: Int)?

    /// The arrival number of a card put in `new/` by hand: after every logged arrival.
    static let byHand = Int.max

    /// Drops what was read past `offset` of a log replaced under the box: it is read again.
    mutating func forget(past offset: Int) {
        if logOffset > offset { self = PlacesLedger() }
    }

    /// Takes in the next line of the log. `dayClock` dates admissions by their time. The card's
    /// id is made a string only for a line that changes what is kept by id: most of a year's
    /// lines are right answers, which change nothing here.
    mutating func take(_ line: LogLine.Fields, dayClock: DayClock) {
        guard let idBytes = line.id else { return }
        func string(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
        switch line.event {
        case .add, .move:
            place(string(idBytes), from: line.from, to: line.to, origin: line.origin)
            if line.origin == .admit, line.to == .one {
                admissions[dayClock.logicalDate(at: line.time), default: 0] += 1
            }
        case .grade:
            guard line.correct == false || line.to == .suspended else { return }
            let id = string(idBytes)
            if line.correct == false {
                wrongSince[id, default: 0] += 1
                leechesCounted = nil
            }
            // Only a leech's suspension (R24) takes a graded card into a place.
            if line.to == .suspended, let from = line.from { suspendedFrom[id] = from }
        case .undo:
            guard line.correct == false || line.from == .suspended else { return }
            let id = string(idBytes)
            // An undo takes back a grade: its wrong answer, and a suspension it made, with it.
            if line.correct == false, let count = wrongSince[id] {
                wrongSince[id] = count > 1 ? count - 1 : nil
                leechesCounted = nil
            }
            if line.from == .suspended { suspendedFrom[id] = nil }
        case .delete:
            let id = string(idBytes)
            enteredNew[id] = nil
            suspendedFrom[id] = nil
            if wrongSince.removeValue(forKey: id) != nil { leechesCounted = nil }
        case .rename:
            guard let newBytes = line.renamedTo else { return }
            let id = string(idBytes), newID = string(newBytes)
            guard newID != id else { return }
            if let value = enteredNew.removeValue(forKey: id) {
                enteredNew[newID] = value
                if value != PlacesLedger.byHand { arrive(newID, sequence: value) }
            }
            if let value = suspendedFrom.removeValue(forKey: id) { suspendedFrom[newID] = value }
            if let value = wrongSince.removeValue(forKey: id) {
                wrongSince[newID] = value
                leechesCounted = nil
            }
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
        if let to, to.inRotation, from == nil || from?.isPlace == true, wrongSince.removeValue(forKey: id) != nil {
            leechesCounted = nil
        }
    }

    /// The cards admitted on `date`.
    func admitted(on date: LogicalDate) -> Int { admissions[date] ?? 0 }

    /// How many cards have `threshold` wrong answers or more and are in the box (`holds`): R24's
    /// leeches, which `Status` counts. Counted again only when `wrongSince` changed since the
    /// last count, or the cards in the box did (`cards`, `Store.cardSetVersion`): a year's
    /// history holds tens of thousands, and counting them at every `Status` was most of it
    /// (docs/performance.md, "Another device's history after a start").
    mutating func leechCount(threshold: Int, cards: Int, holds: (String) -> Bool) -> Int {
        if let counted = leechesCounted, counted.threshold == threshold, counted.cards == cards { return counted.count }
        var count = 0
        for (id, wrong) in wrongSince where wrong >= threshold && holds(id) { count += 1 }
        leechesCounted = (threshold, cards, count)
        return count
    }

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
    /// the cards in `new/` are its entries at that level; `leastInNew(n)` gives the `n` least ids
    /// of `new/` in byte order (the box keeps them, `LeastWaiting`). Only the day's few are
    /// made strings: the logged arrivals are read from the front until `limit` of them are in
    /// `new/`, and the rest, when those are too few, are from `new/`'s least ids.
    mutating func admissionOrder(in index: CardIndex, limit: Int, leastInNew: (Int) -> [String]) -> [String] {
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
        for id in leastInNew(limit) where order.count < limit {
            if let number = enteredNew[id], number != PlacesLedger.byHand { continue }
            order.append(id)
        }
        return order
    }
}

/// The ledger kept across restarts in `.leitner/local.DEVICE/places` (docs/store-format.md), a
/// cache of what the log says, as `graded-days.DEVICE` is: without it, the first `Status` after a
/// start read this device's whole log again for the places — 350–440 ms for a year's million
/// lines, where the same start without the history takes a tenth of that (docs/performance.md,
/// "Another device's history after a start"). The log stays the one record: the file holds the
/// offset it was read up to with the check of the bytes before it (`PeerReadMarks.check`), and a
/// log that no longer holds those bytes, or a file this build cannot read, is left aside and the
/// log read from its start.
extension PlacesLedger {
    static let fileName = "places"

    /// The largest file read, local or published.
    static let fileLimit = 256 << 20

    /// Written when the log was read this far past the last save: a restart reads at most that
    /// much again, and a session of grades writes nothing.
    static let saveEvery = 1 << 20

    /// The file's text. The first line is `OFFSET CHECK CLOCK SEQUENCE NEW SUSPENDED WRONG`
    /// (tab-separated: how far the log was read, the check of the 64 bytes before that, the day
    /// clock's mark the admissions were dated by, the next arrival number, and how many lines of
    /// each kind follow); then a line a fact, its kind first: `a DATE COUNT` an admission count,
    /// `n ID NUMBER` an arrival in `new/` (`-`: by hand), `s ID LEVEL` a suspension, `w ID COUNT`
    /// a leech count. Ids hold no tab or newline (R1), as the log's own lines need.
    func encoded(check: UInt32, clock: String) -> [UInt8] {
        var text = "\(logOffset)\t\(String(check, radix: 16))\t\(clock)\t\(sequence)\t\(enteredNew.count)\t"
            + "\(suspendedFrom.count)\t\(wrongSince.count)\n"
        for date in admissions.keys.sorted() { text += "a\t\(date)\t\(admissions[date]!)\n" }
        var bytes = Array(text.utf8)
        bytes.reserveCapacity(bytes.count + 32 * (enteredNew.count + suspendedFrom.count + wrongSince.count))
        func line(_ kind: Character, _ id: String, _ value: String) {
            bytes.append(kind.asciiValue!)
            bytes.append(9)
            bytes += id.utf8
            bytes.append(9)
            bytes += value.utf8
            bytes.append(10)
        }
        for (id, number) in enteredNew { line("n", id, number == PlacesLedger.byHand ? "-" : String(number)) }
        for (id, level) in suspendedFrom { line("s", id, level.name) }
        for (id, count) in wrongSince { line("w", id, String(count)) }
        return bytes
    }

    /// The ledger a file holds, with the check of its offset; nil when it is not one this build
    /// wrote, or its admissions were dated by another day clock.
    static func decoded(_ bytes: [UInt8], clock: String) -> (ledger: PlacesLedger, check: UInt32)? {
        var ledger = PlacesLedger()
        guard let check = bytes.withUnsafeBufferPointer({ ledger.decode($0, clock: clock) }) else { return nil }
        return (ledger, check)
    }

    /// Reads the file's lines into this empty ledger; the head's check, or nil at the first line
    /// that is not as `encoded` writes it (a file cut short among them: each line ends in a newline).
    private mutating func decode(_ buffer: UnsafeBufferPointer<UInt8>, clock: String) -> UInt32? {
        guard let base = buffer.baseAddress, buffer.last == 10 else { return nil }
        var position = 0
        // The fields of the next line, as ranges of `buffer`, found with `memchr` and put in
        // `found` (one array for every line: a year's leech counts are a hundred thousand lines);
        // false at the end.
        var found: [Range<Int>] = []
        func fields() -> Bool {
            guard position < buffer.count else { return false }
            let end = UnsafeRawPointer(memchr(base + position, 10, buffer.count - position)!).assumingMemoryBound(to: UInt8.self) - base
            found.removeAll(keepingCapacity: true)
            var start = position
            while let tab = memchr(base + start, 9, end - start) {
                let at = UnsafeRawPointer(tab).assumingMemoryBound(to: UInt8.self) - base
                found.append(start..<at)
                start = at + 1
            }
            found.append(start..<end)
            position = end + 1
            return true
        }
        func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self) }
        func number(_ range: Range<Int>) -> Int? {
            guard !range.isEmpty, range.count <= 18 else { return nil }
            var value = 0
            for index in range {
                let digit = Int(buffer[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard fields() else { return nil }
        let head = found
        guard head.count == 7, let offset = number(head[0]), offset > 0,
              let check = UInt32(text(head[1]), radix: 16), text(head[2]) == clock, let next = number(head[3]),
              let newCount = number(head[4]), let suspendedCount = number(head[5]), let wrongCount = number(head[6])
        else { return nil }
        logOffset = offset
        sequence = next
        // The counts only size the tables: a damaged one may say more lines than the file can
        // hold (each is at least 6 bytes), and reserving that much aborted the open.
        let most = buffer.count / 6
        enteredNew.reserveCapacity(min(newCount, most))
        suspendedFrom.reserveCapacity(min(suspendedCount, most))
        wrongSince.reserveCapacity(min(wrongCount, most))
        while fields() {
            guard found.count == 3, found[0].count == 1, !found[1].isEmpty else { return nil }
            switch buffer[found[0].lowerBound] {
            case UInt8(ascii: "a"):
                guard let date = LogicalDate(text(found[1])), let count = number(found[2]) else { return nil }
                admissions[date] = count
            case UInt8(ascii: "n"):
                let value = found[2].count == 1 && buffer[found[2].lowerBound] == UInt8(ascii: "-") ? PlacesLedger.byHand : number(found[2])
                guard let value, value == PlacesLedger.byHand || value < sequence else { return nil }
                enteredNew[text(found[1])] = value
            case UInt8(ascii: "s"):
                guard let level = Level(name: text(found[2])) else { return nil }
                suspendedFrom[text(found[1])] = level
            case UInt8(ascii: "w"):
                guard let count = number(found[2]), count > 0 else { return nil }
                wrongSince[text(found[1])] = count
            default:
                return nil
            }
        }
        guard enteredNew.count == newCount, suspendedFrom.count == suspendedCount, wrongSince.count == wrongCount else { return nil }
        // The arrivals not spent are the logged ones of `enteredNew`, in arrival order: those
        // spent before the save are not kept, and the admission order passes over them anyway.
        arrivals = enteredNew.compactMap { $0.value == PlacesLedger.byHand ? nil : (sequence: $0.value, id: $0.key) }
            .sorted { $0.sequence < $1.sequence }
        return check
    }
}
