import Testing
@testable import LeitnerCore
@testable import LeitnerSystem

/// The text of a review-log line (docs/store-format.md, `.leitner/devices/here/log`): what is written must
/// read back as the same event, and a line that is not one must be refused, since `doctor`
/// reports exactly the lines `parse` refuses.
@Suite struct LogLineTests {
    /// 2026-11-21T19:31:07Z, a whole second, written without a fraction.
    static let time: Int64 = 1_795_289_467_000

    /// One entry of each event, with the fields the box writes for it.
    static let everyKind: [LogEntry] = [
        LogEntry(time: time, event: .add, id: "hola", to: .one),
        LogEntry(time: time, event: .add, id: "perro", to: .three, origin: "adopt"),
        LogEntry(time: time, event: .grade, id: "hola", from: .two, to: .three, correct: true, answerMs: 1840),
        LogEntry(time: time, event: .grade, id: "gato", from: .seven, to: .finished, correct: true, answerMs: 0),
        LogEntry(time: time, event: .grade, id: "gato", from: .four, to: .one, correct: false, answerMs: 5120),
        LogEntry(time: time, event: .undo, id: "gato", from: .one, to: .one, correct: false),
        LogEntry(time: time, event: .move, id: "perro", from: .three, to: .one, origin: "hand"),
        LogEntry(time: time, event: .move, id: "perro", from: .finished, to: .seven),
        LogEntry(time: time, event: .delete, id: "perro", from: .two),
        LogEntry(time: time, event: .skip, date: LogicalDate("2026-11-20")),
        LogEntry(time: time, event: .complete, date: LogicalDate("2026-11-21")),
    ]

    func roundTrip(_ entry: LogEntry) -> LogEntry? {
        let line = LogLine.format(entry)
        return LogLine.parse(Substring(line.dropLast()))
    }

    /// The fields after the time, which does not depend on the process's zone.
    func fieldsAfterTime(_ entry: LogEntry) -> [String] {
        Array(LogLine.format(entry).dropLast().split(separator: "\t", omittingEmptySubsequences: false).dropFirst().map(String.init))
    }

    @Test(arguments: everyKind)
    func everyKindOfLineReadsBackAsTheSameEntry(_ entry: LogEntry) {
        #expect(roundTrip(entry) == entry)
    }

    /// Two devices' lines in one second are ranked by the milliseconds they were written at
    /// (docs/sync.md): the log keeps them; a whole second is written as a leitner before
    /// milliseconds wrote it, and such a line reads as before.
    @Test func theTimeKeepsItsMilliseconds() throws {
        for millis: Int64 in [1, 250, 999] {
            let entry = LogEntry(time: Self.time + millis, event: .grade, id: "hola", from: .two, to: .three,
                                 correct: true, answerMs: 1840)
            #expect(roundTrip(entry) == entry)
            let text = LogLine.format(LogEntry(time: Self.time + millis, event: .skip, date: LogicalDate("2026-11-20")))
            #expect(text.split(separator: "\t").first?.contains(".\(String(1000 + millis).dropFirst())") == true)
        }
        #expect(!LogLine.format(Self.everyKind[0]).split(separator: "\t")[0].contains("."))
        let old = try #require(LogLine.parse(Substring("2026-11-21T19:31:07Z\tgrade\thola\t2\t3\tcorrect\t1840")))
        #expect(old.time == Self.time)
        // Before 1970 too: the second it falls in, and the milliseconds after it.
        let early = LogEntry(time: -1_500, event: .add, id: "a", to: .one)
        #expect(roundTrip(early)?.time == -1_500)
    }

    @Test(arguments: everyKind)
    func aLineIsOneLineOfTabSeparatedFields(_ entry: LogEntry) {
        let line = LogLine.format(entry)
        #expect(line.hasSuffix("\n"))
        #expect(line.dropLast().firstIndex(of: "\n") == nil)
        let fields = line.dropLast().split(separator: "\t", omittingEmptySubsequences: false)
        #expect(fields.count >= 7)
        #expect(fields.allSatisfy { !$0.isEmpty }, "an empty field is written `-`")
        #expect(DayClock.parseRFC3339(String(fields[0])) == entry.time)
    }

