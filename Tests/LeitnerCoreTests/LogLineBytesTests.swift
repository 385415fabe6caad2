import Testing
@testable import LeitnerCore

/// The log read from its bytes (`LogLine.Fields`: the ids left where they lie in the line, no
/// string and no array of fields made per line) reads every line as the parse that split it into
/// an array of fields and made a string of each id did, kept here as `Reference` — odd lines
/// included: damaged ones, other devices' lines, CRLF line ends, the lines of a sync tool's
/// conflict copy, ids that are not ASCII or not UTF-8. And what takes the lines as bytes (where
/// the log leaves each card, the week's graded days) tells ids apart as strings did.
@Suite struct LogLineBytesTests {
    /// The parse before the log was read from its bytes (`LogLine.parse` as of a701d27, unchanged
    /// but for its name): the reference.
    enum Reference {
        static func parse(_ line: ArraySlice<UInt8>) -> LogEntry? {
            var fields: [ArraySlice<UInt8>] = []
            var fieldStart = line.startIndex
            for index in line.indices where line[index] == tab {
                fields.append(line[fieldStart..<index])
                fieldStart = index + 1
            }
            fields.append(line[fieldStart..<line.endIndex])
            guard fields.count >= 7,
                  let time = DayClock.parseRFC3339(fields[0]),
                  let event = LogEntry.Event.allCases.first(where: { $0.rawValue.utf8.elementsEqual(fields[1]) })
            else { return nil }
            func optional(_ field: ArraySlice<UInt8>) -> ArraySlice<UInt8>? { field.elementsEqual(dash) ? nil : field }
            func string(_ field: ArraySlice<UInt8>) -> String { String(decoding: field, as: UTF8.self) }
            var entry = LogEntry(time: time, event: event)
            entry.id = optional(fields[2]).map(string)
            if let from = optional(fields[3]) {
                guard let level = level(from) else { return nil }
                entry.from = level
            }
            if let to = optional(fields[4]) {
                guard let level = level(to) else { return nil }
                entry.to = level
            }
            if fields[5].elementsEqual("correct".utf8) {
                entry.correct = true
            } else if fields[5].elementsEqual("wrong".utf8) {
                entry.correct = false
            } else if !fields[5].elementsEqual(dash) {
                return nil
            }
            if let ms = optional(fields[6]) {
                guard let value = Int(string(ms)) else { return nil }
                entry.answerMs = value
            }
            for extra in fields.dropFirst(7) {
                if extra.starts(with: "date=".utf8) {
                    entry.date = LogicalDate(extra.dropFirst(5))
                } else if extra.starts(with: "origin=".utf8) {
                    entry.origin = LogOrigin(rawValue: string(extra.dropFirst(7)))
                } else if extra.starts(with: "renamed=".utf8) {
                    entry.renamedTo = string(extra.dropFirst(8))
                } else if extra.starts(with: "made=".utf8) {
                    entry.made = DayClock.parseRFC3339(extra.dropFirst(5))
                } else if extra.starts(with: "kept=".utf8) {
                    entry.kept = KeptMark(extra.dropFirst(5))
                }
            }
            return entry
        }

        static let tab = UInt8(ascii: "\t")
        static let dash = "-".utf8

        static func level(_ name: ArraySlice<UInt8>) -> Level? {
            if name.count == 1, let digit = name.first, digit >= UInt8(ascii: "1"), digit <= UInt8(ascii: "7") {
                return Level(rawValue: Int(digit - UInt8(ascii: "0")))
            }
            if name.elementsEqual("finished".utf8) { return .finished }
            if name.elementsEqual("new".utf8) { return .new }
            return name.elementsEqual("suspended".utf8) ? .suspended : nil
        }

