import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// R16: every add, grade, undo, move, delete, skipped day and completed test is appended to the
/// review log — time, event, id, from, to, correct, answer ms — one tab-separated line each,
/// readable with `grep` and `awk -F'\t'`.
@Suite struct BoxLogTests {
    /// The fields after the time of each line: event, id, from, to, correct, ms (and extras).
    func events(_ dir: TemporaryDirectory) -> [[String]] { dir.logLines.map { Array($0.dropFirst()) } }

    @Test func r16EveryEventIsOneLine() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a")
        try f.box.addText("b", "B", id: "b", level: "3")
        _ = try f.box.prepare()
        _ = try f.box.grade(id: "a", correct: false, answerMs: 1234)
        _ = try f.box.undo()
        _ = try f.box.move(id: "b", level: "5")
        _ = try f.box.grade(id: "a", correct: true, answerMs: 56)
        try f.box.delete(id: "b")
        f.clock.advance(days: 2) // 03-03 ([3,1]) is empty: skipped
        _ = try f.box.status()
        let lines = events(f.dir)
        #expect(lines.map { Array($0.prefix(6)) } == [
            ["add", "a", "-", "1", "-", "-"],
            ["add", "b", "-", "3", "-", "-"],
            ["grade", "a", "1", "1", "wrong", "1234"],
            ["undo", "a", "1", "1", "wrong", "-"],
            ["move", "b", "3", "5", "-", "-"],
            ["grade", "a", "1", "2", "correct", "56"],
            ["complete", "-", "-", "-", "-", "-"],
            ["delete", "b", "5", "-", "-", "-"],
            ["skip", "-", "-", "-", "-", "-"],
        ])
        #expect(lines[6].contains("date=2026-03-02"))
        #expect(lines[8].contains("date=2026-03-03"))
        // Times are RFC 3339 with an offset, in the order of the events.
        let times = f.dir.logLines.map { DayClock.parseRFC3339($0[0]) }
        #expect(times.allSatisfy { $0 != nil })
        #expect(times.map { $0! } == times.map { $0! }.sorted())
        #expect(f.dir.logLines[0][0].count >= 20 && f.dir.logLines[0][0].contains("T"))
    }

    /// R16: changes made by hand are logged too, marked `origin=hand` / `origin=adopt`.
    @Test func r16HandChangesAreLogged() throws {
        let f = try BoxFixture()
        f.dir.writeCard("h", level: "2")
        _ = try f.box.status()
        f.dir.move("2/h", "4/h")
        _ = try f.box.status()
        f.dir.write("3/p-front.txt", "front")
        f.dir.write("3/p-back.txt", "back")
        _ = try f.box.status()
        f.dir.removeTree("4/h")
        _ = try f.box.status()
        let lines = events(f.dir)
        #expect(lines.map { Array($0.prefix(4)) } == [
            ["add", "h", "-", "2"], ["move", "h", "2", "4"], ["add", "p", "-", "3"], ["delete", "h", "4", "-"],
        ])
        #expect(lines.map { $0.last! } == ["origin=hand", "origin=hand", "origin=adopt", "origin=hand"])
    }

    /// R13, R16: hand changes made while no daemon ran are logged at the next open for what
    /// they were: a card made by hand is added, not moved from nowhere; a card moved by hand
    /// names the level the log last put it in.
    @Test func r16HandChangesWhileStoppedSayWhatHappened() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a")
        try f.box.addText("b", "B", id: "b", level: "3")
        try f.box.addText("c", "C", id: "c")
        _ = try f.box.prepare() // levels 2, 1
        f.close()
        f.dir.writeCard("new", level: "1")
        f.dir.move("3/b", "2/b")
        f.dir.move("1/c", "5/c")
        try f.reopen()
        // In the order of their ids: the same lines, in the same order, whichever order the
        // changes were made in or the directories are listed in.
        let lines = events(f.dir).suffix(3)
        #expect(lines.map { Array($0.prefix(4)) } == [["move", "b", "3", "2"], ["move", "c", "1", "5"], ["add", "new", "-", "1"]])
        #expect(lines.allSatisfy { $0.last == "origin=hand" })
    }

    /// R13, R16: `Log` takes in hand changes before it answers, as every request does.
    @Test func r16LogShowsAHandChangeAtOnce() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a")
        f.dir.writeCard("h", level: "2")
        let entries = try f.box.log(since: nil, limit: nil)
        #expect(entries.map(\.id) == ["a", "h"])
        #expect(entries.map(\.origin) == [nil, "hand"])
        try #require(entries.count == 2)
        #expect(entries[1].event == .add && entries[1].to == .two)
    }

    /// `Status` says when the clock reads earlier than the last change (it was set back), also
    /// after a restart, and says nothing once the clock has caught up.
    @Test func statusReportsAClockSetBack() throws {
        let f = try BoxFixture()
        #expect(try f.box.status().clockBehind == nil) // an empty log
        try f.box.addText("a", "A", id: "a")
        let added = f.clock.now()
        #expect(try f.box.status().clockBehind == nil)
        f.clock.advance(hours: -30)
        #expect(try f.box.status().clockBehind == added)
        try f.reopen()
        #expect(try f.box.status().clockBehind == added)
        f.clock.advance(hours: 30)
        #expect(try f.box.status().clockBehind == nil)
    }

    /// R16, R12: a move to the card's own level changes nothing, so it logs nothing. A refused
    /// request logs nothing either.
    @Test func r16NoLineForWhatChangesNothing() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a")
        let size = f.dir.logSize
        _ = try f.box.move(id: "a", level: "1")
        _ = try f.box.status()
        _ = try f.box.prepare()
        _ = try f.box.next()
        _ = try f.box.list(level: nil, withText: true)
        _ = try f.box.show(id: "a")
        expectBoxError(.noSuchCard(id: "zz")) { try f.box.move(id: "zz", level: "2") }
        #expect(f.dir.logSize == size)
    }

    /// R16: the log only grows; earlier lines are never rewritten (undo appends, it does not erase).
    @Test func r16AppendOnly() throws {
        let f = try BoxFixture()
        for id in ["a", "b"] { try f.box.addText(id, id, id: id) }
        var previous = f.dir.read(".leitner/devices/here/log")
        func step(_ body: () throws -> Void) throws {
            try body()
            let now = f.dir.read(".leitner/devices/here/log")
            #expect(now.hasPrefix(previous) && now.count > previous.count)
            previous = now
        }
        try step { _ = try f.box.grade(id: "a", correct: true, answerMs: 1) }
        try step { _ = try f.box.grade(id: "b", correct: true, answerMs: 1) }
        try step { _ = try f.box.undo() }
        try step { _ = try f.box.undo() }
        try step { try f.reopen(); _ = try f.box.move(id: "a", level: "7") }
    }

    /// `Log(since:limit:)` reads the same lines back.
    @Test func r16LogRequestReadsTheLines() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a")
        f.clock.advance(days: 1)
        try f.box.addText("b", "B", id: "b")
        _ = try f.box.grade(id: "a", correct: true, answerMs: 321)
        let all = try f.box.log(since: nil, limit: nil)
        #expect(all.map(\.event) == [.add, .add, .grade])
        #expect(all[2].answerMs == 321 && all[2].correct == true && all[2].from == .one && all[2].to == .two)
        #expect(try f.box.log(since: "2026-03-03", limit: nil).map(\.id) == ["b", "a"])
        #expect(try f.box.log(since: nil, limit: 1).map(\.id) == ["a"])
        expectBoxError({ try f.box.log(since: "yesterday", limit: nil) }) {
            if case .invalidParameter(name: "since", _) = $0 { true } else { false }
        }
    }
}