    @Test func theFieldsAreWrittenAsTheDocumentShows() {
        #expect(fieldsAfterTime(Self.everyKind[2]) == ["grade", "hola", "2", "3", "correct", "1840"])
        #expect(fieldsAfterTime(Self.everyKind[4]) == ["grade", "gato", "4", "1", "wrong", "5120"])
        #expect(fieldsAfterTime(Self.everyKind[5]) == ["undo", "gato", "1", "1", "wrong", "-"])
        #expect(fieldsAfterTime(Self.everyKind[6]) == ["move", "perro", "3", "1", "-", "-", "origin=hand"])
        #expect(fieldsAfterTime(Self.everyKind[3]) == ["grade", "gato", "7", "finished", "correct", "0"])
        #expect(fieldsAfterTime(Self.everyKind[9]) == ["skip", "-", "-", "-", "-", "-", "date=2026-11-20"])
        let both = LogEntry(time: Self.time, event: .complete, date: LogicalDate("2026-11-21"), origin: "hand")
        #expect(fieldsAfterTime(both) == ["complete", "-", "-", "-", "-", "-", "date=2026-11-21", "origin=hand"])
    }

    /// The line is written as bytes (`LogLine.append`): every field after the time, the one
    /// written as a second time (`made=`) among them, in the document's order, and the lines of
    /// one change back to back in the bytes a durable append writes (`ReviewLog.encode`).
    @Test func theLaterFieldsAndTheirOrderAreWrittenAsBytes() throws {
        var renamed = LogEntry(time: Self.time, event: .rename, id: "a", from: .two, to: .two, renamedTo: "b")
        renamed.kept = KeptMark(device: "phone", sequence: 7)
        let moved = LogEntry(time: Self.time + 250, event: .move, id: "c", from: .one, to: .two, origin: "hand", made: Self.time - 1_000)
        #expect(fieldsAfterTime(renamed) == ["rename", "a", "2", "2", "-", "-", "renamed=b", "kept=phone:7"])
        let fields = fieldsAfterTime(moved)
        #expect(Array(fields.prefix(6)) == ["move", "c", "1", "2", "-", "-"] && fields[6] == "origin=hand")
        #expect(fields.count == 8 && fields[7].hasPrefix("made=") && DayClock.parseRFC3339(String(fields[7].dropFirst(5))) == Self.time - 1_000)
        #expect(roundTrip(moved) == moved)
        let bytes = ReviewLog.encode([renamed, moved])
        #expect(String(decoding: bytes, as: UTF8.self) == LogLine.format(renamed) + LogLine.format(moved))
    }