        /// Distinct cards graded each day, an undo taking back the last grade of the last day,
        /// cards told apart as strings are: `GradedDays` before it read bytes, in short.
        static func gradedDays(_ entries: [LogEntry], dayClock: DayClock) -> [LogicalDate: Int] {
            var counts: [LogicalDate: Int] = [:]
            var lastDay: LogicalDate?
            var cards: [String: Int] = [:]
            var grades: [String?] = []
            for entry in entries {
                if entry.event == .undo, let id = grades.popLast() ?? nil, let count = cards[id] {
                    cards[id] = count > 1 ? count - 1 : nil
                }
                // An id longer than any card's (R20) names no card: it counts nothing, and an
                // undo after it takes it back.
                guard entry.event == .grade, let id = entry.id else { continue }
                guard CardID.composed(id).utf8.count <= CardID.maxLength else {
                    if lastDay != nil { grades.append(nil) }
                    continue
                }
                let date = dayClock.logicalDate(at: entry.time)
                if let lastDay, date < lastDay {
                    counts[date, default: 0] += 1
                    continue
                }
                if date != lastDay {
                    if let lastDay, !cards.isEmpty { counts[lastDay] = cards.count }
                    lastDay = date
                    cards = [:]
                    grades = []
                }
                cards[id, default: 0] += 1
                grades.append(id)
            }
            if let lastDay { counts[lastDay] = cards.count }
            return counts
        }
    }

    /// Lines a log may hold besides the box's own: cut short, joined, hand-written, another
    /// program's, a conflict copy's (`log.sync-conflict-…`, lines of two devices interleaved).
    static let oddLines: [String] = [
        "2026-03-01T10:00:00+01:00\tgrade\tcard-1\t1\t2\tcorrect\t7118",
        "2026-03-01T10:00:00.250+01:00\tgrade\tcard-1\t2\t1\twrong\t0",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\t1\t2\tcorrect\t7118\r",
        "2026-03-01T10:00:00Z\tmove\tcard-1\t1\t3\t-\t-\torigin=hand\r",
        "2026-03-01T10:00:00Z\tmove\tcard-1\t1\t3\t-\t-\torigin=hand\tmade=2026-03-01T09:00:00Z\r",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\t1\t2\tcorrect\t71",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\t1\t2\tcorre",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\t1\t2\tcorrect",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\t1\t2\tcorrect\t",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\t1\t2\tcorrect\t+5",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\t1\t2\tcorrect\t-5",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\t1\t2\tcorrect\t0000000000000000000000042",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\t1\t2\tcorrect\t99999999999999999999",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\t1\t2\tcorrect\t9223372036854775807",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\t1\t2\tcorrect\t12a",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\t0\t2\tcorrect\t5",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\t8\t2\tcorrect\t5",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\t11\t2\tcorrect\t5",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\tnew\tsuspended\tcorrect\t5",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\tfinished\tFinished\tcorrect\t5",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\t1\t2\tCorrect\t5",
        "2026-03-01T10:00:00Z\tgrad\tcard-1\t1\t2\tcorrect\t5",
        "2026-03-01T10:00:00Z\tgrades\tcard-1\t1\t2\tcorrect\t5",
        "2026-03-01T10:00:00Z\t\tcard-1\t1\t2\tcorrect\t5",
        "2026-03-01T10:00:00Z\tpractice\tcard-1\t2\t2\tcorrect\t5",
        "2026-03-01T10:00:00Z\tgrade\t\t1\t2\tcorrect\t5",
        "2026-03-01T10:00:00Z\tgrade\t-\t1\t2\tcorrect\t5",
        "2026-03-01T10:00:00Z\tgrade\t--\t1\t2\tcorrect\t5",
        "2026-03-01T10:00:00Z\tgrade\tcafé\t1\t2\tcorrect\t5",
        "2026-03-01T10:00:00Z\tgrade\tcafe\u{301}\t1\t2\tcorrect\t5",
        "2026-03-01T10:00:00Z\tgrade\t猫\t1\t2\tcorrect\t5\tkept=browser-1:17",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\t1\t2\tcorrect\t5\tkept=browser-1:x",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\t1\t2\tcorrect\t5\tkept=:17",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\t1\t2\tcorrect\t5\tkept=a:b:17",
        "2026-03-01T10:00:00Z\tskip\t-\t-\t-\t-\t-\tdate=2026-02-28",
        "2026-03-01T10:00:00Z\tskip\t-\t-\t-\t-\t-\tdate=2026-02-30",
        "2026-03-01T10:00:00Z\tcomplete\t-\t-\t-\t-\t-\tdate=2026-02-28\tdate=bad",
        "2026-03-01T10:00:00Z\tcomplete\t-\t-\t-\t-\t-\tdate=2026-02-28\tfuture=field\tdate=2026-02-27",
        "2026-03-01T10:00:00Z\trename\tcard-1\t3\t3\t-\t-\trenamed=card-2",
        "2026-03-01T10:00:00Z\trename\tcard-1\t3\t3\t-\t-\trenamed=",
        "2026-03-01T10:00:00Z\trename\tcard-1\t-\t-\t-\t-\trenamed=card-1",
        "2026-03-01T10:00:00Z\trename\tcafe\u{301}\t3\t3\t-\t-\trenamed=café",
        "2026-03-01T10:00:00Z\tmove\tcard-1\tnew\t1\t-\t-\torigin=admit",
        "2026-03-01T10:00:00Z\tmove\tcard-1\tnew\t1\t-\t-\torigin=admitted",
        "2026-03-01T10:00:00Z\tmove\tcard-1\tnew\t1\t-\t-\torigin=",
        "2026-03-01T10:00:00Z\tmove\tcard-1\t1\tnew\t-\t-\tmade=yesterday",
        "2026-03-01T10:00:00Z\tadd\tcard-1\t-\tnew\t-\t-",
        "2026-03-01T10:00:00Z\tdelete\tcard-1\t2\t-\t-\t-",
        "2026-03-01T10:00:00Z\tedit\tcard-1\t2\t2\t-\t-",
        "2026-03-01T10:00:00Z\tundo\tcard-1\t1\t2\twrong\t-",
        // Damaged: cut short, two lines run together, a time that is no time.
        "2026-03-01T10:00:00Z\tgrade\tcard-1\t1\t2\tcorrect\t7118" + "2026-03-01T10:00:01Z\tgrade",
        "2026-03-01T10:00:00Z\tgrade\tcard-1\t1\t2\tcorrect\t71182026-03-01T10:00:01Z\tgrade\tcard-2\t1\t2\tcorrect\t5",
        "2026-03-01T10:00:0",
        "2026-03-01T10:00:00\tgrade\tcard-1\t1\t2\tcorrect\t5",
        "2026-03-01 10:00:00z\tgrade\tcard-1\t1\t2\tcorrect\t5",
        "2026-13-01T10:00:00Z\tgrade\tcard-1\t1\t2\tcorrect\t5",
        "\tgrade\tcard-1\t1\t2\tcorrect\t5",
        "",
        "\t\t\t\t\t\t",
        "# a comment someone wrote",
        "<<<<<<< HEAD",
        "2026-03-01T10:00:00Z grade card-1 1 2 correct 5",
    ]

