import Testing
@testable import LeitnerCore

/// The rules of the daily test, R1–R11 (docs/rules.md), each checked against what a wrong
/// implementation would do. Dates: 2026-03-02 is day 0; the clock starts at local noon and the
/// day starts at 04:00.
@Suite struct BoxTestRulesTests {
    /// R3 as docs/rules.md writes it, parsed here by hand rather than by `CycleTable`.
    static let specTable: [[Int]] = """
        2,1 3,1 2,1 4,1 2,1 3,1 2,1 1 2,1 3,1 2,1 5,1 4,2,1 3,1 2,1 1 2,1 3,1 2,1 4,1 2,1 3,1 2,1 6,1
        2,1 3,1 2,1 5,1 4,2,1 3,1 2,1 1 2,1 3,1 2,1 4,1 2,1 3,1 2,1 1 2,1 3,1 2,1 5,1 4,2,1 3,1 2,1 1
        2,1 3,1 2,1 4,1 2,1 3,1 2,1 7,1 2,1 3,1 6,2,1 5,1 4,2,1 3,1 2,1 1
        """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map { $0.split(separator: ",").map { Int($0)! } }

    // MARK: R1

    @Test func r1NewCardsEnterLevelOneUnlessALevelIsNamed() throws {
        let f = try BoxFixture()
        #expect(try f.box.addText("hola", "hello", id: "hola").level == .one)
        #expect(f.dir.levelOnDisk("hola") == ["1"])
        #expect(try f.box.addText("gato", "cat", id: "gato", level: "4").level == .four)
        #expect(f.dir.levelOnDisk("gato") == ["4"])
        #expect(try f.box.addText("perro", "dog", id: "perro", level: "finished").level == .finished)
        #expect(f.dir.levelOnDisk("perro") == ["finished"])
        #expect(f.dir.read("1/hola/front.txt") == "hola")
        #expect(f.dir.read("1/hola/back.txt") == "hello")
    }

    // MARK: R2, R3

    @Test func r3DefaultTableIsSpecTable() {
        let table = CycleTable.standard
        #expect(table.count == 64)
        #expect(table.entries.map { $0.map(\.rawValue) } == Self.specTable)
        // The table's stated shape, so that a typo in either copy shows.
        #expect(table.entries.allSatisfy { $0.contains(.one) && $0.count <= 3 })
        for (k, entry) in table.entries.enumerated() {
            #expect(entry.contains(.two) == (k % 2 == 0), "entry \(k)")
            #expect(entry.contains(.three) == (k % 4 == 1), "entry \(k)")
        }
        let times = { (level: Level) in table.entries.filter { $0.contains(level) }.count }
        #expect([times(.four), times(.five), times(.six), times(.seven)] == [8, 4, 2, 1])
    }

    /// R3: a table in the configuration is rejected, with the reason, for an empty entry or a level
    /// outside 1–7.
    @Test func r3BadTablesAreRejectedWithTheReason() throws {
        #expect(throws: CycleTableError.emptyEntry(index: 1)) { try CycleTable(parsing: "2,1 ,1") }
        #expect(throws: CycleTableError.emptyEntry(index: 0)) { try CycleTable(parsing: "1,,2") }
        #expect(throws: CycleTableError.invalidLevel(index: 1, level: "8")) { try CycleTable(parsing: "1 8") }
        #expect(throws: CycleTableError.invalidLevel(index: 0, level: "0")) { try CycleTable(parsing: "0,1") }
        #expect(throws: CycleTableError.invalidLevel(index: 0, level: "finished")) { try CycleTable(parsing: "finished") }
        #expect(throws: CycleTableError.empty) { try CycleTable(parsing: "  ") }
        #expect(try CycleTable(parsing: "3,1 1").entries == [[.three, .one], [.one]])
    }

    /// R2: each day's test reviews `T[p mod L]`, p the number of day-record entries; a test with a
    /// card in every level shows exactly the cards of its levels.
    @Test func r2DueLevelsFollowThePosition() throws {
        let f = try BoxFixture()
        for level in 1...7 { try f.box.addText("c\(level)", "b", id: "c\(level)", level: "\(level)") }
        for p in 0..<10 {
            let test = try f.box.prepare().test
            let expected = Self.specTable[p % 64]
            #expect(test.position == p)
            #expect(test.levels.map(\.rawValue) == expected)
            let due = Set((1...7).map { "c\($0)" }.filter { expected.contains(Int(f.dir.levelOnDisk($0)[0])!) })
            #expect(Set(f.box.queueNow) == due, "p=\(p)")
            // Wrong answers keep every card in rotation, so every level stays populated enough.
            for id in f.box.queueNow { _ = try f.box.grade(id: id, correct: false, answerMs: nil) }
            try f.box.passAll()
            f.clock.advance(days: 1)
        }
        #expect(try f.box.status().test.position == 10)
    }

