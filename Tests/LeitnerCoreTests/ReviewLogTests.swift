import Glibc
import Testing
@testable import LeitnerCore
@testable import LeitnerSystem
import LeitnerTestSupport

/// `.leitner/devices/here/log` (docs/rules.md, R16; docs/store-format.md): appended to, read back from any
/// line on, read in pieces by `doctor`, and never left with half a line at its end.
@Suite struct ReviewLogTests {
    /// A state directory of its own, with the log opened on it the way the store opens it.
    struct Fixture {
        let dir = TemporaryDirectory()
        let stateDirectory: FileDescriptor

        init() throws { stateDirectory = try FileDescriptor.openDirectory(dir.path) }

        func close() {
            stateDirectory.close()
            dir.remove()
        }

        func open() throws -> ReviewLog { try ReviewLog(logDirectory: stateDirectory, logDirectoryPath: dir.path, stateDirectory: stateDirectory, statePath: dir.path) }

        var logPath: String { dir.path + "/log" }

        /// The log file's bytes, read without the type under test.
        var bytes: [UInt8] {
            guard let fd = try? FileDescriptor.open(logPath, flags: O_RDONLY) else { return [] }
            defer { fd.close() }
            return (try? fd.readAll()) ?? []
        }

        var text: String { String(decoding: bytes, as: UTF8.self) }

        /// Replaces the log's bytes, as a person or a crash would.
        func replace(with bytes: [UInt8]) throws {
            let fd = try FileDescriptor.open(logPath, flags: O_WRONLY | O_CREAT | O_TRUNC)
            defer { fd.close() }
            try fd.writeAll(bytes)
        }
    }

    /// 2026-11-21T19:31:07Z.
    static let time: Int64 = 1_795_289_467_000

    static func grade(_ id: String, seconds: Int64 = 0) -> LogEntry {
        LogEntry(time: time + seconds * 1000, event: .grade, id: id, from: .one, to: .two, correct: true, answerMs: 1200)
    }

    static func line(_ entry: LogEntry) -> [UInt8] { Array(LogLine.format(entry).utf8) }

    /// Valid log lines adding up to exactly `total` bytes, and how many there are: padding by the
    /// length of the id puts the next byte exactly where a test wants it.
    static func lines(totalling total: Int) -> (bytes: [UInt8], count: Int) {
        let full = line(grade(String(repeating: "i", count: 64))).count
        let count = total / full
        precondition(count >= 1, "too short for one line")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(total)
        for index in 0..<count - 1 { bytes += line(grade(String(repeating: "i", count: 64), seconds: Int64(index))) }
        bytes += line(grade(String(repeating: "j", count: 64 + total - count * full), seconds: Int64(count)))
        precondition(bytes.count == total)
        return (bytes, count)
    }

    static let piece = 1 << 20

    // MARK: Appending and reading back

    @Test func appendedEntriesReadBackWithTheOffsetAfterEach() throws {
        let f = try Fixture()
        defer { f.close() }
        let log = try f.open()
        let entries = [Self.grade("a"), Self.grade("b", seconds: 1), LogEntry(time: Self.time, event: .delete, id: "c", from: .four)]
        try log.append(Array(entries[0...1]))
        try log.append([entries[2]])

        let expectedBytes = entries.flatMap(Self.line)
        #expect(f.bytes == expectedBytes)
        #expect(log.size == expectedBytes.count)
        let read = try log.entries(from: 0)
        #expect(read.map(\.entry) == entries)
        let lengths = entries.map { Self.line($0).count }
        #expect(read.map(\.end) == [lengths[0], lengths[0] + lengths[1], lengths.reduce(0, +)])
    }