    /// Bytes that are not UTF-8 in an id, and a NUL.
    static let oddByteLines: [[UInt8]] = [
        Array("2026-03-01T10:00:00Z\tgrade\tcard-".utf8) + [0xFF, 0xFE] + Array("\t1\t2\tcorrect\t5".utf8),
        Array("2026-03-01T10:00:00Z\tgrade\tcard-".utf8) + [0xC3] + Array("\t1\t2\tcorrect\t5".utf8),
        Array("2026-03-01T10:00:00Z\tgrade\tcard-".utf8) + [0] + Array("\t1\t2\tcorrect\t5".utf8),
        Array("2026-03-01T10:00:00Z\trename\tcard-".utf8) + [0xFF] + Array("\t3\t3\t-\t-\trenamed=card-".utf8) + [0xFE],
    ]

    static var allLines: [[UInt8]] { oddLines.map { Array($0.utf8) } + oddByteLines }

    @Test func everyOddLineReadsAsTheReferenceParseReadIt() {
        for line in Self.allLines {
            let expected = Reference.parse(line[...])
            #expect(LogLine.parse(line[...]) == expected, "\(String(decoding: line, as: UTF8.self).debugDescription)")
            #expect(LogLine.Fields(line[...])?.entry == expected)
            // The same bytes inside a larger buffer (as the reader's pieces hold them).
            let inside = Array("x\n".utf8) + line + Array("\ny".utf8)
            #expect(LogLine.Fields(inside[2..<(2 + line.count)])?.entry == expected)
        }
        // The box's own lines of every kind read back as they were written.
        for entry in LogLineTests.everyKind {
            let line = Array(LogLine.format(entry).utf8.dropLast())
            #expect(LogLine.Fields(line[...])?.entry == Reference.parse(line[...]))
        }
    }