    /// R2 with a table of the configuration, wrapping around modulo its length.
    @Test func r2ConfiguredTableWrapsAround() throws {
        let f = try BoxFixture(cycle: try CycleTable(parsing: "1 2,1 3"))
        try f.box.addText("a", "A", id: "a", level: "3")
        try f.box.addText("b", "B", id: "b")
        var levels: [[Level]] = []
        for _ in 0..<5 {
            levels.append(try f.box.prepare().test.levels)
            try f.box.passAll()
            f.clock.advance(days: 1)
        }
        #expect(levels == [[.one], [.two, .one], [.three], [.one], [.two, .one]])
    }

    // MARK: R4

    @Test func r4OneTestPerLogicalDate() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a")
        try f.box.passAll()
        #expect(f.dir.dayLines == ["2026-03-02 completed"])
        let status = try f.box.status()
        #expect(status.test.state == .completed)
        #expect(status.test.position == 0)
        #expect(try f.box.next().card == nil)
        // A card arriving in level 1 the same day does not open a second test.
        try f.box.addText("b", "B", id: "b")
        #expect(try f.box.prepare().test.state == .completed)
        #expect(try f.box.next().card == nil)
        expectBoxError(.testComplete) { try f.box.grade(id: "b", correct: true, answerMs: nil) }
        // 02:00 the next calendar day is still the same logical date (DayStartsAt=04:00).
        f.clock.advance(hours: 14)
        #expect(try f.box.prepare().test.state == .completed)
        f.clock.advance(hours: 3)
        let next = try f.box.prepare().test
        #expect(next.date == LogicalDate("2026-03-03"))
        #expect(next.position == 1)
        #expect(next.state == .open)
        #expect(f.box.queueNow == ["b"])
        #expect(f.dir.dayLines == ["2026-03-02 completed"])
    }

    // MARK: R5

    @Test func r5MissedDaysDoNotAdvanceTheCycle() throws {
        let f = try BoxFixture()
        try f.box.addText("z", "Z", id: "z")
        try f.box.passAll()
        f.clock.advance(days: 1)
        for id in ["a", "b", "c", "d"] { try f.box.addText(id, id, id: id) }
        _ = try f.box.prepare()
        let order = f.box.queueNow
        _ = try f.box.grade(id: order[0], correct: true, answerMs: nil)
        _ = try f.box.grade(id: order[1], correct: false, answerMs: nil)
        let before = try f.box.status().test
        f.clock.advance(days: 4)
        let after = try f.box.status().test
        #expect(after.position == 1)
        #expect(after.levels == [.three, .one])
        #expect(after.date == LogicalDate("2026-03-07"))
        #expect(after.state == .open)
        #expect((after.remaining, after.passed, after.failed) == (before.remaining, before.passed, before.failed))
        #expect(f.box.queueNow == [order[2], order[3], order[1]])
        #expect(f.dir.dayLines == ["2026-03-02 completed"])
    }

    // MARK: R6, R7

    /// R6: past dates whose test has nothing to show are skipped, in order, up to the first one that
    /// has; today is never recorded as skipped.
    @Test func r6SkipsPastEmptyTestsOnlyUpToTheFirstWithCards() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a")
        try f.box.passAll() // a → 2; p1 = [3,1] is empty
        f.clock.advance(days: 1)
        #expect(try f.box.status().test.state == .empty)
        #expect(f.dir.dayLines == ["2026-03-02 completed"], "today is never skipped")
        f.clock.advance(days: 2) // 03-05: 03-03 (p1, empty) skipped; 03-04 (p2 = [2,1], a) stops
        let status = try f.box.status()
        #expect(f.dir.dayLines == ["2026-03-02 completed", "2026-03-03 skipped"])
        #expect(status.test.position == 2)
        #expect(status.test.state == .open)
        #expect(f.dir.logLines.contains { $0[1] == "skip" && $0.contains("date=2026-03-03") })
    }

    /// R6: a date shown as missed turns into a skipped one when its cards leave its test.
    @Test func r6MissedDayTurnsSkippedWhenItsCardsLeave() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a")
        try f.box.passAll()
        f.clock.advance(days: 3) // 03-05: p2 [2,1] holds a
        #expect(try f.box.prepare().test.remaining == 1)
        f.clock.advance(days: 2) // 03-07: 03-04 to 03-06 missed
        #expect(try f.box.status().test.position == 2)
        f.dir.move("2/a", "3/a") // p2 [2,1] and p3 [4,1] now empty; p4 is [2,1]
        let status = try f.box.status()
        // From the day after the last entry (03-04, when p2 was open and missed) to yesterday:
        // p2 [2,1], p3 [4,1], p4 [2,1] are all empty now; p5 [3,1] holds a, and is today's.
        #expect(f.dir.dayLines == ["2026-03-02 completed", "2026-03-03 skipped", "2026-03-04 skipped",
                                   "2026-03-05 skipped", "2026-03-06 skipped"])
        #expect(status.test.position == 5)
        #expect(status.test.state == .open)
    }

    @Test func r6NothingIsSkippedWhileTheDayRecordIsEmpty() throws {
        let f = try BoxFixture()
        f.clock.advance(days: 10)
        #expect(try f.box.prepare().test.position == 0)
        try f.box.addText("a", "A", id: "a", level: "3")
        f.clock.advance(days: 10)
        #expect(try f.box.status().test.position == 0)
        #expect(f.dir.dayLines.isEmpty)
    }

    /// R7: an empty test — none to show and no grade — is never completed, even when its cards
    /// left it before any grade; it becomes skipped once its date has passed.
    @Test func r7EmptyTestIsNeverCompleted() throws {
        let f = try BoxFixture()
        try f.box.addText("z", "Z", id: "z", level: "2")
        try f.box.passAll() // z → 3; p1 = [3,1]
        f.clock.advance(days: 1)
        try f.box.addText("a", "A", id: "a")
        #expect(try f.box.prepare().test.remaining == 2)
        _ = try f.box.move(id: "a", level: "5")
        f.dir.move("3/z", "4/z")
        let test = try f.box.prepare().test
        #expect(test.state == .empty)
        #expect(try f.box.next().card == nil)
        expectBoxError(.notInTest(id: "a")) { try f.box.grade(id: "a", correct: true, answerMs: nil) }
        #expect(f.dir.dayLines == ["2026-03-02 completed"])
        f.clock.advance(days: 1)
        _ = try f.box.status()
        #expect(f.dir.dayLines == ["2026-03-02 completed", "2026-03-03 skipped"])
    }

    // MARK: R8

    @Test func r8CardsAddedOrMovedInJoinTheEnd() throws {
        let f = try BoxFixture()
        for id in ["a", "b", "c"] { try f.box.addText(id, id, id: id) }
        try f.box.addText("far", "far", id: "far", level: "5")
        _ = try f.box.prepare()
        try f.box.addText("d", "d", id: "d")
        #expect(f.box.queueNow.last == "d")
        _ = try f.box.move(id: "far", level: "2")
        #expect(f.box.queueNow.last == "far")
        f.dir.writeCard("hand", level: "1")
        #expect(try f.box.status().test.remaining == 6)
        #expect(f.box.queueNow.last == "hand")
        try f.box.addText("e", "e", id: "e", level: "3")
        #expect(!f.box.queueNow.contains("e"), "level 3 is not in [2,1]")
    }

    /// R8: a card passed in this test never rejoins it — not when the grade itself lands it in
    /// another level of the test (1 → 2 in a [2,1] test), nor when it is moved back.
    @Test func r8PassedCardsNeverRejoin() throws {
        let f = try BoxFixture()
        for id in ["a", "b"] { try f.box.addText(id, id, id: id) }
        _ = try f.box.prepare()
        _ = try f.box.grade(id: "a", correct: true, answerMs: nil)
        #expect(f.dir.levelOnDisk("a") == ["2"])
        #expect(f.box.queueNow == ["b"])
        _ = try f.box.move(id: "a", level: "1")
        #expect(f.box.queueNow == ["b"])
        f.dir.move("1/a", "2/a")
        #expect(try f.box.status().test.remaining == 1)
        #expect(f.box.queueNow == ["b"])
        try f.reopen()
        #expect(f.box.queueNow == ["b"])
    }

    @Test func r8MovesBetweenTheTestsLevelsKeepThePlace() throws {
        let f = try BoxFixture()
        for id in ["a", "b", "c", "d"] { try f.box.addText(id, id, id: id) }
        _ = try f.box.prepare()
        let order = f.box.queueNow
        _ = try f.box.move(id: order[1], level: "2")
        #expect(f.box.queueNow == order)
        f.dir.move("1/\(order[2])", "2/\(order[2])")
        _ = try f.box.status()
        #expect(f.box.queueNow == order)
        _ = try f.box.move(id: order[1], level: "1")
        #expect(f.box.queueNow == order)
    }

    @Test func r8CardsMovedOutLeaveUnlessFailedAndStillInRotation() throws {
        let f = try BoxFixture()
        for id in ["a", "b", "c", "d", "e"] { try f.box.addText(id, id, id: id) }
        _ = try f.box.prepare()
        // Moved out by the box and by hand: they leave.
        _ = try f.box.move(id: "a", level: "3")
        f.dir.move("1/b", "4/b")
        _ = try f.box.status()
        #expect(Set(f.box.queueNow) == ["c", "d", "e"])
        // Failed, then moved to another level in rotation: stays (R9: shown until passed).
        _ = try f.box.grade(id: "c", correct: false, answerMs: nil)
        _ = try f.box.move(id: "c", level: "5")
        #expect(f.box.queueNow.contains("c"))
        _ = try f.box.grade(id: "d", correct: false, answerMs: nil)
        f.dir.move("1/d", "6/d")
        _ = try f.box.status()
        #expect(f.box.queueNow.contains("d"))
        let graded = try f.box.grade(id: "c", correct: true, answerMs: nil).card
        #expect(graded.level == .six, "passed from where it then is (R9)")
        // Failed, then moved to finished or deleted: leaves.
        _ = try f.box.grade(id: "e", correct: false, answerMs: nil)
        _ = try f.box.move(id: "e", level: "finished")
        f.dir.removeTree("6/d")
        _ = try f.box.status()
        #expect(f.box.queueNow.isEmpty)
    }

    @Test func r8DeletedCardsLeave() throws {
        let f = try BoxFixture()
        for id in ["a", "b", "c"] { try f.box.addText(id, id, id: id) }
        _ = try f.box.prepare()
        try f.box.delete(id: "a")
        f.dir.removeTree("1/b")
        _ = try f.box.status()
        #expect(f.box.queueNow == ["c"])
        #expect(try f.box.next().card?.id == "c")
    }

    // MARK: R9

    @Test func r9CorrectMovesUpOneAndSevenToFinished() throws {
        let f = try BoxFixture(cycle: try CycleTable(parsing: "7,3,1"))
        try f.box.addText("s", "S", id: "s", level: "7")
        try f.box.addText("t", "T", id: "t", level: "3")
        try f.box.addText("o", "O", id: "o")
        _ = try f.box.prepare()
        #expect(try f.box.grade(id: "s", correct: true, answerMs: nil).card.level == .finished)
        #expect(try f.box.grade(id: "t", correct: true, answerMs: nil).card.level == .four)
        #expect(try f.box.grade(id: "o", correct: true, answerMs: nil).card.level == .two)
        #expect(f.dir.levelOnDisk("s") == ["finished"])
        #expect(f.dir.levelOnDisk("t") == ["4"])
    }

    /// R9: wrong → level 1 and the end of the queue; shown again until correct, which moves it up
    /// one from level 1 (not back to where it was).
    @Test func r9WrongGoesToLevelOneAndIsShownAgain() throws {
        let f = try BoxFixture(cycle: try CycleTable(parsing: "4,1"))
        try f.box.addText("x", "X", id: "x", level: "4")
        try f.box.addText("y", "Y", id: "y")
        _ = try f.box.prepare()
        let wrong = try f.box.grade(id: "x", correct: false, answerMs: nil)
        #expect(wrong.card.level == .one)
        #expect(f.dir.levelOnDisk("x") == ["1"])
        #expect(f.box.queueNow == ["y", "x"])
        #expect(wrong.test.failed == 1 && wrong.test.repeating == 1)
        let passed = try f.box.grade(id: "y", correct: true, answerMs: nil)
        #expect(passed.test.repeating == 1)  // x still comes back
        let again = try f.box.grade(id: "x", correct: false, answerMs: nil)
        #expect(again.test.remaining == 1 && again.test.state == .open && again.test.repeating == 1)
        let last = try f.box.grade(id: "x", correct: true, answerMs: nil)
        #expect(last.card.level == .two)
        #expect(last.test.state == .completed)
        #expect((last.test.passed, last.test.failed, last.test.repeating) == (2, 1, 0))
    }

    @Test func r9OnFailPreviousGoesOneDownNeverBelowOne() throws {
        let f = try BoxFixture(onFail: .previous, cycle: try CycleTable(parsing: "3,1"))
        try f.box.addText("x", "X", id: "x", level: "3")
        try f.box.addText("y", "Y", id: "y")
        _ = try f.box.prepare()
        #expect(try f.box.grade(id: "x", correct: false, answerMs: nil).card.level == .two)
        #expect(try f.box.grade(id: "y", correct: false, answerMs: nil).card.level == .one)
        #expect(try f.box.grade(id: "x", correct: false, answerMs: nil).card.level == .one)
        #expect(try f.box.grade(id: "x", correct: true, answerMs: nil).card.level == .two)
    }

    // MARK: R10

    @Test func r10CompletedByItsLastCardsLeaving() throws {
        let f = try BoxFixture()
        for id in ["a", "b", "c"] { try f.box.addText(id, id, id: id) }
        _ = try f.box.prepare()
        _ = try f.box.grade(id: "a", correct: true, answerMs: nil)
        _ = try f.box.move(id: "b", level: "4")
        #expect(f.dir.dayLines.isEmpty)
        f.dir.move("1/c", "5/c")
        let status = try f.box.status()
        #expect(status.test.state == .completed)
        #expect(status.test.passed == 1)
        #expect(f.dir.dayLines == ["2026-03-02 completed"])
        #expect(try f.box.next().card == nil)
        #expect(try f.box.prepare().test.state == .completed)
        // R16: the completion is in the review log, like one made by a grade.
        #expect(f.dir.logLines.contains { $0[1] == "complete" && $0.contains("date=2026-03-02") })
    }

    /// R10, R17: a completion made by a card leaving is still the same day's after a restart on a
    /// later day (it must not be withdrawn and made again on the new date).
    @Test func r10CompletionByLeavingSurvivesARestart() throws {
        let f = try BoxFixture()
        for id in ["a", "b"] { try f.box.addText(id, id, id: id) }
        _ = try f.box.prepare()
        _ = try f.box.grade(id: "a", correct: true, answerMs: nil)
        try f.box.delete(id: "b")
        #expect(f.dir.dayLines == ["2026-03-02 completed"])
        f.clock.advance(days: 1)
        try f.reopen()
        _ = try f.box.status()
        #expect(f.dir.dayLines == ["2026-03-02 completed"])
        #expect(try f.box.status().test.position == 1)
    }

    // MARK: R11

    @Test func r11ShuffledOnceAndKeptAcrossARestart() throws {
        let f = try BoxFixture()
        let ids = (0..<40).map { $0 < 10 ? "c0\($0)" : "c\($0)" }
        for id in ids { try f.box.addText(id, id, id: id) }
        #expect(f.box.queueNow.isEmpty, "Add does not open the test")
        _ = try f.box.prepare()
        let order = f.box.queueNow
        #expect(Set(order) == Set(ids))
        #expect(order != ids.sorted(), "not shuffled")
        _ = try f.box.prepare()
        #expect(f.box.queueNow == order, "prepare again changes nothing")
        _ = try f.box.grade(id: order[5], correct: true, answerMs: nil) // any card of the queue
        _ = try f.box.grade(id: order[0], correct: false, answerMs: nil)
        var expected = order.filter { $0 != order[5] && $0 != order[0] } + [order[0]]
        #expect(f.box.queueNow == expected)
        try f.box.addText("new", "new", id: "new")
        expected.append("new")
        try f.reopen()
        #expect(f.box.queueNow == expected)
        let status = try f.box.status().test
        #expect((status.remaining, status.passed, status.failed) == (40, 1, 1))
        // A later day (missed) keeps the same order too.
        f.clock.advance(days: 2)
        try f.reopen()
        #expect(try f.box.next().card?.id == expected[0])
        #expect(f.box.queueNow == expected)
    }

    @Test func r11TestOpensOnNextOrGradeToo() throws {
        let f = try BoxFixture()
        for id in ["a", "b", "c"] { try f.box.addText(id, id, id: id) }
        let head = try #require(try f.box.next().card).id
        #expect(f.box.queueNow.first == head)
        let g = try BoxFixture()
        for id in ["a", "b", "c"] { try g.box.addText(id, id, id: id) }
        _ = try g.box.grade(id: "b", correct: true, answerMs: nil)
        #expect(Set(g.box.queueNow) == ["a", "c"])
    }

    @Test func r11GradeOfACardOutsideTheQueue() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a")
        try f.box.addText("far", "F", id: "far", level: "3")
        _ = try f.box.prepare()
        let before = f.dir.snapshot()
        let log = f.dir.logSize
        expectBoxError(.notInTest(id: "far")) { try f.box.grade(id: "far", correct: true, answerMs: nil) }
        expectBoxError(.noSuchCard(id: "nobody")) { try f.box.grade(id: "nobody", correct: true, answerMs: nil) }
        #expect(f.dir.snapshot() == before)
        #expect(f.dir.logSize == log)
    }
}