    /// The store reads on from the offset it last got: only lines appended since come back.
    @Test func readingOnFromAnEndGivesOnlyTheNewLines() throws {
        let f = try Fixture()
        defer { f.close() }
        let log = try f.open()
        try log.append([Self.grade("a"), Self.grade("b")])
        let first = try log.entries(from: 0)
        let end = try #require(first.last?.end)
        #expect(try log.entries(from: end).isEmpty)
        try log.append([Self.grade("c")])
        try log.appendDurably([Self.grade("d")])
        #expect(try log.entries(from: end).map(\.entry.id) == ["c", "d"])
        #expect(try log.entries(from: first[0].end).map(\.entry.id) == ["b", "c", "d"])
        #expect(try log.entries(from: log.size).isEmpty)
    }

    @Test func appendingNothingWritesNothing() throws {
        let f = try Fixture()
        defer { f.close() }
        let log = try f.open()
        try log.append([Self.grade("a")])
        let before = f.bytes
        try log.append([])
        #expect(f.bytes == before)
        #expect(log.size == before.count)
    }

    @Test func theLogIsKeptAcrossOpens() throws {
        let f = try Fixture()
        defer { f.close() }
        do {
            let log = try f.open()
            try log.append([Self.grade("a")])
            try log.appendDurably([Self.grade("b")])
            try log.sync()
        }
        let reopened = try f.open()
        #expect(try reopened.entries(from: 0).map(\.entry.id) == ["a", "b"])
        #expect(reopened.size == f.bytes.count)
        try reopened.append([Self.grade("c")])
        #expect(try reopened.entries(from: 0).map(\.entry.id) == ["a", "b", "c"], "appended after, not over")
    }

    @Test func theFirstEntryIsReadFromTheFirstLine() throws {
        let f = try Fixture()
        defer { f.close() }
        let log = try f.open()
        #expect(log.firstEntry() == nil, "an empty log has none")
        try log.append([Self.grade("first", seconds: 5), Self.grade("second", seconds: 9)])
        #expect(log.firstEntry() == Self.grade("first", seconds: 5))
    }

    @Test func aDamagedFirstLineGivesNoFirstEntry() throws {
        let f = try Fixture()
        defer { f.close() }
        try f.replace(with: Array("not a line\n".utf8) + Self.line(Self.grade("a")))
        let log = try f.open()
        #expect(log.firstEntry() == nil)
        #expect(try log.entries(from: 0).map(\.entry.id) == ["a"])
    }

    // MARK: Durable appends and the journal

    /// docs/store-format.md: a prepared change is in the journal, not yet in the log; `commit`
    /// writes its lines once its renames are done.
    @Test func aPreparedAppendReachesTheLogAtCommit() throws {
        let f = try Fixture()
        defer { f.close() }
        let log = try f.open()
        try log.append([Self.grade("before")])
        let pending = try log.prepare([Self.grade("a")])
        #expect(try log.entries(from: 0).map(\.entry.id) == ["before"])
        try log.commit(pending)
        #expect(try log.entries(from: 0).map(\.entry.id) == ["before", "a"])
        #expect(f.dir.exists("journal"))
    }

    /// A crash between the journal and the log: the next open writes the lines in.
    @Test func aPreparedAppendACrashCutOffIsWrittenInAtTheNextOpen() throws {
        let f = try Fixture()
        defer { f.close() }
        do {
            let log = try f.open()
            try log.append([Self.grade("a")])
            _ = try log.prepare([Self.grade("b"), Self.grade("c")])
        }
        #expect(f.bytes == Self.line(Self.grade("a")), "the crash left the log without b and c")
        let reopened = try f.open()
        #expect(try reopened.entries(from: 0).map(\.entry.id) == ["a", "b", "c"])
    }

    /// docs/rules.md, R16: a change that failed appends nothing, now or at the next open.
    @Test func aWithdrawnAppendLeavesNoTrace() throws {
        let f = try Fixture()
        defer { f.close() }
        do {
            let log = try f.open()
            try log.append([Self.grade("a")])
            let pending = try log.prepare([Self.grade("failed")])
            log.withdraw(pending)
            #expect(try log.entries(from: 0).map(\.entry.id) == ["a"])
        }
        let reopened = try f.open()
        #expect(try reopened.entries(from: 0).map(\.entry.id) == ["a"])
        #expect(reopened.unfinishedIntents.isEmpty)
    }