    /// Where the lines leave each card, read from their bytes (`CardIndex.place(by:)`, the open
    /// of a store without `logged-levels`), as a dictionary keyed by the id's string had it by
    /// `SettlePlacement(of:for:)`: an index keyed by the bytes of the id's string (`café`
    /// composed and decomposed are two ids there, as they are two directories).
    @Test func theLinesPlaceTheCardsAsTheirEntriesDid() {
        var lines = Self.allLines
        // Another device's log, as a conflict copy holds it, between this one's lines.
        lines.insert(contentsOf: [
            "2026-03-02T10:00:00Z\tadd\tcard-9\t-\t1\t-\t-",
            "2026-03-02T10:00:01Z\trename\tcard-9\t1\t1\t-\t-\trenamed=card-10",
            "2026-03-02T10:00:02Z\tdelete\tcard-2\t2\t-\t-\t-",
            "2026-03-02T10:00:03Z\tgrade\tcard-10\t1\t2\tcorrect\t5",
        ].map { Array($0.utf8) } + Self.longIDLines, at: 3)
        var index = CardIndex()
        var reference = CardIndex()
        for line in lines {
            if let fields = LogLine.Fields(line[...]) { index.place(by: fields) }
            guard let entry = Reference.parse(line[...]) else { continue }
            for id in [entry.id, entry.renamedTo].compactMap({ $0 }) where id.utf8.count <= CardID.maxLength {
                switch SettlePlacement(of: entry, for: id) {
                case .level(let level)?: reference.updateValue(level, forKey: id)
                case .deleted?: reference.removeValue(forKey: id)
                case nil: break
                }
            }
        }
        func entries(_ index: CardIndex) -> [[UInt8]: Level] {
            var entries: [[UInt8]: Level] = [:]
            index.forEachEntryWithBytes { _, level, bytes in entries[Array(bytes)] = level }
            return entries
        }
        #expect(entries(index) == entries(reference))
        #expect(index.count == reference.count)
        #expect(reference.count > 5)
    }

    /// The week's graded days read from the lines' bytes count each day's distinct cards as the
    /// reading that made each id a string did: `café` composed and decomposed are one card, an
    /// undo takes back the last grade of the last day, a grade dated before it counts on its day.
    @Test func theGradedDaysCountAsTheStringsDid() {
        let dayClock = DayClock(dayStartsAt: 4 * 60)
        let text = [
            "2026-03-01T10:00:00Z\tgrade\tcafé\t1\t2\tcorrect\t5",
            "2026-03-01T10:00:01Z\tgrade\tcafe\u{301}\t1\t2\tcorrect\t5",
            "2026-03-01T10:00:02Z\tgrade\tcard-1\t1\t2\tcorrect\t5\r",
            "2026-03-01T10:00:02Z\tgrade\tcard-1\t1\t2\tcorrect\t5",
            "2026-03-02T10:00:00Z\tgrade\tcard-1\t1\t2\tcorrect\t5",
            "2026-03-02T10:00:01Z\tgrade\tcard-2\t1\t2\twrong\t5",
            "2026-03-02T10:00:02Z\tgrade\tcard-1\t2\t3\tcorrect\t5",
            "2026-03-02T10:00:03Z\tundo\tcard-1\t3\t2\tcorrect\t-",
            "2026-03-02T10:00:04Z\tundo\tcard-2\t1\t1\twrong\t-",
            "2026-03-01T12:00:00Z\tgrade\tcard-3\t1\t2\tcorrect\t5",
            "2026-03-03T10:00:00Z\tgrade\tcard-1\t1\t2\tcorrect\t5",
            "2026-03-03T10:00:01Z\tgrade\tcard-\u{FFFD}\t1\t2\tcorrect\t5",
            "2026-03-03T10:00:02Z\tgrade\tcard-1\t1\t2\tcorrect\t5",
            "2026-03-03T10:00:03Z\tundo\tcard-1\t1\t1\tcorrect\t-",
            "2026-03-03T10:00:04Z\tundo\tcard-1\t1\t1\tcorrect\t-",
        ].map { Array($0.utf8) } + [Array("2026-03-03T10:00:05Z\tgrade\tcard-".utf8) + [0xFF] + Array("\t1\t2\tcorrect\t5".utf8)]
            + Self.longIDLines
        var days = GradedDays()
        var end = 0
        for line in text {
            end += line.count + 1
            if let fields = LogLine.Fields(line[...]) { days.read(fields, end: end, dayClock: dayClock) }
        }
        let reference = Reference.gradedDays(text.compactMap { Reference.parse($0[...]) }, dayClock: dayClock)
        let dates: [LogicalDate] = ["2026-03-01", "2026-03-02", "2026-03-03"].compactMap { LogicalDate($0) }
        #expect(dates.map { days.count(on: $0) } == dates.map { reference[$0] ?? 0 })
        #expect(dates.map { days.count(on: $0) } == [3, 1, 2])
        #expect(days.logOffset == end)
        // Kept in its file and read back, the last day's grades count as they did.
        let clock = "4:00"
        let kept = GradedDays(decoding: days.encoded(check: 1, clock: clock), clock: clock)
        #expect(dates.map { kept?.count(on: $0) } == dates.map { days.count(on: $0) })
    }

