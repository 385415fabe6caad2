import Glibc
import Testing
@testable import LeitnerCore
@testable import LeitnerSystem
import LeitnerTestSupport

/// Every hand change made while no daemon ran is logged at the next start (R13, R16), whether or
/// not it touches the open test, found against where the log left each card (`LoggedLevels`,
/// `Store.changesWhileClosed`) — never by reading the whole log again.
@Suite struct LoggedLevelsTests {
    /// The lines the log holds about `id` found by hand, as `event from to`.
    static func handLines(_ f: BoxFixture, _ id: String) -> [String] {
        f.dir.logLines.filter { $0.count > 4 && $0[2] == id && $0.contains("origin=hand") }.map { "\($0[1]) \($0[3]) \($0[4])" }
    }

    /// A card moved by hand between two levels no test holds, while the daemon was stopped: the
    /// start logs the move (on main it logged nothing, the test being the same). So a browser's
    /// grade kept offline and given after the move is the newest event about the card and moves
    /// it from where the hand put it (R35, docs/sync.md), where before the copy the hand made
    /// was explained by no log and the card stayed.
    @Test func aHandMoveOutsideTheTestIsLoggedAndANewerKeptGradeMovesTheCard() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "b", id: "x", level: "5")
        try f.box.addText("c", "d", id: "y", level: "1")
        let test = try f.box.prepare().test
        #expect(!test.levels.contains(.five) && !test.levels.contains(.three))
        _ = try f.box.keepTest(device: BoxKeptGradeTests.phone)
        f.close()
        f.dir.move("5/x", "3/x")
        f.clock.advance(hours: 1)
        try f.reopen()
        #expect(Self.handLines(f, "x") == ["move 5 3"])
        f.clock.advance(hours: 1)
        let receipt = try f.box.takeKeptGrade(BoxKeptGradeTests.kept(1, "x", true, at: f.clock.now(), from: .five, position: nil))
        #expect(receipt.level == .six)
        #expect(f.dir.levelOnDisk("x") == ["6"])
        // The phone's grade older than the hand's move loses to it: the card stays.
        f.close()
        f.dir.move("6/x", "2/x")
        f.clock.advance(hours: 1)
        try f.reopen()
        let older = f.clock.now() - 30 * 60_000
        let second = try f.box.takeKeptGrade(BoxKeptGradeTests.kept(2, "x", false, at: older, from: .six, position: nil))
        #expect(second.level == .two)
        #expect(f.dir.levelOnDisk("x") == ["2"])
    }

    /// Cards made, moved and removed by hand while stopped, with no test open: each is logged
    /// once, as an add, a move or a delete from where the log last put it, and a second start
    /// logs nothing more.
    @Test func everyKindOfHandChangeIsLoggedOnce() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "b", id: "moved", level: "4")
        try f.box.addText("a", "b", id: "gone", level: "6")
        try f.box.addText("a", "b", id: "kept", level: "4")
        f.close()
        f.dir.move("4/moved", "finished/moved")
        f.dir.removeTree("6/gone")
        f.dir.writeCard("made", level: "suspended")
        try f.reopen()
        #expect(Self.handLines(f, "moved") == ["move 4 finished"])
        #expect(Self.handLines(f, "gone") == ["delete 6 -"])
        #expect(Self.handLines(f, "made") == ["add - suspended"])
        #expect(Self.handLines(f, "kept").isEmpty)
        let lines = f.dir.logLines.count
        try f.reopen()
        f.kill()
        try f.reopen()
        #expect(f.dir.logLines.count == lines, "\(f.dir.logLines.suffix(3))")
    }

    /// A card moved by hand after the daemon's last request and before it stopped, the move not
    /// taken in: the next start takes it in — logged, and the card leaves the open test (R8).
    /// Before, the stop's checkpoint recorded the levels with the move in them, and the start,
    /// finding them unchanged since, looked at nothing: the card stayed in the test from a level
    /// the test does not hold.
    @Test func aHandMoveJustBeforeTheStopIsTakenIn() throws {
        let f = try BoxFixture()
        for id in ["p", "q", "r"] { try f.box.addText(id, id, id: id, level: "1") }
        _ = try f.box.prepare()
        f.dir.move("1/q", "6/q")
        f.close()
        try f.reopen()
        #expect(Self.handLines(f, "q") == ["move 1 6"])
        #expect(!f.box.queueNow.contains("q"))
        #expect(try f.box.status().test.remaining == 2)
    }

    /// Killed (no stop, so no `logged-levels` since the last one): the lines the daemon logged
    /// since are where it left the cards — its own moves are no hand changes — and a hand move
    /// made after the kill is logged.
    @Test func afterAKillTheLinesSinceTheLastStopCount() throws {
        let f = try BoxFixture()
        for id in ["p", "q", "r"] { try f.box.addText(id, id, id: id, level: "1") }
        try f.reopen()
        _ = try f.box.prepare()
        _ = try f.box.grade(id: "p", correct: true, answerMs: 100)
        _ = try f.box.move(id: "q", level: "5")
        f.kill()
        f.dir.move("1/r", "3/r")
        try f.reopen()
        #expect(Self.handLines(f, "p").isEmpty && Self.handLines(f, "q").isEmpty)
        #expect(Self.handLines(f, "r") == ["move 1 3"])
    }

    /// Without `logged-levels` (a store from before it, or the file lost) the whole log says
    /// where each card was, once; the file is written then, so the next start does not read the
    /// log again.
    @Test func withoutTheFileTheWholeLogIsReadOnce() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "b", id: "x", level: "5")
        try f.box.addText("a", "b", id: "y", level: "2")
        f.close()
        f.dir.removeFile(TestBox.local + "/" + LoggedLevels.fileName)
        f.dir.move("5/x", "3/x")
        try f.reopen()
        #expect(Self.handLines(f, "x") == ["move 5 3"])
        #expect(Self.handLines(f, "y").isEmpty)
        #expect(f.dir.exists(TestBox.local + "/" + LoggedLevels.fileName))
    }

    /// A file whose section length is past any file (a damaged digit run, or one written by
    /// hand) is not taken and the whole log says where each card was, as for a missing file;
    /// the length overflowed as it was added to the position and trapped every open (review F2
    /// of session 12).
    @Test func aLengthPastAnyFileIsNotTaken() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "b", id: "x", level: "5")
        f.close()
        let path = f.dir.path + "/" + TestBox.local + "/" + LoggedLevels.fileName
        var lines = String(decoding: try FileSystem.readFile(atPath: path), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = try #require(lines.firstIndex { $0.hasPrefix("1 ") })
        let original = lines[first]
        var fields = original.split(separator: " ").map(String.init)
        fields[3] = String(Int.max)
        lines[first] = fields.joined(separator: " ")
        let damaged = Array(lines.joined(separator: "\n").utf8)
        #expect(LoggedLevels.decoded(damaged) == nil)
        // A count more ids than its section holds: not taken, and no index sized by it (it
        // aborted a start without local state; review F3 of session 12).
        var counted = lines
        var countFields = original.split(separator: " ").map(String.init)
        countFields[2] = String(Int.max / 4)
        counted[first] = countFields.joined(separator: " ")
        #expect(LoggedLevels.decoded(Array((lines[..<first] + [original] + lines[(first + 1)...]).joined(separator: "\n").utf8)) != nil)
        #expect(LoggedLevels.decoded(Array(counted.joined(separator: "\n").utf8)) == nil)
        f.dir.write(TestBox.local + "/" + LoggedLevels.fileName, String(decoding: damaged, as: UTF8.self))
        f.dir.move("5/x", "3/x")
        try f.reopen()
        #expect(Self.handLines(f, "x") == ["move 5 3"])
    }

    /// The start reads the log only from where `logged-levels` was made, and only the levels
    /// whose directory changed: a line before that offset, rewritten to put a card elsewhere, is
    /// not read (read, it would have the card in level 7 and log a move of it to 4).
    @Test func onlyTheLinesSinceTheFileAreRead() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "b", id: "z", level: "4")
        try f.box.addText("a", "b", id: "w", level: "4")
        for id in (0..<10).map({ "pad\($0)" }) { try f.box.addText(id, id, id: id, level: "2") }
        f.close()
        let log = f.dir.read(TestBox.log)
        let rewritten = log.replacingFirst("\tz\t-\t4", with: "\tz\t-\t7")
        #expect(rewritten != log)
        f.dir.write(TestBox.log, rewritten)
        f.dir.move("4/w", "3/w")
        try f.reopen()
        #expect(Self.handLines(f, "w") == ["move 4 3"])
        #expect(Self.handLines(f, "z").isEmpty, "\(f.dir.logLines.suffix(3))")
    }

    /// A log replaced since the file was made (another history put back) is not the one it
    /// describes: the whole log is read instead.
    @Test func aReplacedLogIsReadWhole() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "b", id: "x", level: "5")
        for id in (0..<10).map({ "pad\($0)" }) { try f.box.addText(id, id, id: id, level: "2") }
        f.close()
        let log = f.dir.read(TestBox.log)
        f.dir.write(TestBox.log, log.replacingFirst("\tx\t-\t5", with: "\tx\t-\t6"))
        f.dir.write(TestBox.log, f.dir.read(TestBox.log).replacingFirst("\tpad9\t-\t2", with: "\tpad9\t-\t3"))
        f.dir.move("5/x", "4/x")
        try f.reopen()
        #expect(Self.handLines(f, "x") == ["move 6 4"])
        #expect(Self.handLines(f, "pad9") == ["move 3 2"])
    }
}