    /// A batch larger than the journal goes into the log directly, synced; `commit` must not
    /// write it a second time, and `withdraw` cuts it off again.
    @Test func aBatchTooLargeForTheJournalIsWrittenOnce() throws {
        let f = try Fixture()
        defer { f.close() }
        let log = try f.open()
        try log.append([Self.grade("a")])
        let sizeBefore = log.size
        let batch = (0..<1500).map { Self.grade("card-\($0)", seconds: Int64($0)) }
        let batchSize = batch.flatMap(Self.line).count
        #expect(batchSize > Journal.capacity)
        let roomForBatch = log.hasRoom(for: ReviewLog.Change(batch))
        #expect(!roomForBatch)
        #expect(log.hasRoom(for: ReviewLog.Change([Self.grade("b")])))

        let pending = try log.prepare(batch)
        #expect(try log.entries(from: 0).count == 1501, "written before commit")
        try log.commit(pending)
        #expect(try log.entries(from: 0).count == 1501, "not twice")
        #expect(log.size == sizeBefore + batchSize)

        let again = try log.prepare(batch)
        #expect(try log.entries(from: 0).count == 3001)
        log.withdraw(again)
        #expect(try log.entries(from: 0).count == 1501)
        #expect(log.size == sizeBefore + batchSize)
        #expect(f.bytes.count == sizeBefore + batchSize)
    }