    /// An undo right after a grade of an id no card can have (R20) takes back that grade, which
    /// counted nothing, not the grade before it of another card (R15), whether the days were
    /// read on or kept in their file and read back between the two lines.
    @Test func anUndoAfterAGradeOfNoCardTakesBackThatGrade() {
        let dayClock = DayClock(dayStartsAt: 4 * 60)
        let longID = String(repeating: "a", count: 300)
        let graded = ["2026-03-01T10:00:00Z\tgrade\tcard-1\t1\t2\tcorrect\t5",
                      "2026-03-01T10:00:01Z\tgrade\t\(longID)\t1\t2\tcorrect\t5"].map { Array($0.utf8) }
        let undo = Array("2026-03-01T10:00:02Z\tundo\t\(longID)\t2\t1\tcorrect\t-".utf8)
        let date = LogicalDate("2026-03-01")!
        for keptBetween in [false, true] {
            var days = GradedDays()
            var end = 0
            for line in graded {
                end += line.count + 1
                days.read(LogLine.Fields(line[...])!, end: end, dayClock: dayClock)
            }
            if keptBetween, let back = GradedDays(decoding: days.encoded(check: 1, clock: "4:00"), clock: "4:00") { days = back }
            days.read(LogLine.Fields(undo[...])!, end: end + undo.count + 1, dayClock: dayClock)
            #expect(days.count(on: date) == 1, "kept between: \(keptBetween)")
        }
        let reference = Reference.gradedDays((graded + [undo]).compactMap { Reference.parse($0[...]) }, dayClock: dayClock)
        #expect(reference[date] == 1)
    }
}

extension LogLineBytesTests {
    /// Grades of ids longer than any card's (R20), each twice on 2026-03-03: 300 ASCII bytes, 90
    /// bytes that are not UTF-8 (270 bytes as a string of U+FFFD), 130 `é`. The index of the
    /// day's cards and of the log's placements keeps an id's length in 8 bits: such an id was
    /// stored cut and never found again, so each grade counted one more card.
    static let longIDLines: [[UInt8]] = [
        Array(String(repeating: "a", count: 300).utf8),
        Array("card-".utf8) + [UInt8](repeating: 0xFF, count: 90),
        Array(String(repeating: "é", count: 130).utf8),
    ].flatMap { id in
        (0..<2).map { second in
            Array("2026-03-03T11:00:0\(second)Z\tgrade\t".utf8) + id + Array("\t1\t2\tcorrect\t5".utf8)
        }
    }
}

extension LogLine.Fields {
    /// The fields of `entry`'s line, its ids as bytes: for tests that feed what reads lines
    /// (`PlacesLedger.take`, `GradedDays.read`) entries made in code.
    init(_ entry: LogEntry) {
        self.init(time: entry.time, event: entry.event, id: entry.id.map { Array($0.utf8)[...] }, from: entry.from, to: entry.to,
                  correct: entry.correct, answerMs: entry.answerMs, date: entry.date, origin: entry.origin,
                  renamedTo: entry.renamedTo.map { Array($0.utf8)[...] }, made: entry.made, kept: entry.kept)
    }
}