/// `Prepare` (docs/protocol.md): applies R6, opens today's test, moves no card, and says once per test —
/// when it has cards — that the `TestReady=` hook should run.
@Suite struct BoxPrepareTests {
    @Test func readyOncePerTestWithCards() throws {
        let f = try BoxFixture()
        #expect(try f.box.prepare().isNewlyReady == false, "an empty test is not ready")
        try f.box.addText("a", "A", id: "a")
        let before = f.dir.snapshot()
        #expect(try f.box.prepare().isNewlyReady == true)
        #expect(f.dir.snapshot() == before, "Prepare moves no card")
        #expect(try f.box.prepare().isNewlyReady == false)
        try f.reopen()
        #expect(try f.box.prepare().isNewlyReady == false, "once per test, across a restart")
        try f.box.passAll()
        f.clock.advance(days: 2) // 03-03 ([3,1]) skipped; 03-04 ([2,1]) holds a
        #expect(try f.box.prepare().isNewlyReady == true)
    }
}

/// R10 with R21: the last cards of a graded test leaving because they are found damaged
/// completes it, in the very reply that finds them.
@Suite struct BoxDamagedCompletionTests {
    @Test func r10LastCardFoundDamagedByNextCompletes() throws {
        let f = try BoxFixture()
        for id in ["a", "b"] { try f.box.addText(id, id, id: id) }
        _ = try f.box.prepare()
        let order = f.box.queueNow
        _ = try f.box.grade(id: order[0], correct: true, answerMs: nil)
        f.dir.write("1/\(order[1])/front.md", "a second front") // no event: only level directories are watched
        let (card, test) = try f.box.next()
        #expect(card == nil)
        #expect(test.state == .completed)
        #expect(f.dir.dayLines == ["2026-03-02 completed"])
    }