    /// Refused changes stay refused, with the reason, and nothing more reaches the log.
    @Test func afterARefusalNothingIsAppended() throws {
        let f = try Fixture()
        defer { f.close() }
        let log = try f.open()
        try log.append([Self.grade("a")])
        log.refuseChanges("the journal could not be written")
        try log.append([Self.grade("ignored")])
        do {
            _ = try log.prepare([Self.grade("refused")])
            Issue.record("prepared after a refusal")
        } catch {
            guard case .storeFailure(let path, let reason, _, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(path == f.logPath)
            #expect(reason.hasPrefix("the journal could not be written"))
        }
        #expect(try log.entries(from: 0).map(\.entry.id) == ["a"])
    }

    // MARK: Errors

    /// docs/store-format.md: a `StoreFailure` names the path and the reason.
    @Test func aFailedAppendNamesTheLogAndLeavesItAsItWas() throws {
        let f = try Fixture()
        defer { f.close() }
        let log = try f.open()
        try log.append([Self.grade("a")])
        let before = f.bytes

        CrashPoint.arm(after: 1)
        defer { CrashPoint.disarm() }
        do {
            try log.append([Self.grade("lost")])
            Issue.record("appended past the crash")
        } catch {
            #expect(error == .storeFailure(path: f.logPath, reason: "cannot append: simulated crash",
                                           errno: CrashPoint.crashed.rawValue, operation: "append"))
        }
        CrashPoint.disarm()
        #expect(f.bytes == before)
        #expect(log.size == before.count)
        try log.append([Self.grade("b")])
        #expect(try log.entries(from: 0).map(\.entry.id) == ["a", "b"], "nothing of the failed append in between")
    }

    /// docs/rules.md, R22: a link is never followed, not even for the log.
    @Test func aLogThatIsALinkIsRefused() throws {
        let f = try Fixture()
        defer { f.close() }
        f.dir.write("elsewhere", "")
        #expect(symlink(f.dir.path + "/elsewhere", f.logPath) == 0)
        #expect(throws: BoxError.storeFailure(path: f.logPath, reason: "cannot open: Too many levels of symbolic links",
                                                    errno: ELOOP, operation: "open")) {
            try f.open()
        }
    }

    @Test func aLogThatIsADirectoryIsRefused() throws {
        let f = try Fixture()
        defer { f.close() }
        #expect(mkdir(f.logPath, 0o755) == 0)
        #expect(throws: BoxError.storeFailure(path: f.logPath, reason: "cannot open: Is a directory", errno: EISDIR, operation: "open")) {
            try f.open()
        }
    }

    @Test func aLogRemovedUnderTheBoxCannotBeRead() throws {
        let f = try Fixture()
        defer { f.close() }
        let log = try f.open()
        try log.append([Self.grade("a")])
        #expect(unlink(f.logPath) == 0)
        let expected = BoxError.storeFailure(path: f.logPath, reason: "cannot read: No such file or directory",
                                            errno: ENOENT, operation: "read")
        #expect(throws: expected) { try log.entries(from: 0) }
        #expect(throws: expected) { try log.damagedLines() }
    }

    // MARK: Damaged and cut-off lines

    /// `doctor` reports these (docs/store-format.md): numbered from 1, with the start of the text.
    @Test func damagedLinesAreNumberedWithTheirText() throws {
        let f = try Fixture()
        defer { f.close() }
        let long = "x" + String(repeating: "0123456789", count: 10)
        var bytes = Self.line(Self.grade("a"))
        bytes += Array("junk\n".utf8)
        bytes += Self.line(Self.grade("b"))
        bytes += Array("\n".utf8)
        bytes += Array((long + "\n").utf8)
        bytes += Self.line(Self.grade("c"))
        try f.replace(with: bytes)
        let log = try f.open()

        let damaged = try log.damagedLines()
        #expect(damaged.map(\.line) == [2, 4, 5])
        #expect(damaged.map(\.text) == ["junk", "", String(long.prefix(60))])
        // The same lines are left out of the history, and the offsets of the rest stay exact.
        let entries = try log.entries(from: 0)
        #expect(entries.map(\.entry.id) == ["a", "b", "c"])
        #expect(entries.last?.end == bytes.count)
    }

    @Test func aWellFormedLogHasNoDamagedLines() throws {
        let f = try Fixture()
        defer { f.close() }
        let log = try f.open()
        #expect(try log.damagedLines().isEmpty, "nor has an empty one")
        try log.append((0..<50).map { Self.grade("g\($0)") })
        #expect(try log.damagedLines().isEmpty)
    }

    /// The text is cut at 60 bytes, even inside a character, whose remains show as U+FFFD.
    @Test func theTextOfADamagedLineIsCutAtSixtyBytes() throws {
        let f = try Fixture()
        defer { f.close() }
        try f.replace(with: Array(("a" + String(repeating: "猫", count: 30) + "\n").utf8))
        let log = try f.open()
        let damaged = try log.damagedLines()
        #expect(damaged.map(\.line) == [1])
        #expect(damaged.first?.text == "a" + String(repeating: "猫", count: 19) + "\u{FFFD}")
    }

    /// A crash can cut the last write short: a last line without its newline is not an entry, and
    /// is cut off so that the next line does not run on from it.
    @Test func aLastLineWithoutItsNewlineIsLeftOutAndCutOff() throws {
        let f = try Fixture()
        defer { f.close() }
        let whole = Self.line(Self.grade("a"))
        let cut = Array(Self.line(Self.grade("b")).dropLast())
        try f.replace(with: whole + cut)
        let log = try f.open()

        #expect(try log.entries(from: 0).map(\.entry.id) == ["a"])
        #expect(f.bytes == whole)
        #expect(log.size == whole.count)
        try log.append([Self.grade("c")])
        #expect(try log.entries(from: 0).map(\.entry.id) == ["a", "c"])
        #expect(try log.damagedLines().isEmpty)
    }

    /// Until it is cut off, `doctor` counts the unfinished line as a line of its own.
    @Test func anUnfinishedLastLineIsCheckedToo() throws {
        let f = try Fixture()
        defer { f.close() }
        try f.replace(with: Self.line(Self.grade("a")) + Array("half a li".utf8))
        let log = try f.open()
        let damaged = try log.damagedLines()
        #expect(damaged.map(\.line) == [2])
        #expect(damaged.map(\.text) == ["half a li"])
    }

    // MARK: Large logs, read in 1 MiB pieces

    /// A good line across the boundary of two pieces is one good line, not two broken halves.
    @Test func aGoodLineAcrossAPieceBoundaryIsNotDamaged() throws {
        let f = try Fixture()
        defer { f.close() }
        let (head, count) = Self.lines(totalling: Self.piece - 40)
        let crossing = Self.line(Self.grade("crossing", seconds: 100_000))
        #expect(crossing.count > 40)
        try f.replace(with: head + crossing + Array("junk\n".utf8))
        let log = try f.open()

        let damaged = try log.damagedLines()
        #expect(damaged.map(\.line) == [count + 2])
        #expect(damaged.map(\.text) == ["junk"])
        let entries = try log.entries(from: 0)
        #expect(entries.count == count + 1)
        #expect(entries.last?.entry.id == "crossing")
    }

    @Test func aDamagedLineAcrossAPieceBoundaryIsReportedOnceWithItsStart() throws {
        let f = try Fixture()
        defer { f.close() }
        let (head, count) = Self.lines(totalling: Self.piece - 10)
        let bad = "this damaged line begins ten bytes before the piece ends and goes on"
        try f.replace(with: head + Array((bad + "\n").utf8) + Self.line(Self.grade("after")))
        let log = try f.open()

        let damaged = try log.damagedLines()
        #expect(damaged.map(\.line) == [count + 1])
        #expect(damaged.map(\.text) == [String(bad.prefix(60))])
    }

    /// A piece ending exactly with a newline: the next line starts a piece of its own.
    @Test func aLineStartingExactlyAtAPieceBoundary() throws {
        let f = try Fixture()
        defer { f.close() }
        let (head, count) = Self.lines(totalling: Self.piece)
        try f.replace(with: head + Array("junk at the boundary\n".utf8) + Self.line(Self.grade("z")) + Array("x".utf8))
        let log = try f.open()
        let damaged = try log.damagedLines()
        #expect(damaged.map(\.line) == [count + 1, count + 3])
        #expect(damaged.map(\.text) == ["junk at the boundary", "x"])
    }

    /// A newline as the first byte of a piece ends the line the piece before carried.
    @Test func aNewlineAsTheFirstByteOfAPiece() throws {
        let f = try Fixture()
        defer { f.close() }
        let (head, count) = Self.lines(totalling: Self.piece - 4)
        try f.replace(with: head + Array("junk\n".utf8) + Array("tail\n".utf8))
        let log = try f.open()
        let damaged = try log.damagedLines()
        #expect(damaged.map(\.line) == [count + 1, count + 2])
        #expect(damaged.map(\.text) == ["junk", "tail"])
    }

    /// A line longer than two pieces (a file pasted into the log) is still one line.
    @Test func aLineSpanningThreePiecesIsOneLine() throws {
        let f = try Fixture()
        defer { f.close() }
        let (head, count) = Self.lines(totalling: 1000)
        let huge = [UInt8](repeating: UInt8(ascii: "q"), count: 2 * Self.piece + 500)
        try f.replace(with: head + huge + Array("\n".utf8) + Self.line(Self.grade("after")))
        let log = try f.open()
        let damaged = try log.damagedLines()
        #expect(damaged.map(\.line) == [count + 1])
        #expect(damaged.map(\.text) == [String(repeating: "q", count: 60)])
        #expect(try log.entries(from: 0).map(\.entry.id).last == "after")
    }

    /// Several pieces of good lines: every line is read once, none lost at a boundary.
    @Test func manyPiecesOfGoodLinesReadBackWhole() throws {
        let f = try Fixture()
        defer { f.close() }
        let (bytes, count) = Self.lines(totalling: 3 * Self.piece + 12_345)
        try f.replace(with: bytes)
        let log = try f.open()
        #expect(try log.damagedLines().isEmpty)
        let entries = try log.entries(from: 0)
        #expect(entries.count == count)
        #expect(entries.last?.end == bytes.count)
    }
}
