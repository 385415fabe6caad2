import Glibc
import Testing
@testable import LeitnerCore
@testable import LeitnerSystem
import LeitnerTestSupport

/// A review log or day record replaced under the box, as Unison and Syncthing replace a file (a
/// copy written beside it and renamed over it; docs/sync.md, "A file replaced under the daemon"):
/// noticed, reopened, appended to where the path points, and what was read from the old file
/// kept only as far as the new one shares it.
@Suite struct ReplacedFileTests {
    typealias R = ReviewLogTests

    /// What a sync tool does: writes `bytes` beside `path` and renames them over it.
    static func renameOver(_ path: String, _ bytes: [UInt8]) throws {
        let temporary = path + ".unison.tmp"
        let fd = try FileDescriptor.open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC)
        try fd.writeAll(bytes)
        fd.close()
        #expect(rename(temporary, path) == 0)
    }

    @Test func theBoxsOwnAppendsAreNoReplacement() throws {
        let f = try R.Fixture()
        defer { f.close() }
        let log = try f.open()
        #expect(!log.isReplaced())
        try log.append([R.grade("a")])
        try log.appendDurably([R.grade("b", seconds: 1)])
        #expect(!log.isReplaced())
        #expect(log.takeReplacement() == nil)
    }

    @Test func aCopyRenamedOverIsReopenedAndAppendedTo() throws {
        let f = try R.Fixture()
        defer { f.close() }
        let log = try f.open()
        try log.appendDurably([R.grade("a"), R.grade("b", seconds: 1)])
        let mine = f.bytes
        // The other machine's copy: the first line alike, then its own.
        let shared = R.line(R.grade("a")).count
        let theirs = R.line(R.grade("a")) + R.line(R.grade("elsewhere", seconds: 5))
        try Self.renameOver(f.logPath, theirs)
        #expect(mine != theirs)
        #expect(log.isReplaced())
        try log.reopen()
        #expect(!log.isReplaced())
        #expect(log.size == theirs.count && log.latestTime == R.time + 5000)
        // Bytes, not lines: the second lines begin alike too, and part of them is shared. Every
        // offset a cache keeps is a line's end, so one at or before it read the same bytes.
        let kept = try #require(log.takeReplacement())
        #expect(kept >= shared && kept < shared + R.line(R.grade("b", seconds: 1)).count)
        #expect(log.takeReplacement() == nil, "asked once")
        try log.appendDurably([R.grade("c", seconds: 9)])
        #expect(f.bytes == theirs + R.line(R.grade("c", seconds: 9)))
    }

    @Test func aLogRemovedOrChangedInPlaceIsFollowedToo() throws {
        let f = try R.Fixture()
        defer { f.close() }
        let log = try f.open()
        try log.appendDurably([R.grade("a")])
        let first = f.bytes
        // Appended to in place by another writer: the same file, a size the box did not write.
        let other = try FileDescriptor.open(f.logPath, flags: O_WRONLY | O_APPEND)
        try other.writeAll(R.line(R.grade("x", seconds: 3)))
        other.close()
        #expect(log.isReplaced())
        try log.reopen()
        #expect(log.takeReplacement() == first.count && log.size == first.count + R.line(R.grade("x", seconds: 3)).count)
        // Removed: a new, empty log is made, and nothing of the old one is kept.
        #expect(unlink(f.logPath) == 0)
        #expect(log.isReplaced())
        try log.reopen()
        #expect(log.size == 0 && log.latestTime == nil && log.takeReplacement() == 0)
        try log.appendDurably([R.grade("b", seconds: 4)])
        #expect(f.bytes == R.line(R.grade("b", seconds: 4)))
    }

    /// A crash after a sync tool renamed a copy over the log, before the daemon noticed: the
    /// journal's bytes belong to the old file and are not written into the copy at the next open.
    @Test func aJournalOfTheOldFileIsNotWrittenIntoItsReplacement() throws {
        let f = try R.Fixture()
        defer { f.close() }
        do {
            let log = try f.open()
            try log.appendDurably([R.grade("a"), R.grade("b", seconds: 1)])
            // Not checkpointed: the journal still holds the record when the log is dropped.
        }
        let theirs = R.line(R.grade("x", seconds: 7)) + R.line(R.grade("y", seconds: 8)) + R.line(R.grade("z", seconds: 9))
        try Self.renameOver(f.logPath, theirs)
        _ = try f.open()
        #expect(f.bytes == theirs)
    }

    /// The same crash with the log as the journal knows it, its last line lost: written again.
    @Test func aJournalOfTheSameFileIsStillWrittenBack() throws {
        let f = try R.Fixture()
        defer { f.close() }
        do {
            let log = try f.open()
            try log.appendDurably([R.grade("a"), R.grade("b", seconds: 1)])
        }
        let whole = f.bytes
        try f.replace(with: Array(whole.prefix(R.line(R.grade("a")).count + 5)))
        _ = try f.open()
        #expect(f.bytes == whole)
    }

    @Test func aDayRecordRenamedOverIsReadAgain() throws {
        let f = try R.Fixture()
        defer { f.close() }
        let file = try DayRecordFile(directory: f.stateDirectory, directoryPath: f.dir.path)
        var record = try file.load()
        #expect(!file.isReplaced())
        try file.append(DayRecord.Entry(date: LogicalDate("2026-03-02")!, outcome: .completed), to: &record)
        #expect(!file.isReplaced())
        try Self.renameOver(f.dir.path + "/days", Array("2026-03-01 completed\n2026-03-02 completed\n".utf8))
        #expect(file.isReplaced())
        record = try file.load()
        #expect(!file.isReplaced() && record.position == 2)
        try file.removeLast(from: &record)
        #expect(!file.isReplaced() && record.position == 1)
    }

    /// Through a box: the statistics' running totals and the open test follow a log replaced by
    /// one that differs before the test's first line.
    @Test func theBoxsTotalsAndTestFollowAReplacedLog() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a")
        try f.box.addText("b", "B", id: "b")
        _ = try f.box.prepare()
        let first = try f.box.next().card!.id
        _ = try f.box.grade(id: first, correct: true, answerMs: 100)
        #expect(try f.box.statistics(window: nil, leeches: nil).work.last!.reviews == 1)
        let path = f.dir.path + "/.leitner/devices/here/log"
        let adds = try FileSystem.readFile(atPath: path).split(separator: UInt8(ascii: "\n"))
            .filter { LogLine.parse($0)?.event == .add }
        // The other copy has the adds alone, in the other order: nothing in common before the test.
        try Self.renameOver(path, adds.reversed().flatMap { Array($0) + [UInt8(ascii: "\n")] })
        #expect(try f.box.statistics(window: nil, leeches: nil).work.last!.reviews == 0, "read afresh")
        let second = try f.box.next().card!.id
        #expect(second != first)
        _ = try f.box.grade(id: second, correct: true, answerMs: 100)
        #expect(try f.box.statistics(window: nil, leeches: nil).work.last!.reviews == 1)
        try f.reopen()
        #expect(try f.box.next().card == nil, "neither card is asked again after a restart")
        #expect(try f.box.status().test.passed == 1)
    }
}
