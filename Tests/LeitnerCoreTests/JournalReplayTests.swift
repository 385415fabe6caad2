import Glibc
import Testing
@testable import LeitnerCore
@testable import LeitnerSystem

/// What the next open does with the journal after a kill (R13, R16, R18): a rename the kill cut
/// off is redone; a hand move made after the change is kept, whether the daemon saw it or not; a
/// line a person writes into the log moves nothing; a change that failed leaves no trace.
@Suite struct JournalReplayTests {
    /// Two cards in level 1 and today's test open.
    func fixture() throws -> BoxFixture {
        let f = try BoxFixture()
        try f.box.addText("uno", "one", id: "uno")
        try f.box.addText("dos", "two", id: "dos")
        _ = try f.box.prepare()
        return f
    }

    /// Waits past the file system's timestamp granularity (a jiffy), so that a change made now has
    /// a later change time than one made before.
    func tick() { usleep(20_000) }

    /// The scenario of the report: grade (1 → 2), `mv` back by hand, kill before any checkpoint.
    @Test func r13AHandMoveBackAfterAGradeSurvivesAKill() throws {
        let f = try fixture()
        #expect(try f.box.grade(id: "uno", correct: true, answerMs: 10).card.level == .two)
        f.dir.move("2/uno", "1/uno")
        f.kill()
        try f.reopen()
        #expect(f.dir.levelOnDisk("uno") == ["1"], "the hand's move stands")
        #expect(try f.box.show(id: "uno").level == .one)
        f.kill()
        try f.reopen()
        #expect(f.dir.levelOnDisk("uno") == ["1"], "and a second kill and open change nothing")
    }

    /// The same when the daemon saw the hand move (and logged it) before it was killed.
    @Test func r13AHandMoveTheDaemonSawSurvivesAKill() throws {
        let f = try fixture()
        _ = try f.box.grade(id: "uno", correct: true, answerMs: 10)
        f.dir.move("2/uno", "1/uno")
        #expect(try f.box.status().counts[.one] == 2)
        #expect(f.dir.logLines.last?.last == "origin=hand")
        f.kill()
        try f.reopen()
        #expect(f.dir.levelOnDisk("uno") == ["1"])
    }

    /// Killed after the journal took a grade and before its rename: the next open carries the
    /// rename out (the state after), and the log and the test have the grade.
    @Test func r18ARenameCutOffIsRedone() throws {
        let f = try fixture()
        CrashPoint.arm(after: 3) // the journal's write and sync; the rename is the third step
        #expect(throws: BoxError.self) { try f.box.grade(id: "uno", correct: true, answerMs: 10) }
        f.kill()
        CrashPoint.disarm()
        #expect(f.dir.levelOnDisk("uno") == ["1"])
        try f.reopen()
        #expect(f.dir.levelOnDisk("uno") == ["2"])
        #expect(f.dir.logLines.contains { $0[1] == "grade" && $0[2] == "uno" })
        #expect(try f.box.status().test.passed == 1)
    }

    /// Killed in the same place, then a person moves the card before the next open: to another
    /// level, or away and back to the level it had (its change time tells). The hand wins.
    @Test(arguments: [false, true])
    func r13AHandMoveInTheGapOfACutOffRenameIsKept(backAgain: Bool) throws {
        let f = try fixture()
        CrashPoint.arm(after: 3)
        #expect(throws: BoxError.self) { try f.box.grade(id: "uno", correct: true, answerMs: 10) }
        f.kill()
        CrashPoint.disarm()
        tick()
        f.dir.move("1/uno", "4/uno")
        if backAgain { f.dir.move("4/uno", "1/uno") }
        try f.reopen()
        #expect(f.dir.levelOnDisk("uno") == [backAgain ? "1" : "4"])
    }

    /// A well-formed grade line written into the log by hand is history, not an instruction: the
    /// card stays where it is, after a clean restart and after a kill.
    @Test(arguments: [false, true])
    func r16AHandWrittenLogLineMovesNothing(killed: Bool) throws {
        let f = try fixture()
        let time = f.dir.logLines.last![0]
        let line = [time, "grade", "uno", "1", "7", "correct", "100"].joined(separator: "\t") + "\n"
        if killed { f.kill() } else { f.close() }
        f.dir.write(".leitner/devices/here/log", f.dir.read(".leitner/devices/here/log") + line)
        try f.reopen()
        #expect(f.dir.levelOnDisk("uno") == ["1"])
        #expect(try f.box.show(id: "uno").level == .one)
    }

