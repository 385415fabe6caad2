import Testing
@testable import LeitnerCore

@Suite struct DayRecordTests {
    let file = "/s/.leitner/devices/here/days"

    func entry(_ day: String, _ outcome: DayRecord.Outcome) -> DayRecord.Entry {
        DayRecord.Entry(date: LogicalDate(day)!, outcome: outcome)
    }

    func parseError(_ text: String) -> String? {
        do {
            _ = try DayRecord(parsing: text, fileName: file)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func readsEntriesCommentsAndBlankLines() throws {
        let record = try DayRecord(parsing: """
            # the day record
            2026-03-01 completed

              2026-03-02\tskipped  \r
            2026-03-04 completed

            """, fileName: file)
        #expect(record.entries == [entry("2026-03-01", .completed), entry("2026-03-02", .skipped),
                                   entry("2026-03-04", .completed)])
        // docs/rules.md: the cycle position is the number of entries.
        #expect(record.position == 3)
        #expect(record.last == entry("2026-03-04", .completed))
        #expect(record.state(of: LogicalDate("2026-03-02")!) == .skipped)
        #expect(record.state(of: LogicalDate("2026-03-03")!) == nil)
        #expect(record.state(of: LogicalDate("2026-03-04")!) == .completed)
        #expect(record.state(of: LogicalDate("2026-02-28")!) == nil)
        #expect(record.state(of: LogicalDate("2026-03-05")!) == nil)
    }

    @Test func emptyRecord() throws {
        let record = try DayRecord(parsing: "", fileName: file)
        #expect(record.position == 0)
        #expect(record.last == nil)
        #expect(record.text == "")
    }

    @Test func textRoundTrips() throws {
        var record = DayRecord()
        try record.append(entry("2026-03-01", .completed))
        try record.append(entry("2026-03-02", .skipped))
        #expect(DayRecord.line(for: entry("2026-03-02", .skipped)) == "2026-03-02 skipped")
        #expect(record.text == "2026-03-01 completed\n2026-03-02 skipped\n")
        #expect(try DayRecord(parsing: record.text, fileName: file) == record)
        #expect(record.removeLast() == entry("2026-03-02", .skipped))
        #expect(record.position == 1)
    }

    /// R4: at most one entry per date, in date order.
    @Test func appendRefusesAnEarlierOrRepeatedDate() throws {
        var record = try DayRecord(entries: [entry("2026-03-02", .completed)])
        #expect(throws: DayRecordError(fileName: "day record", line: 2, message: "date 2026-03-02 repeated")) {
            try record.append(entry("2026-03-02", .skipped))
        }
        #expect(throws: DayRecordError(fileName: "day record", line: 2,
                                       message: "date 2026-03-01 comes after 2026-03-02")) {
            try record.append(entry("2026-03-01", .skipped))
        }
        #expect(record.position == 1)
        #expect(throws: DayRecordError.self) {
            try DayRecord(entries: [entry("2026-03-02", .completed), entry("2026-03-02", .skipped)])
        }
    }

    @Test func malformedLinesNameFileAndLine() {
        let shape = "expected 'YYYY-MM-DD completed' or 'YYYY-MM-DD skipped', got"
        #expect(parseError("2026-03-01 completed\nhello\n") == "\(file):2: \(shape) 'hello'")
        #expect(parseError("2026-03-01\n") == "\(file):1: \(shape) '2026-03-01'")
        #expect(parseError("2026-03-01 completed yes\n") == "\(file):1: \(shape) '2026-03-01 completed yes'")
        #expect(parseError("26-03-01 completed\n") == "\(file):1: \(shape) '26-03-01 completed'")
        #expect(parseError("2026-03-01 comp\n") == "\(file):1: \(shape) '2026-03-01 comp'")
        #expect(parseError("2026-02-30 completed\n") == "\(file):1: no such date '2026-02-30'")
        #expect(parseError("2026-03-01 done\n") ==
                "\(file):1: unknown outcome 'done', expected 'completed' or 'skipped'")
        #expect(parseError("2026-03-01 Completed\n") ==
                "\(file):1: unknown outcome 'Completed', expected 'completed' or 'skipped'")
    }

    @Test func datesOutOfOrderOrRepeated() {
        #expect(parseError("2026-03-02 completed\n# x\n2026-03-01 skipped\n") ==
                "\(file):3: date 2026-03-01 comes after 2026-03-02")
        #expect(parseError("2026-03-02 completed\n2026-03-02 skipped\n") ==
                "\(file):2: date 2026-03-02 repeated")
    }

    /// R18: a crash in the middle of an append leaves a torn last line; it is dropped and
    /// reported, so the store can write the file again.
    @Test func tornLastLineIsDroppedAndReported() throws {
        for torn in ["2", "2026-0", "2026-03-02", "2026-03-02 ", "2026-03-02 s", "2026-03-02 complete"] {
            let result = try DayRecord.parse("2026-03-01 completed\n\(torn)", fileName: file)
            #expect(result.record.entries == [entry("2026-03-01", .completed)], "\(torn)")
            #expect(result.tornTail)
            #expect(result.droppedLine == torn.trimmingBlanks.description)
        }
        #expect(parseError("2026-03-01 completed\n2026-03-02 sk") ==
                "\(file):2: incomplete last line '2026-03-02 sk'")
    }

    @Test func completeLastLineWithoutNewlineIsKept() throws {
        let result = try DayRecord.parse("2026-03-01 completed\n2026-03-02 skipped", fileName: file)
        #expect(result.record.position == 2)
        #expect(result.tornTail)
        #expect(result.droppedLine == nil)
        #expect(result.record.text == "2026-03-01 completed\n2026-03-02 skipped\n")
        let clean = try DayRecord.parse("2026-03-01 completed\n", fileName: file)
        #expect(!clean.tornTail)
    }

    /// Only the last line may be torn, and only into the beginning of an entry.
    @Test func otherUnfinishedLinesAreErrors() {
        #expect(throws: DayRecordError.self) { try DayRecord.parse("2026-03\n2026-03-01 completed\n", fileName: file) }
        #expect(throws: DayRecordError.self) { try DayRecord.parse("2026-03-01 completed\nrubbish", fileName: file) }
        #expect(throws: DayRecordError.self) { try DayRecord.parse("2026-03-01 completed\n2026-02-28 skipped", fileName: file) }
    }
}
