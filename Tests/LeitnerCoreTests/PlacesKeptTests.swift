import Testing
import Glibc
@testable import LeitnerCore
import LeitnerSystem
import LeitnerTestSupport

/// The places' ledger (R23, R24) kept across restarts (`PlacesLedger.fileName`,
/// docs/store-format.md): the first request after a start reads only what this device's log
/// gained since, and a log that is no longer what it was read from is read again from its start.
@Suite struct PlacesKeptTests {
    static let wrongAnswers = 30_000

    /// A box of leeches after 3 wrong answers, a card `x` in level 1 and three cards waiting in
    /// `new/`, whose log then gets `wrongAnswers` wrong answers (1.2 MB, past
    /// `PlacesLedger.saveEvery`), written while no box is open: to `x`, but the first `toY` to `y`
    /// and the last `lastToY` to `y`.
    static func writeLog(_ f: BoxFixture, before: String, toY: Int = 0, lastToY: Int = 0) {
        func line(_ id: String) -> String { SyncDevicesTests.line("2026-02-01T10:00:00Z", "grade", id, "1", "1", "wrong") }
        f.dir.write(".leitner/devices/here/log", before + String(repeating: line("y"), count: toY)
            + String(repeating: line("x"), count: wrongAnswers - toY - lastToY) + String(repeating: line("y"), count: lastToY))
    }

    /// The store of `writeLog`, open; and the log as the box wrote it before those lines.
    static func store() throws -> (BoxFixture, String) {
        let f = try BoxFixture(places: PlacesSettings(newPerDay: 2, leechAfter: 3))
        try f.box.addText("x", "x", id: "x", level: "1")
        for id in ["a", "b", "c"] { try f.box.addText(id, id, id: id) }
        f.close()
        let before = f.dir.read(".leitner/devices/here/log")
        writeLog(f, before: before)
        try f.reopen()
        return (f, before)
    }

    @Test func theLedgerAfterARestartIsTakenFromTheFile() throws {
        let (f, before) = try Self.store()
        let status = try f.box.status()
        #expect(status.leeches == 1)
        #expect(status.arrivals?.cards == 2)
        #expect(try f.box.leeches().map(\.failures) == [Self.wrongAnswers])
        #expect(f.dir.exists(".leitner/local.here/places"))
        // The first 1,000 answers made another card's, in place while no box runs: the log read
        // again would count 29,000. The bytes before the ledger's offset are the same, so the
        // file's 30,000 stand: the log was not read again.
        f.close()
        Self.writeLog(f, before: before, toY: 1_000)
        try f.reopen()
        #expect(try f.box.status().arrivals?.cards == 2)
        #expect((f.box.placesKept ?? 0) > PlacesLedger.saveEvery)
        #expect(try f.box.leeches().map(\.failures) == [Self.wrongAnswers])
    }

    /// After a start with neither the ledger nor the graded days kept (a store copied without
    /// `.leitner/local.DEVICE`), the first catching up of the ledger reads the log for the week's
    /// row too: one reading of a year's log, not one for each; the row is the one a reading of its
    /// own gives.
    @Test func theLedgersReadingAlsoReadsTheGradedDays() throws {
        let (f, _) = try Self.store()
        let week = { () throws in try f.box.calendar(from: "2026-01-25", to: "2026-02-10").map(\.cards) }
        #expect(f.box.statistics.gradedDays.logOffset == 0)
        #expect(try f.box.leeches().map(\.failures) == [Self.wrongAnswers])
        #expect(f.box.statistics.gradedDays.logOffset == f.box.store.log.size)
        #expect(f.dir.exists(".leitner/local.here/graded-days.here"))
        let day = LogicalDate("2026-02-01")!
        let together = (week: try week(), graded: f.box.statistics.gradedDays.count(on: day))
        #expect(together.graded == 1, "x, answered 30,000 times that day")
        // The same store read by the week's row alone, neither file kept.
        f.close()
        unlink(f.dir.path + "/.leitner/local.here/graded-days.here")
        unlink(f.dir.path + "/.leitner/local.here/places")
        try f.reopen()
        #expect(try week() == together.week)
        #expect(f.box.statistics.gradedDays.count(on: day) == together.graded)
    }

    /// A store without its local state (copied without `.leitner/local.DEVICE`, or never
    /// opened): the open reads the whole log for where it left each card, and the ledger and the
    /// week's graded days take that same reading, so the first request reads no line again; it
    /// answers as their own readings do.
    @Test func theOpensReadingOfTheWholeLogServesTheLedgerAndTheWeek() throws {
        let (f, _) = try Self.store()
        let answers = { () throws in
            (try f.box.leeches().map(\.failures), try f.box.calendar(from: "2026-01-25", to: "2026-02-10").map(\.cards),
             try f.box.status().arrivals?.cards)
        }
        // `logged-levels` kept: the open read the lines since it, the first request the whole log.
        #expect(f.box.places.logOffset == 0)
        let apart = try answers()
        f.close()
        for name in ["logged-levels", "places", "graded-days.here"] { unlink(f.dir.path + "/.leitner/local.here/" + name) }
        // Nor what the device published beside its log (`PublishedHistoryTests` has a start that takes it).
        for name in ["logged-levels", "places", "graded-days"] { unlink(f.dir.path + "/.leitner/devices/here/" + name) }
        try f.reopen()
        #expect(f.box.places.logOffset == f.box.store.log.size)
        #expect(f.box.statistics.gradedDays.logOffset == f.box.store.log.size)
        #expect(f.dir.exists(".leitner/local.here/places") && f.dir.exists(".leitner/local.here/graded-days.here"))
        let together = try answers()
        #expect(together == apart)
        #expect(together.0 == [Self.wrongAnswers])
    }

