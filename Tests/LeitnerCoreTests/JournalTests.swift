import Glibc
import Testing
@testable import LeitnerCore
@testable import LeitnerSystem
import LeitnerTestSupport

/// R17, R18: `.leitner/local.here/journal` makes the review log's newest lines durable; at open its records
/// are written back into the log. The records' framing decides what counts after a crash.
@Suite struct JournalTests {
    /// A journal in a fresh directory, and the directory.
    func makeJournal() throws -> (Journal, TemporaryDirectory, FileDescriptor) {
        let dir = TemporaryDirectory()
        let fd = try FileDescriptor.openDirectory(dir.path)
        return (try Journal(stateDirectory: fd, statePath: dir.path), dir, fd)
    }

    /// What a journal opened now on `fd` would find: (log offset, log text, intent text) per record.
    func found(_ fd: FileDescriptor, _ path: String) throws -> [(Int, String, String)] {
        try Journal(stateDirectory: fd, statePath: path).recovered.map {
            ($0.logOffset, String(decoding: $0.logBytes, as: UTF8.self), String(decoding: $0.intent, as: UTF8.self))
        }
    }

    func write(_ journal: Journal, _ text: String, at offset: Int, intent: String = "") throws {
        try journal.record(logOffset: offset, logBytes: Array(text.utf8), intent: Array(intent.utf8))
    }

    /// Overwrites bytes of the journal file in place, as a torn write or stray bytes would.
    func scribble(_ dir: TemporaryDirectory, at offset: Int, _ bytes: [UInt8]) throws {
        let fd = try FileDescriptor.open(dir.path + "/journal", flags: O_WRONLY)
        defer { fd.close() }
        try fd.writeAll(bytes, at: offset)
    }

    func fileSize(_ path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : -1
    }

    @Test func recordsComeBackInOrderWithTheirIntents() throws {
        let (journal, dir, fd) = try makeJournal()
        defer { fd.close(); dir.remove() }
        try write(journal, "one\n", at: 100, intent: "move\ta\t1\t2\t7:9\n")
        try write(journal, "two\nthree\n", at: 104)
        try write(journal, "four\n", at: 114, intent: "add\tadd-b\tb\t1\n")
        let records = try found(fd, dir.path)
        #expect(records.map(\.0) == [100, 104, 114])
        #expect(records.map(\.1) == ["one\n", "two\nthree\n", "four\n"])
        #expect(records.map(\.2) == ["move\ta\t1\t2\t7:9\n", "", "add\tadd-b\tb\t1\n"])
        #expect(fileSize(dir.path + "/journal") == Journal.capacity, "written in place, never grown")
    }

    /// New records follow the ones found at open (until a start-over), in one numbered chain.
    @Test func recordsWrittenAfterOpenContinueTheChain() throws {
        let (journal, dir, fd) = try makeJournal()
        defer { fd.close(); dir.remove() }
        try write(journal, "one\n", at: 0)
        let reopened = try Journal(stateDirectory: fd, statePath: dir.path)
        try write(reopened, "two\n", at: 4)
        #expect(try found(fd, dir.path).map(\.1) == ["one\n", "two\n"])
    }

    /// A record a crash tore (its checksum fails) ends the records: it was never acknowledged.
    @Test func aTornRecordEndsTheRecords() throws {
        let (journal, dir, fd) = try makeJournal()
        defer { fd.close(); dir.remove() }
        try write(journal, "one\n", at: 0)
        try write(journal, "two\n", at: 4)
        try scribble(dir, at: 2 * Journal.headerSize + 4 + 1, Array("X".utf8))
        #expect(try found(fd, dir.path).map(\.1) == ["one\n"])
    }