    /// A move whose rename fails (the name is taken in the target level) answers the error and
    /// leaves nothing: no log line, no journal record for the next open to redo.
    @Test func r16AFailedMoveLeavesNoTrace() throws {
        let f = try fixture()
        f.dir.write("5/uno", "a file where the card would go")
        let log = f.dir.read(".leitner/devices/here/log")
        expectBoxError({ try f.box.move(id: "uno", level: "5") }) {
            if case .storeFailure(let path, let reason, _, _) = $0 { return path.hasSuffix("/1/uno") && reason.contains("exists") }
            return false
        }
        #expect(f.dir.read(".leitner/devices/here/log") == log, "no line for a move that did not happen")
        #expect(try f.box.show(id: "uno").level == .one)
        f.kill()
        f.dir.removeFile("5/uno")
        try f.reopen()
        #expect(f.dir.levelOnDisk("uno") == ["1"], "not carried out by the next open either")
        #expect(!f.dir.read(".leitner/devices/here/log").contains("\tmove\tuno\t"))
    }

    /// A damaged card (a front that links out of the store) is refused before anything is done
    /// (R21): not moved, not logged.
    @Test func r21ADamagedCardIsNeverMoved() throws {
        let f = try fixture()
        f.dir.removeFile("1/uno/front.txt")
        f.dir.symlink("/etc/hostname", at: "1/uno/front.txt")
        let log = f.dir.read(".leitner/devices/here/log")
        expectBoxError({ try f.box.move(id: "uno", level: "3") }) {
            if case .storeFailure(let path, _, _, _) = $0 { return path.hasSuffix("/1/uno") }
            return false
        }
        #expect(f.dir.levelOnDisk("uno") == ["1"])
        #expect(f.dir.read(".leitner/devices/here/log") == log)
    }

    /// Undo of a grade whose card was damaged since is refused; nothing changes.
    @Test func r21UndoOfADamagedCardIsRefused() throws {
        let f = try fixture()
        _ = try f.box.grade(id: "uno", correct: true, answerMs: 10)
        f.dir.removeFile("2/uno/back.txt")
        let log = f.dir.read(".leitner/devices/here/log")
        #expect(throws: BoxError.self) { try f.box.undo() }
        #expect(f.dir.levelOnDisk("uno") == ["2"])
        #expect(f.dir.read(".leitner/devices/here/log") == log)
    }
}

/// A level directory replaced while the box is open (by a file, or moved away): the box keeps
/// serving, refuses that level with a reason, never uses a closed descriptor, and takes the
/// level back once it is a directory again.
@Suite struct LevelReplacedTests {
    @Test func aLevelThatIsNoLongerADirectoryIsRefusedUntilItIsOneAgain() throws {
        let f = try BoxFixture()
        for id in ["c0", "c1", "c2"] { try f.box.addText(id, id, id: id) }
        f.dir.move("7", "seven-away")
        f.dir.write("7", "x")
        let status = try f.box.status()
        #expect(status.counts[.one] == 3)
        #expect(status.problems >= 1)
        #expect(try f.box.doctor().contains { $0.path.hasSuffix("/7") })
        let log = f.dir.read(".leitner/devices/here/log")
        expectBoxError({ try f.box.move(id: "c0", level: "7") }) {
            if case .storeFailure(let path, _, _, _) = $0 { return path.hasSuffix("/7") }
            return false
        }
        #expect(f.dir.read(".leitner/devices/here/log") == log, "nothing written for the refused move")
        #expect(f.dir.levelOnDisk("c0") == ["1"])
        // A descriptor number freed by the old level, reused by a directory opened now, must not
        // be taken for level 7: `finished` is removed and made again by the box.
        f.dir.removeTree("finished")
        _ = try f.box.status()
        expectBoxError({ try f.box.move(id: "c1", level: "7") }) { if case .storeFailure = $0 { return true } else { return false } }
        #expect(f.dir.levelOnDisk("c1") == ["1"])
        #expect(try f.box.move(id: "c1", level: "finished").level == .finished)
        #expect(f.dir.levelOnDisk("c1") == ["finished"])

        f.dir.removeFile("7")
        f.dir.move("seven-away", "7")
        #expect(try f.box.move(id: "c0", level: "7").level == .seven)
        #expect(f.dir.levelOnDisk("c0") == ["7"])
        #expect(try f.box.doctor().allSatisfy { !$0.path.hasSuffix("/7") })
        f.close()
    }

    /// Closing (the checkpoint syncs every level directory) with a level replaced does not fail
    /// on it, and the next open reports the level, with its path, rather than crashing.
    @Test func closingWithALevelReplacedSyncsTheOthers() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a")
        f.dir.move("3", "three-away")
        f.dir.write("3", "x")
        _ = try f.box.status()
        f.close()
        #expect(throws: BoxError.self) { try f.reopen() }
        f.dir.removeFile("3")
        f.dir.move("three-away", "3")
        try f.reopen()
        #expect(try f.box.show(id: "a").level == .one)
    }
}
