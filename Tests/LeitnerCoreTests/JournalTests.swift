import Glibc
import Testing
@testable import LeitnerCore

/// R17, R18: `.leitner/journal` makes the review log's newest lines durable; at open its records
/// are written back into the log. The records' framing decides what counts after a crash.
@Suite struct JournalTests {
    /// A journal in a fresh directory, and the directory.
    func makeJournal() throws -> (Journal, TemporaryDirectory, FileDescriptor) {
        let dir = TemporaryDirectory()
        let fd = try FileDescriptor.openDirectory(dir.path)
        return (try Journal(stateDirectory: fd, statePath: dir.path), dir, fd)
    }

    func record(_ text: String, at offset: Int) -> Journal.Record {
        Journal.Record(logOffset: offset, bytes: Array(text.utf8))
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

    @Test func recordsComeBackInOrder() throws {
        let (journal, dir, fd) = try makeJournal()
        defer { fd.close(); dir.remove() }
        let records = [record("one\n", at: 100), record("two\nthree\n", at: 104), record("four\n", at: 114)]
        for each in records { #expect(try journal.record(each)) }
        #expect(Journal.records(stateDirectory: fd) == records)
        #expect(fileSize(dir.path + "/journal") == Journal.capacity, "written in place, never grown")
    }

    /// A record a crash tore (its checksum fails) ends the records: it was never acknowledged.
    @Test func aTornRecordEndsTheRecords() throws {
        let (journal, dir, fd) = try makeJournal()
        defer { fd.close(); dir.remove() }
        _ = try journal.record(record("one\n", at: 0))
        _ = try journal.record(record("two\n", at: 4))
        try scribble(dir, at: 2 * Journal.headerSize + 4 + 1, Array("X".utf8))
        #expect(Journal.records(stateDirectory: fd) == [record("one\n", at: 0)])
    }

    /// After a start-over, records of the earlier round that follow the new ones are left over
    /// (they do not continue the log where the new ones end) and are not read.
    @Test func leftoversOfAnEarlierRoundAreNotRead() throws {
        let (journal, dir, fd) = try makeJournal()
        defer { fd.close(); dir.remove() }
        _ = try journal.record(record("old1\n", at: 0))
        _ = try journal.record(record("old2\n", at: 5))
        try journal.startOver()
        #expect(Journal.records(stateDirectory: fd).isEmpty)
        // Same length as old1, so old2's intact header follows it directly.
        _ = try journal.record(record("new1\n", at: 10))
        #expect(Journal.records(stateDirectory: fd) == [record("new1\n", at: 10)])
    }

    @Test func aRecordThatDoesNotFitIsRefusedAndNothingWritten() throws {
        let (journal, dir, fd) = try makeJournal()
        defer { fd.close(); dir.remove() }
        _ = try journal.record(record("one\n", at: 0))
        let big = Journal.Record(logOffset: 4, bytes: [UInt8](repeating: 65, count: Journal.capacity))
        #expect(try journal.record(big) == false)
        #expect(Journal.records(stateDirectory: fd) == [record("one\n", at: 0)])
        try journal.startOver()
        #expect(try journal.record(record("two\n", at: 4)), "room again after a start-over")
    }

    @Test func aWithdrawnRecordDoesNotCount() throws {
        let (journal, dir, fd) = try makeJournal()
        defer { fd.close(); dir.remove() }
        _ = try journal.record(record("one\n", at: 0))
        _ = try journal.record(record("two\n", at: 4))
        try journal.withdrawLast()
        #expect(Journal.records(stateDirectory: fd) == [record("one\n", at: 0)])
        _ = try journal.record(record("2\n", at: 4))
        #expect(Journal.records(stateDirectory: fd) == [record("one\n", at: 0), record("2\n", at: 4)])
    }

    /// A journal of the wrong size (cut by hand, or from another version) is made anew.
    @Test func aJournalOfTheWrongSizeIsMadeAnew() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.write("journal", "not a journal")
        let fd = try FileDescriptor.openDirectory(dir.path)
        defer { fd.close() }
        let journal = try Journal(stateDirectory: fd, statePath: dir.path)
        #expect(try journal.record(record("one\n", at: 0)))
        #expect(fileSize(dir.path + "/journal") == Journal.capacity)
    }

    // MARK: The box

    /// What a power loss can take: the log's bytes after the last checkpoint (never synced
    /// there), and renames not yet committed by the file system. Grades acknowledged before it
    /// are all back after the next open (R17), each card in one level (R18).
    @Test func r17GradesSurviveALostLogTailAndLostRenames() throws {
        let f = try BoxFixture()
        for name in ["a", "b", "c", "d"] { try f.box.addText(name, name.uppercased(), id: name) }
        try f.reopen() // a checkpoint: the log is synced up to here
        let checkpoint = Int(f.dir.read(".leitner/checkpoint").split(separator: "\n")[0])!
        _ = try f.box.prepare()
        for id in ["a", "b", "c"] { _ = try f.box.grade(id: id, correct: id != "b", answerMs: 700) }
        let logAfterGrades = f.dir.read(".leitner/log")
        CrashPoint.arm(after: 1)
        f.close() // a crash: nothing more is written
        CrashPoint.disarm()

        #expect(truncate(f.dir.path + "/.leitner/log", off_t(checkpoint)) == 0)
        f.dir.move("2/a", "1/a")
        f.dir.move("2/c", "1/c")
        try f.reopen()

        #expect(f.dir.read(".leitner/log").hasPrefix(logAfterGrades), "the lost lines are back, in place")
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
        CrashPoint.arm(after: 1)
        f.close()
        CrashPoint.disarm()
        f.dir.write(".leitner/log", "")
        try f.reopen()
        let log = f.dir.read(".leitner/log")
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