    /// After a start-over, records of the earlier round that follow the new ones are left over
    /// (their sequence numbers do not continue the new ones') and are not read.
    @Test func leftoversOfAnEarlierRoundAreNotRead() throws {
        let (journal, dir, fd) = try makeJournal()
        defer { fd.close(); dir.remove() }
        try write(journal, "old1\n", at: 0)
        try write(journal, "old2\n", at: 5)
        try journal.startOver()
        #expect(try found(fd, dir.path).isEmpty)
        // Same length as old1, so old2's intact header follows it directly; even its log offset
        // would continue the new record's.
        try write(journal, "new1\n", at: 0)
        #expect(try found(fd, dir.path).map(\.1) == ["new1\n"])
    }

    @Test func roomIsCheckedAndComesBackAfterAStartOver() throws {
        let (journal, dir, fd) = try makeJournal()
        defer { fd.close(); dir.remove() }
        try write(journal, "one\n", at: 0)
        #expect(!journal.hasRoom(logBytes: Journal.capacity - Journal.headerSize, intent: 0))
        try journal.startOver()
        #expect(journal.hasRoom(logBytes: Journal.capacity - Journal.headerSize, intent: 0), "room again after a start-over")
    }

    @Test func aWithdrawnRecordDoesNotCount() throws {
        let (journal, dir, fd) = try makeJournal()
        defer { fd.close(); dir.remove() }
        try write(journal, "one\n", at: 0)
        try write(journal, "two\n", at: 4)
        try journal.withdrawLast()
        #expect(try found(fd, dir.path).map(\.1) == ["one\n"])
        try write(journal, "2\n", at: 4)
        #expect(try found(fd, dir.path).map(\.1) == ["one\n", "2\n"])
    }

