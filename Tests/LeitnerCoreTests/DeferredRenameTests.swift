import Testing
@testable import LeitnerCore

/// The daemon opens its box with `defersGradeRenames`: a grade's reply goes out once the journal
/// holds it (R17), and its card directory is renamed just after. Whatever comes next — the
/// daemon's finish, another call, a close, a crash — the card ends up in one level, the right one
/// (R18).
@Suite struct DeferredRenameTests {
    func fixtureWithAGrade() throws -> BoxFixture {
        let f = try BoxFixture(defersGradeRenames: true)
        try f.box.addText("uno", "one", id: "uno")
        try f.box.addText("dos", "two", id: "dos")
        _ = try f.box.prepare()
        let graded = try f.box.grade(id: "uno", correct: true, answerMs: 800)
        #expect(graded.card.level == .two)
        #expect(graded.card.front.path.hasSuffix("/2/uno/front.txt"), "the reply says where the card is going")
        #expect(f.dir.levelOnDisk("uno") == ["1"], "not renamed yet")
        return f
    }

    @Test func theDaemonsFinishRenamesIt() throws {
        let f = try fixtureWithAGrade()
        try f.box.finishDeferredWork()
        #expect(f.dir.levelOnDisk("uno") == ["2"])
        try f.box.finishDeferredWork()
        #expect(f.dir.levelOnDisk("uno") == ["2"], "a second finish has nothing to do")
    }

    /// Another client's call can reach the box before the daemon's finish: it finishes first, and
    /// the daemon's own rename is not taken for a hand move (no `origin=hand` line).
    @Test func theNextCallFinishesItFirst() throws {
        let f = try fixtureWithAGrade()
        #expect(try f.box.show(id: "uno").level == .two)
        #expect(f.dir.levelOnDisk("uno") == ["2"])
        _ = try f.box.status()
        #expect(!f.dir.read(".leitner/log").contains("origin=hand"))
        #expect(try f.box.next().card?.id == "dos")
    }

    @Test func closingFinishesIt() throws {
        let f = try fixtureWithAGrade()
        f.close()
        #expect(f.dir.levelOnDisk("uno") == ["2"])
    }

    /// Killed between the reply and the rename: the journal has the grade, so the next open
    /// carries the rename out, and the test knows the card was passed.
    @Test func r18AKillBeforeTheRenameIsRepaired() throws {
        let f = try fixtureWithAGrade()
        CrashPoint.arm(after: 1)
        f.close()
        CrashPoint.disarm()
        #expect(f.dir.levelOnDisk("uno") == ["1"])
        try f.reopen()
        #expect(f.dir.levelOnDisk("uno") == ["2"])
        let test = try f.box.status().test
        #expect(test.passed == 1)
        #expect(test.remaining == 1)
    }

    /// A hand that moves the card away in that instant (from where `ls` still showed it) makes
    /// the rename fail: the error names the card, and the next call finds the card where the
    /// hand put it (R13).
    @Test func aHandMoveInTheGapWins() throws {
        let f = try fixtureWithAGrade()
        f.dir.move("1/uno", "5/uno")
        #expect(throws: BoxError.self) { try f.box.finishDeferredWork() }
        #expect(try f.box.show(id: "uno").level == .five)
        #expect(f.dir.levelOnDisk("uno") == ["5"])
        #expect(f.dir.logLines.last?[1] == "move")
        #expect(f.dir.logLines.last?.last == "origin=hand")
    }

    /// A rename that fails with the card still where it was (a full or failing disk) is not a
    /// hand move: the grade stands, the card is read where it is, the rename is tried again by
    /// the next call, and no `origin=hand` line undoes it (R17).
    @Test func aFailedRenameIsTriedAgainNotUndone() throws {
        let f = try fixtureWithAGrade()
        CrashPoint.arm(after: 1)
        #expect(throws: BoxError.self) { try f.box.finishDeferredWork() }
        CrashPoint.disarm()
        #expect(f.dir.levelOnDisk("uno") == ["1"])
        let shown = try f.box.show(id: "uno") // tries the rename again, first
        #expect(shown.level == .two)
        #expect(f.dir.levelOnDisk("uno") == ["2"])
        #expect(!f.dir.read(".leitner/log").contains("origin=hand"))
        #expect(try f.box.status().test.passed == 1)
    }

    /// Still failing when the box closes: the checkpoint cannot pass the pending rename, so the
    /// journal still holds it, and the next open carries it out (R18).
    @Test func aRenameFailingUntilTheEndIsDoneAtTheNextOpen() throws {
        let f = try fixtureWithAGrade()
        CrashPoint.arm(after: 1)
        #expect(throws: BoxError.self) { try f.box.finishDeferredWork() }
        #expect(try f.box.show(id: "uno").front.text == "uno", "read from where it still is")
        f.close()
        CrashPoint.disarm()
        #expect(f.dir.levelOnDisk("uno") == ["1"])
        try f.reopen()
        #expect(f.dir.levelOnDisk("uno") == ["2"])
        #expect(try f.box.status().test.passed == 1)
        #expect(!f.dir.read(".leitner/log").contains("origin=hand"))
    }
}
