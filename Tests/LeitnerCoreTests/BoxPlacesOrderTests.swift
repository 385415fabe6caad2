import Glibc
import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// R13, R16, R17, R23, R24 in every order of events (#34): a restart, a failed call, or a hand
/// move taken in by the very request that acts on the card changes nothing the rules fix.
@Suite struct BoxPlacesOrderTests {
    static let paced = PlacesSettings(newPerDay: 3, leechAfter: 2, suspendLeeches: true)

    /// The ids of the `move` lines the box logged with `origin=admit`, in order.
    func admitted(_ f: BoxFixture) -> [String] {
        f.dir.logLines.filter { $0[1] == "move" && $0.contains("origin=admit") }.map { $0[2] }
    }

    func today(_ f: BoxFixture) -> LogicalDate { f.box.options.dayClock.logicalDate(at: f.clock.now()) }

    /// R23: admissions happen once a date, at the day's opening, and a restart (a kill -9
    /// included) that day does not open it again, also when it admitted nothing and the test
    /// open is one carried over from a day before.
    @Test func r23ARestartAfterTheDayOpenedKeepsItOpened() throws {
        let f = try BoxFixture(places: Self.paced)
        for id in ["c0", "c1", "c2"] { try f.box.addText(id, id, id: id) }
        try f.box.addText("c3", "c3", id: "c3", level: "1")
        _ = try f.box.prepare()
        #expect(admitted(f) == ["c0", "c1", "c2"])
        _ = try f.box.grade(id: "c3", correct: true, answerMs: nil)
        f.clock.advance(days: 1)
        _ = try f.box.prepare()
        _ = try f.box.move(id: "c2", level: "new")
        let tomorrow = today(f).next
        #expect(try f.box.status().arrivals?.date == tomorrow)
        f.kill()
        try f.reopen()
        #expect(try f.box.status().arrivals?.date == tomorrow)
        // None was admitted today: a card added now goes straight in, as before the kill.
        try f.box.addText("late", "late", id: "late")
        #expect(f.dir.levelOnDisk("late") == ["1"])
        _ = try f.box.next()
        #expect(f.dir.levelOnDisk("c2") == ["new"])
        #expect(admitted(f) == ["c0", "c1", "c2"])
        f.clock.advance(days: 1)
        _ = try f.box.prepare()
        #expect(admitted(f) == ["c0", "c1", "c2", "c2"])
    }

    /// R16: a call that fails as the first of its date changes nothing — no admission, no
    /// log line, no test file — and the first call that succeeds opens the day as it would have.
    @Test func r16AFailedFirstCallOfADateAdmitsNothing() throws {
        let f = try BoxFixture(places: Self.paced)
        for id in ["a", "b", "c", "d"] { try f.box.addText(id, id, id: id) }
        try f.box.addText("five", "five", id: "five", level: "5")
        let before = f.dir.snapshot()
        expectBoxError(.noSuchCard(id: "ghost")) { try f.box.grade(id: "ghost", correct: true, answerMs: nil) }
        // Outside the test that would open: level 5 is not in test 0, `d` is beyond the day's room.
        expectBoxError(.notInTest(id: "five")) { try f.box.grade(id: "five", correct: true, answerMs: nil) }
        expectBoxError(.notInTest(id: "d")) { try f.box.grade(id: "d", correct: true, answerMs: nil) }
        #expect(f.dir.snapshot() == before)
        #expect(try f.box.status().arrivals?.date == today(f))
        // A card added meanwhile waits behind the others: the day has not opened.
        try f.box.addText("e", "e", id: "e")
        #expect(f.dir.levelOnDisk("e") == ["new"])
        // The first answer that succeeds opens the day: `a` is admitted with b and c, and graded.
        let graded = try f.box.grade(id: "a", correct: false, answerMs: nil)
        #expect(graded.card.level == .one)
        #expect(admitted(f) == ["a", "b", "c"])
        #expect(Set(f.box.queueNow) == ["a", "b", "c"])
        #expect(f.dir.levelOnDisk("d") == ["new"])
    }

    /// R23: cards leave `new/` in the order they came, also when a test carried over from a day
    /// before was completed (by a move) before the day opened: the day's first `Prepare` admits.
    @Test func r23NewKeepsItsOrderAfterATestCompletedBeforeItsDayOpened() throws {
        let f = try BoxFixture(places: Self.paced)
        try f.box.addText("a", "a", id: "a", level: "1")
        try f.box.addText("b", "b", id: "b", level: "1")
        _ = try f.box.prepare()
        _ = try f.box.grade(id: "a", correct: true, answerMs: nil)
        f.clock.advance(days: 1)
        try f.box.addText("n1", "n1", id: "n1")
        #expect(f.dir.levelOnDisk("n1") == ["new"])
        _ = try f.box.move(id: "b", level: "5")
        #expect(try f.box.status().test.state == .completed)
        _ = try f.box.prepare()
        try f.box.addText("n2", "n2", id: "n2")
        #expect(f.dir.levelOnDisk("n1") == ["1"])
        #expect(f.dir.levelOnDisk("n2") == ["1"])
        #expect(admitted(f) == ["n1"])
    }

    /// R17: every path a reply of `Suspend` or `Unsuspend` gives exists when it arrives, a
    /// reverse's sides (its card's, swapped) included when its card moved in the same request.
    @Test(arguments: [["x", "x.rev"], ["x.rev", "x"]])
    func r17SuspendAndUnsuspendRepliesNamePathsThatExist(_ ids: [String]) throws {
        let f = try BoxFixture(places: Self.paced)
        _ = try f.box.add(front: Asset(name: "front.txt", text: "x"), back: Asset(name: "back.txt", text: "y"),
                          id: "x", level: "2", allowDuplicateFront: true, withReverse: true)
        func expectPathsExist(_ cards: [Card], _ what: String) {
            for card in cards {
                for path in [card.front.path, card.back.path] {
                    #expect(access(path, F_OK) == 0, "\(what) \(card.id): \(path)")
                }
            }
        }
        let suspended = try f.box.suspend(ids: ids)
        #expect(suspended.map(\.level) == [.suspended, .suspended])
        expectPathsExist(suspended, "suspend")
        let back = try f.box.unsuspend(ids: ids)
        #expect(back.map(\.level) == [.two, .two])
        expectPathsExist(back, "unsuspend")
    }

    /// R13, R24: a card moved into `suspended/` by hand goes back to the level it left, whether
    /// a request saw it before `Unsuspend` or `Unsuspend` is the request that takes it in; and
    /// the log says the hand's move, then the unsuspension.
    @Test func r24UnsuspendTakesInAHandSuspensionFirst() throws {
        let f = try BoxFixture(places: Self.paced)
        for id in ["y", "z"] { try f.box.addText(id, id, id: id, level: "3") }
        f.dir.move("3/y", "suspended/y")
        _ = try f.box.status()
        #expect(try f.box.unsuspend(ids: ["y"]).map(\.level) == [.three])
        f.dir.move("3/z", "suspended/z")
        #expect(try f.box.unsuspend(ids: ["z"]).map(\.level) == [.three])
        #expect(f.dir.levelOnDisk("z") == ["3"])
        let lines = f.dir.logLines.filter { $0[2] == "z" }.suffix(2).map {
            Array($0[1...4]) + [$0.contains("origin=hand") ? "hand" : "request"]
        }
        #expect(lines == [["move", "z", "3", "suspended", "hand"], ["move", "z", "suspended", "3", "request"]])
    }
}