    @Test func aLogThatIsNoLongerWhatWasReadIsReadAgain() throws {
        let (f, before) = try Self.store()
        _ = try f.box.status()
        f.close()
        // The same length, its last answer another card's: the bytes before the offset differ.
        Self.writeLog(f, before: before, lastToY: 1)
        try f.reopen()
        #expect(try f.box.leeches().map(\.failures) == [Self.wrongAnswers - 1])
    }

    /// Whatever a log holds, the ledger read back from its file answers as the one that read it,
    /// and goes on from there as it would: arrivals (by request and by hand), admissions on
    /// several days, moves out of `new/` and back, suspensions, wrong answers and their undos,
    /// renames and deletions, in a seeded random order.
    @Test func theFileGivesBackTheLedgerItWasWrittenFrom() throws {
        var random = SeededGenerator(seed: 40)
        var ledger = PlacesLedger()
        var index = CardIndex()
        let dayClock = DayClock()
        let clock = "test-clock"
        var entries: [LogEntry] = []
        for step in 0..<4000 {
            let id = "card-\(random.next() % 300)"
            let time = Int64(1_770_000_000_000) + Int64(step / 500) * 86_400_000
            var entry: LogEntry?
            switch random.next() % 8 {
            case 0:
                if index[id] != .new { entry = LogEntry(time: time, event: index[id] == nil ? .add : .move, id: id, from: index[id], to: .new) }
            case 1:
                if index[id] != .new { entry = LogEntry(time: time, event: .add, id: id, to: .new, origin: .hand) }
            case 2:
                if let level = index[id] {
                    entry = LogEntry(time: time, event: .move, id: id, from: level, to: .one, origin: level == .new ? .admit : nil)
                }
            case 3:
                if let level = index[id], !level.isPlace { entry = LogEntry(time: time, event: .move, id: id, from: level, to: .suspended) }
            case 4:
                if let level = index[id], level.inRotation {
                    entry = LogEntry(time: time, event: .grade, id: id, from: level, to: .one, correct: false)
                }
            case 5:
                if index[id] == .one { entry = LogEntry(time: time, event: .undo, id: id, from: .one, to: .one, correct: false) }
            case 6:
                let newID = "card-\(random.next() % 300)"
                if let level = index[id], index[newID] == nil {
                    entry = LogEntry(time: time, event: .rename, id: id, renamedTo: newID)
                    index[id] = nil
                    index[newID] = level
                }
            default:
                if let level = index[id] { entry = LogEntry(time: time, event: .delete, id: id, from: level) }
            }
            guard let entry else { continue }
            if entry.event != .rename { index[id] = entry.event == .delete ? nil : entry.to ?? index[id] }
            ledger.take(LogLine.Fields(entry), dayClock: dayClock)
            ledger.logOffset += 10
            entries.append(entry)
            guard step % 97 == 0 else { continue }
            let (back, check) = try #require(PlacesLedger.decoded(ledger.encoded(check: 0xfeed, clock: clock), clock: clock))
            #expect(check == 0xfeed)
            var copy = back
            var original = ledger
            #expect(Self.same(&copy, &original, index: index), "step \(step)")
        }
        // Read back and fed the same lines after it, as a restart does.
        let middle = entries.count / 2
        var first = PlacesLedger()
        for entry in entries[..<middle] { first.take(LogLine.Fields(entry), dayClock: dayClock) }
        first.logOffset = 1
        var (resumed, _) = try #require(PlacesLedger.decoded(first.encoded(check: 1, clock: clock), clock: clock))
        for entry in entries[middle...] { resumed.take(LogLine.Fields(entry), dayClock: dayClock) }
        var whole = PlacesLedger()
        for entry in entries { whole.take(LogLine.Fields(entry), dayClock: dayClock) }
        #expect(Self.same(&resumed, &whole, index: index))
        #expect(PlacesLedger.decoded(ledger.encoded(check: 1, clock: clock), clock: "another") == nil)
        #expect(PlacesLedger.decoded(Array("garbage\n".utf8), clock: clock) == nil)
        var cut = ledger.encoded(check: 1, clock: clock)
        cut.removeLast(20)
        #expect(PlacesLedger.decoded(cut, clock: clock) == nil)
        // A head whose counts say more lines than any file holds: not taken, and no abort on the
        // way (the tables were sized by them before a line was read; review F2 of session 12).
        var head = String(decoding: ledger.encoded(check: 1, clock: clock), as: UTF8.self).split(separator: "\n", maxSplits: 1)
        var fields = head[0].split(separator: "\t").map(String.init)
        for at in 4...6 { fields[at] = "999999999999999999" }
        head[0] = Substring(fields.joined(separator: "\t"))
        #expect(PlacesLedger.decoded(Array(head.joined(separator: "\n").utf8), clock: clock) == nil)
    }

    /// True when the two ledgers answer the same: counts, suspensions, admissions by day and
    /// the admission order at several limits.
    static func same(_ one: inout PlacesLedger, _ other: inout PlacesLedger, index: CardIndex) -> Bool {
        guard one.wrongSince == other.wrongSince, one.suspendedFrom == other.suspendedFrom,
              one.admissions == other.admissions, one.enteredNew == other.enteredNew else { return false }
        return [1, 5, 40, 400].allSatisfy { one.admissionOrder(in: index, limit: $0) == other.admissionOrder(in: index, limit: $0) }
    }
}