    /// The example of docs/store-format.md, as a person would find it in the file.
    @Test func theDocumentsExampleLinesParse() throws {
        let grade = try #require(LogLine.parse("2026-11-21T20:31:07+01:00\tgrade\thola\t2\t3\tcorrect\t1840"))
        #expect(grade == LogEntry(time: Self.time, event: .grade, id: "hola", from: .two, to: .three,
                                  correct: true, answerMs: 1840))
        let skip = try #require(LogLine.parse("2026-11-22T09:00:00+01:00\tskip\t-\t-\t-\t-\t-\tdate=2026-11-20"))
        #expect(skip == LogEntry(time: 1_795_334_400_000, event: .skip, date: LogicalDate("2026-11-20")))
        let move = try #require(LogLine.parse("2026-11-21T20:32:00+01:00\tmove\tperro\t3\t1\t-\t-\torigin=hand"))
        #expect(move.origin == "hand")
        #expect(move.correct == nil && move.answerMs == nil)
    }

    /// A line edited by hand may name its time in UTC (`Z`) or with a fraction of a second.
    @Test func aHandWrittenTimeInUTCWithAFractionParses() {
        let entry = LogLine.parse("2026-11-21T19:31:07.25Z\tdelete\tgato\t1\t-\t-\t-")
        #expect(entry?.time == Self.time + 250)
        #expect(entry?.from == .one)
        #expect(entry?.to == nil)
    }

    @Test(arguments: Level.allCases)
    func everyLevelNameIsReadAsFromAndTo(_ level: Level) {
        let entry = LogEntry(time: Self.time, event: .move, id: "x", from: level, to: level)
        #expect(roundTrip(entry) == entry)
    }

    // MARK: Odd values

    /// Ids are UTF-8 of any script (docs/rules.md, R20); the log keeps their bytes as they were,
    /// composed or not: `==` on strings would hide a change of normalisation.
    @Test(arguments: ["猫", "café-au-lait", "cafe\u{301}-au-lait", "καλημέρα", "🐱-2", "a.b_c~d", String(repeating: "ü", count: 200)])
    func unicodeIdsKeepTheirBytes(_ id: String) throws {
        let entry = LogEntry(time: Self.time, event: .grade, id: id, from: .one, to: .two, correct: true, answerMs: 3)
        let back = try #require(roundTrip(entry))
        #expect(Array(back.id?.utf8 ?? "".utf8) == Array(id.utf8))
    }

    @Test func answerTimesAtTheirBounds() {
        for ms in [0, 1, 999, 86_400_000, Int.max] {
            let entry = LogEntry(time: Self.time, event: .grade, id: "a", from: .one, to: .two, correct: true, answerMs: ms)
            #expect(roundTrip(entry)?.answerMs == ms)
        }
        #expect(LogLine.parse("2026-11-21T19:31:07Z\tgrade\ta\t1\t2\tcorrect\t9223372036854775808") == nil,
                "one past Int.max is not a number")
    }

    @Test(arguments: [Int64(0), -86_400_000, 253_402_128_000_000 /* 9999-12-30T00:00:00Z, a day from the end whatever the zone */])
    func timesAtTheEdgesOfTheCalendar(_ time: Int64) {
        let entry = LogEntry(time: time, event: .skip, date: LogicalDate("1970-01-01"))
        #expect(roundTrip(entry) == entry)
    }

    @Test func datesAtTheirBounds() {
        for text in ["0001-01-01", "1970-01-01", "2024-02-29", "9999-12-31"] {
            let entry = LogEntry(time: Self.time, event: .complete, date: LogicalDate(text))
            #expect(roundTrip(entry)?.date?.description == text)
        }
    }

    /// Fields past the seventh that the reader does not know are left alone, so that a later
    /// version may add some; the known ones are found in any order.
    @Test func unknownExtraFieldsAreIgnored() {
        let entry = LogLine.parse("2026-11-21T19:31:07Z\tskip\t-\t-\t-\t-\t-\torigin=hand\tnote=x=y\tdate=2026-11-20\t")
        #expect(entry == LogEntry(time: Self.time, event: .skip, date: LogicalDate("2026-11-20"), origin: "hand"))
    }

    /// `ReviewLog` hands `parse` slices of a larger buffer: indices need not start at 0.
    @Test func aSliceInTheMiddleOfABufferParses() throws {
        let line = LogLine.format(Self.everyKind[2])
        let buffer = Array(("junk\n" + line + "more junk").utf8)
        let start = 5
        let end = start + line.utf8.count - 1
        let entry = try #require(LogLine.parse(buffer[start..<end]))
        #expect(entry == Self.everyKind[2])
        #expect(LogLine.parse(buffer[start..<end]) == LogLine.parse(Substring(line.dropLast())))
    }

    // MARK: Damaged lines

    /// Each is a grade line spoilt in one field; the unspoilt one parses, so each refusal is
    /// that field's.
    @Test func theUnspoiltLineParses() {
        #expect(LogLine.parse("2026-11-21T19:31:07Z\tgrade\thola\t2\t3\tcorrect\t1840") != nil)
    }

    @Test(arguments: [
        ("", "an empty line"),
        ("2026-11-21T19:31:07Z\tgrade\thola\t2\t3\tcorrect", "six fields"),
        ("2026-11-21T19:31:07Z grade hola 2 3 correct 1840", "spaces for tabs"),
        ("2026-11-21 19:31\tgrade\thola\t2\t3\tcorrect\t1840", "a time without seconds and zone"),
        ("2026-11-21T19:31:07\tgrade\thola\t2\t3\tcorrect\t1840", "a time without a zone"),
        ("2026-02-30T19:31:07Z\tgrade\thola\t2\t3\tcorrect\t1840", "a date that does not exist"),
        ("2026-11-21T25:31:07Z\tgrade\thola\t2\t3\tcorrect\t1840", "hour 25"),
        ("-\tgrade\thola\t2\t3\tcorrect\t1840", "no time"),
        ("2026-11-21T19:31:07Z\tGrade\thola\t2\t3\tcorrect\t1840", "an event in capitals"),
        ("2026-11-21T19:31:07Z\treview\thola\t2\t3\tcorrect\t1840", "an unknown event"),
        ("2026-11-21T19:31:07Z\t-\thola\t2\t3\tcorrect\t1840", "no event"),
        ("2026-11-21T19:31:07Z\tgrade\thola\t0\t3\tcorrect\t1840", "level 0"),
        ("2026-11-21T19:31:07Z\tgrade\thola\t2\t8\tcorrect\t1840", "level 8"),
        ("2026-11-21T19:31:07Z\tgrade\thola\t2\t10\tcorrect\t1840", "level 10"),
        ("2026-11-21T19:31:07Z\tgrade\thola\t2\tFinished\tcorrect\t1840", "Finished in capitals"),
        ("2026-11-21T19:31:07Z\tgrade\thola\t \t3\tcorrect\t1840", "a blank level"),
        ("2026-11-21T19:31:07Z\tgrade\thola\t2\t3\tyes\t1840", "yes for correct"),
        ("2026-11-21T19:31:07Z\tgrade\thola\t2\t3\tCorrect\t1840", "Correct in capitals"),
        ("2026-11-21T19:31:07Z\tgrade\thola\t2\t3\t\t1840", "an empty answer field"),
        ("2026-11-21T19:31:07Z\tgrade\thola\t2\t3\tcorrect\t1.5", "a fraction of a millisecond"),
        ("2026-11-21T19:31:07Z\tgrade\thola\t2\t3\tcorrect\t12ms", "a unit"),
        ("2026-11-21T19:31:07Z\tgrade\thola\t2\t3\tcorrect\t", "an empty time field"),
        ("2026-11-21T19:31:07Z\tgrade\thola\t2\t3\tcorrect\t1840\r", "a CRLF line ending"),
    ] as [(String, String)])
    func aDamagedLineIsRefused(_ line: String, _ why: String) {
        #expect(LogLine.parse(Substring(line)) == nil, "\(why)")
        #expect(LogLine.parse(Array(line.utf8)[...]) == nil, "\(why), as bytes")
    }

    /// Bytes that are not UTF-8 in the id do not make the line unreadable; they are read as
    /// replacement characters, and the rest of the line as written.
    @Test func invalidUTF8InTheIdIsReadAsReplacementCharacters() throws {
        var bytes = Array("2026-11-21T19:31:07Z\tgrade\t".utf8)
        bytes += [0x68, 0xFF, 0x6F]
        bytes += Array("\t2\t3\tcorrect\t1840".utf8)
        let entry = try #require(LogLine.parse(bytes[...]))
        #expect(entry.id == "h\u{FFFD}o")
        #expect(entry.answerMs == 1840)
    }
}