    /// A journal of the wrong size (cut by hand, or from another version) is made anew.
    @Test func aJournalOfTheWrongSizeIsMadeAnew() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.write("journal", "not a journal")
        let fd = try FileDescriptor.openDirectory(dir.path)
        defer { fd.close() }
        let journal = try Journal(stateDirectory: fd, statePath: dir.path)
        #expect(journal.recovered.isEmpty)
        try write(journal, "one\n", at: 0)
        #expect(fileSize(dir.path + "/journal") == Journal.capacity)
    }

    @Test func intentsRoundTrip() {
        let intents: [JournalIntent] = [
            .move(id: "猫", from: .one, to: .finished, guard: CardGuard(inode: 12, changed: 1_700_000_000_123_456_789)),
            .add(staged: "add-hola", id: "hola", to: .three),
            .delete(id: "b", from: .seven, guard: CardGuard(inode: 1, changed: 2), trashed: "b.12.400"),
            .addNote(staged: "note-katze", id: "katze"),
            .renameNote(id: "katze", to: "mieze", guard: CardGuard(inode: 3, changed: 4)),
            .deleteNote(id: "mieze", guard: CardGuard(inode: 5, changed: 6), trashed: "note-mieze.12.400"),
        ]
        #expect(JournalIntent.decode(JournalIntent.encode(intents)) == intents)
        #expect(JournalIntent.decode(Array("move\tx\t9\t2\t1:2\nbogus\n".utf8)).isEmpty, "level 9 and unknown lines are not intents")
    }

    /// The bytes on disk are the format docs/store-format.md gives, whatever builds them: a record
    /// written by one version is redone by the next.
    @Test func intentsAreWrittenInTheirFormat() {
        let intents: [JournalIntent] = [
            .move(id: "猫", from: .one, to: .finished, guard: CardGuard(inode: 12, changed: 1_700_000_000_123_456_789)),
            .edit(staged: "edit-b", id: "b", in: .new, guard: CardGuard(inode: 0, changed: -7)),
            .rename(id: "b", to: "c", in: .suspended, guard: CardGuard(inode: UInt64.max, changed: 0)),
            .add(staged: "add-hola", id: "hola", to: .three),
        ]
        let expected = "move\t猫\t1\tfinished\t12:1700000000123456789\n"
            + "edit\tedit-b\tb\tnew\t0:-7\n"
            + "rename\tb\tc\tsuspended\t18446744073709551615:0\n"
            + "add\tadd-hola\thola\t3\n"
        #expect(String(decoding: JournalIntent.encode(intents), as: UTF8.self) == expected)
        #expect(JournalIntent.decode(JournalIntent.encode(intents)) == intents)
    }

    // MARK: The box

    /// What a power loss can take from the log: its bytes after the last checkpoint (never synced
    /// there). Grades acknowledged before it are all back after the next open (R17), the lines
    /// in place, each card in one level (R18).
    @Test func r17GradesSurviveALostLogTail() throws {
        let f = try BoxFixture()
        for name in ["a", "b", "c", "d"] { try f.box.addText(name, name.uppercased(), id: name) }
        try f.reopen() // a checkpoint: the log is synced up to here
        let checkpoint = Int(f.dir.read(".leitner/local.here/checkpoint").split(separator: "\n")[0])!
        _ = try f.box.prepare()
        for id in ["a", "b", "c"] { _ = try f.box.grade(id: id, correct: id != "b", answerMs: 700) }
        let logAfterGrades = f.dir.read(".leitner/devices/here/log")
        f.kill()

        #expect(truncate(f.dir.path + "/.leitner/devices/here/log", off_t(checkpoint)) == 0)
        try f.reopen()

        #expect(f.dir.read(".leitner/devices/here/log").hasPrefix(logAfterGrades), "the lost lines are back, in place")
        #expect(f.dir.levelOnDisk("a") == ["2"])
        #expect(f.dir.levelOnDisk("b") == ["1"])
        #expect(f.dir.levelOnDisk("c") == ["2"])
        let test = try f.box.status().test
        #expect(test.passed == 2)
        #expect(test.failed == 1)
        #expect(test.remaining == 2, "d and b, graded wrong, are left")
    }

    /// A log replaced by a shorter one while no daemon ran: the journal's records belong to the
    /// old log and are not written into the new one.
    @Test func aReplacedLogIsNotPatchedWithTheOldJournal() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a")
        try f.reopen()
        try f.box.addText("b", "B", id: "b") // journaled past the end of the log that replaces it
        f.kill()
        f.dir.write(".leitner/devices/here/log", "")
        try f.reopen()
        let log = f.dir.read(".leitner/devices/here/log")
        #expect(!log.utf8.contains(0), "no hole of zeros before a record written past the end")
        #expect(!log.contains("\tadd\tb\t"))
        #expect(try f.box.show(id: "b").level == .one, "the card itself is there all the same")
    }

    /// The log's append fails after the journal took the record, and nothing can be written any
    /// more (not even to take the record back): further changes are refused with a reason, reads
    /// go on, and no line can come after the record the journal still holds. At the next open
    /// that record is the last word: the grade the client saw fail is carried out (R18: the
    /// state after, never a mix).
    @Test func aRecordThatCannotBeTakenBackStopsChanges() throws {
        let f = try BoxFixture()
        for name in ["a", "b"] { try f.box.addText(name, name.uppercased(), id: name) }
        _ = try f.box.prepare()
        CrashPoint.arm(after: 3) // journal write, journal sync, then the log's append fails
        #expect(throws: BoxError.self) { try f.box.grade(id: "a", correct: true, answerMs: 1) }
        CrashPoint.disarm()
        var refusal = "accepted"
        do { _ = try f.box.grade(id: "b", correct: true, answerMs: 1) } catch { refusal = "\(error)" }
        #expect(refusal.contains("restart the daemon"), "\(refusal)")
        #expect(try f.box.status().test.remaining == 2, "reads go on")
        try f.reopen()
        #expect(f.dir.levelOnDisk("a") == ["2"])
        #expect(f.dir.levelOnDisk("b") == ["1"])
        #expect(f.dir.logLines.last?[1] == "grade")
        #expect(try f.box.grade(id: "b", correct: true, answerMs: 1).card.level == .two, "changes again after the restart")
    }
}
