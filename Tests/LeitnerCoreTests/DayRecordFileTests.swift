import Testing
@testable import LeitnerCore
@testable import LeitnerSystem
import LeitnerTestSupport

/// `.leitner/devices/here/days` on disk (R4–R7): appended and synced a line at a time, withdrawn by an atomic
/// rewrite (R15), a torn last line dropped on load (R18).
@Suite struct DayRecordFileTests {
    func entry(_ date: String, _ outcome: DayRecord.Outcome) -> DayRecord.Entry {
        DayRecord.Entry(date: LogicalDate(date)!, outcome: outcome)
    }

    func withFile(_ body: (TemporaryDirectory, DayRecordFile) throws -> Void) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let fd = try FileDescriptor.openDirectory(dir.path)
        defer { fd.close() }
        try body(dir, try DayRecordFile(directory: fd, directoryPath: dir.path))
    }

    @Test func missingFileIsAnEmptyRecord() throws {
        try withFile { dir, file in
            let record = try file.load()
            #expect(record.position == 0)
            #expect(!dir.exists("days"), "loading creates nothing")
        }
    }

    @Test func appendWritesOneLineAndLoadReadsIt() throws {
        try withFile { dir, file in
            var record = DayRecord()
            try file.append(entry("2026-03-02", .completed), to: &record)
            try file.append(entry("2026-03-04", .skipped), to: &record)
            #expect(dir.read("days") == "2026-03-02 completed\n2026-03-04 skipped\n")
            let loaded = try file.load()
            #expect(loaded == record)
            #expect(record.position == 2)
        }
    }

    /// R4: a second entry for a date, or an earlier date, is refused naming the file; the file and
    /// the record are unchanged.
    @Test func appendRefusesARepeatedDate() throws {
        try withFile { dir, file in
            var record = DayRecord()
            try file.append(entry("2026-03-02", .completed), to: &record)
            for bad in [entry("2026-03-02", .skipped), entry("2026-03-01", .completed)] {
                do {
                    try file.append(bad, to: &record)
                    Issue.record("appended \(bad)")
                } catch let error as BoxError {
                    guard case .storeFailure(let path, _, _, _) = error else { Issue.record("\(error)"); continue }
                    #expect(path == dir.path + "/days")
                }
            }
            #expect(record.position == 1)
            #expect(dir.read("days") == "2026-03-02 completed\n")
        }
    }

    /// R15: withdrawing the last entry rewrites the file without it.
    @Test func removeLastRewrites() throws {
        try withFile { dir, file in
            var record = DayRecord()
            try file.append(entry("2026-03-02", .completed), to: &record)
            try file.append(entry("2026-03-03", .completed), to: &record)
            try file.removeLast(from: &record)
            #expect(record.position == 1)
            #expect(dir.read("days") == "2026-03-02 completed\n")
            #expect(!dir.snapshot().contains { $0.contains(".tmp") }, "no temporary file left")
        }
    }

    /// R18: a last line a crash cut short is dropped, and the file is mended so the next append
    /// starts on a line of its own.
    @Test func tornTailIsDroppedAndMended() throws {
        try withFile { dir, file in
            dir.write("days", "2026-03-02 completed\n2026-03-0")
            var record = try file.load()
            #expect(record.entries == [entry("2026-03-02", .completed)])
            #expect(dir.read("days") == "2026-03-02 completed\n")
            try file.append(entry("2026-03-03", .skipped), to: &record)
            #expect(dir.read("days") == "2026-03-02 completed\n2026-03-03 skipped\n")
        }
    }

    /// A damaged file (not a torn tail) is an error naming the file and line; it is not rewritten.
    @Test func damagedFileIsAnErrorAndKept() throws {
        try withFile { dir, file in
            let text = "2026-03-02 completed\nnonsense here\n2026-03-04 skipped\n"
            dir.write("days", text)
            do {
                _ = try file.load()
                Issue.record("loaded a damaged day record")
            } catch let error as BoxError {
                guard case .storeFailure(let path, let reason, _, _) = error else { Issue.record("\(error)"); return }
                #expect(path == dir.path + "/days")
                #expect(reason.contains(":2"))
            }
            #expect(dir.read("days") == text)
        }
    }

    /// A damaged day record stops the box from opening rather than being guessed at.
    @Test func boxRefusesADamagedDayRecord() throws {
        let f = try BoxFixture()
        f.close()
        f.dir.write(".leitner/devices/here/days", "2026-03-02 completed\n2026-03-01 completed\n")
        #expect(throws: BoxError.self) { try f.reopen() }
        #expect(f.dir.read(".leitner/devices/here/days") == "2026-03-02 completed\n2026-03-01 completed\n")
    }
}