    @Test func r10LastCardFoundDamagedByDoctorCompletes() throws {
        let f = try BoxFixture()
        for id in ["a", "b"] { try f.box.addText(id, id, id: id) }
        _ = try f.box.prepare()
        let order = f.box.queueNow
        _ = try f.box.grade(id: order[0], correct: true, answerMs: nil)
        f.dir.removeFile("1/\(order[1])/back.txt")
        _ = try f.box.doctor()
        #expect(f.dir.dayLines == ["2026-03-02 completed"])
        #expect(try f.box.status().test.state == .completed)
    }
}

/// R21: a grade never moves a damaged card (found damaged by the grade itself, when `Next` has
/// not just shown it).
@Suite struct BoxDamagedGradeTests {
    @Test func r21GradeOfADamagedCardIsRefusedAndMovesNothing() throws {
        let f = try BoxFixture()
        for id in ["a", "b"] { try f.box.addText(id, id, id: id) }
        _ = try f.box.prepare()
        f.dir.removeFile("1/b/back.txt")
        let before = f.dir.snapshot()
        let log = f.dir.logSize
        expectBoxError(.notInTest(id: "b")) { try f.box.grade(id: "b", correct: true, answerMs: nil) }
        #expect(f.dir.snapshot() == before)
        #expect(f.dir.logSize == log)
        #expect(f.box.queueNow == ["a"])
    }
}
