import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// R15: undo reverts the last grade of the current logical date — level, place at the front of
/// the queue, passed/failed mark, and a completion it recorded — and repeated undo walks back.
@Suite struct BoxUndoTests {
    /// A box with cards a…d in level 1 and today's [2,1] test open.
    func openTest() throws -> BoxFixture {
        let f = try BoxFixture()
        for id in ["a", "b", "c", "d"] { try f.box.addText(id, id, id: id) }
        _ = try f.box.prepare()
        return f
    }

    @Test func r15UndoRestoresLevelFrontAndMark() throws {
        let f = try openTest()
        let order = f.box.queueNow
        _ = try f.box.grade(id: order[2], correct: true, answerMs: nil)
        #expect(f.dir.levelOnDisk(order[2]) == ["2"])
        let undone = try f.box.undo()
        #expect(undone.card.id == order[2])
        #expect(undone.card.level == .one)
        #expect(f.dir.levelOnDisk(order[2]) == ["1"])
        #expect(undone.test.passed == 0)
        #expect(undone.test.remaining == 4)
        #expect(f.box.queueNow.first == order[2], "to the front of the queue")
        #expect(try f.box.next().card?.id == order[2])
    }

    @Test func r15UndoOfAWrongGrade() throws {
        let f = try BoxFixture(cycle: try CycleTable(parsing: "3,1"))
        try f.box.addText("x", "x", id: "x", level: "3")
        try f.box.addText("y", "y", id: "y")
        _ = try f.box.prepare()
        _ = try f.box.grade(id: "x", correct: false, answerMs: nil)
        #expect(f.dir.levelOnDisk("x") == ["1"])
        let undone = try f.box.undo()
        #expect(undone.card.level == .three)
        #expect(undone.test.failed == 0)
        #expect(f.box.queueNow == ["x", "y"])
        // No longer failed: moved out of the test's levels it leaves (R8), which a failed card would not.
        _ = try f.box.move(id: "x", level: "5")
        #expect(f.box.queueNow == ["y"])
    }

    @Test func r15RepeatedUndoWalksBackThenStops() throws {
        let f = try openTest()
        let order = f.box.queueNow
        _ = try f.box.grade(id: order[0], correct: true, answerMs: nil)
        _ = try f.box.grade(id: order[1], correct: false, answerMs: nil)
        _ = try f.box.grade(id: order[2], correct: true, answerMs: nil)
        #expect(try f.box.undo().card.id == order[2])
        #expect(try f.box.undo().card.id == order[1])
        #expect(try f.box.undo().card.id == order[0])
        #expect(f.box.queueNow == order, "each undone card back at the front, in the order graded")
        let status = try f.box.status().test
        #expect((status.remaining, status.passed, status.failed) == (4, 0, 0))
        let before = f.dir.snapshot()
        let log = f.dir.logSize
        expectBoxError(.nothingToUndo) { try f.box.undo() }
        #expect(f.dir.snapshot() == before)
        #expect(f.dir.logSize == log)
        #expect(["a", "b", "c", "d"].allSatisfy { f.dir.levelOnDisk($0) == ["1"] })
    }

    /// R15: undoing the grade that completed the test withdraws the completion; the test is open
    /// again and can be completed again the same day.
    @Test func r15UndoWithdrawsACompletion() throws {
        let f = try openTest()
        try f.box.passAll()
        #expect(f.dir.dayLines == ["2026-03-02 completed"])
        let undone = try f.box.undo()
        #expect(undone.test.state == .open)
        #expect(undone.test.remaining == 1)
        #expect(undone.test.position == 0)
        #expect(f.dir.dayLines.isEmpty)
        #expect(try f.box.status().test.state == .open)
        // And across a restart the completion stays withdrawn.
        try f.reopen()
        #expect(f.dir.dayLines.isEmpty)
        #expect(try f.box.status().test.remaining == 1)
        let last = try #require(try f.box.next().card)
        #expect(try f.box.grade(id: last.id, correct: true, answerMs: nil).test.state == .completed)
        #expect(f.dir.dayLines == ["2026-03-02 completed"])
    }

    @Test func r15UndoWorksAfterARestart() throws {
        let f = try openTest()
        let order = f.box.queueNow
        _ = try f.box.grade(id: order[0], correct: true, answerMs: nil)
        _ = try f.box.grade(id: order[1], correct: true, answerMs: nil)
        try f.reopen()
        #expect(try f.box.undo().card.id == order[1])
        try f.reopen()
        #expect(try f.box.undo().card.id == order[0])
        #expect(f.box.queueNow == order)
    }

    /// R15: only grades of the current logical date: neither yesterday's grade in a test carried
    /// over (R5), nor the grade that completed yesterday's test.
    @Test func r15OnlyTodaysGrades() throws {
        let f = try openTest()
        let order = f.box.queueNow
        _ = try f.box.grade(id: order[0], correct: true, answerMs: nil)
        f.clock.advance(days: 1) // the test is carried over (missed)
        expectBoxError(.nothingToUndo) { try f.box.undo() }
        _ = try f.box.grade(id: order[1], correct: true, answerMs: nil)
        #expect(try f.box.undo().card.id == order[1])
        expectBoxError(.nothingToUndo) { try f.box.undo() }
        #expect(f.dir.levelOnDisk(order[0]) == ["2"])
        try f.box.passAll()
        #expect(f.dir.dayLines == ["2026-03-03 completed"])
        f.clock.advance(days: 1)
        expectBoxError(.nothingToUndo) { try f.box.undo() }
        #expect(f.dir.dayLines == ["2026-03-03 completed"])
    }

    /// R15: the card returns to the level it had before the grade even when it was moved by hand
    /// after it.
    @Test func r15UndoAfterAHandMove() throws {
        let f = try openTest()
        let id = f.box.queueNow[0]
        _ = try f.box.grade(id: id, correct: true, answerMs: nil)
        f.dir.move("2/\(id)", "6/\(id)")
        let undone = try f.box.undo()
        #expect(undone.card.level == .one)
        #expect(f.dir.levelOnDisk(id) == ["1"])
        #expect(f.box.queueNow.first == id)
    }

    /// R15, R16: an undo is logged with the levels it moved the card between.
    @Test func r15UndoIsLoggedWithItsLevels() throws {
        let f = try openTest()
        let id = f.box.queueNow[0]
        _ = try f.box.grade(id: id, correct: true, answerMs: 900)
        _ = try f.box.undo()
        let last = try #require(f.dir.logLines.last)
        #expect(Array(last[1...4]) == ["undo", id, "2", "1"])
    }
}

/// R8, R15: a card moved into the levels of the test completed today is in that test's queue
/// when an undo reopens it — the same before and after a restart.
@Suite struct UndoReopensWithTheQueueR8DefinesTests {
    @Test func r15UndoAfterACardMovedInKeepsR8Membership() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let clock = ManualClock("2026-03-02")
        var box = try Box.open(dir, clock: clock)
        try box.addText("uno", "one", id: "uno")
        try box.addText("seis", "six", id: "seis", level: "6")
        _ = try box.prepare()
        #expect(try box.grade(id: "uno", correct: true, answerMs: 5).test.state == .completed)
        _ = try box.move(id: "seis", level: "1") // into the completed test's levels (2, 1)
        let reopened = try box.undo().test
        #expect(reopened.state == .open)
        #expect(reopened.remaining == 2, "the undone card and the card moved in (R8)")
        box.close()
        box = try Box.open(dir, clock: clock)
        defer { box.close() }
        #expect(try box.status().test.remaining == 2, "a restart shows the same queue (R11)")
    }
}
