import Glibc
import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// R12 (moves by request), R13 (changes made by hand in the store, seen by the next request with
/// no restart) and R14 (loose pairs adopted, lone halves reported).
@Suite struct StoreHandChangesTests {
    // MARK: R12

    /// R12: any level to any other, `finished` → `1` included; the id and the assets stay.
    @Test func r12AnyLevelToAnyLevel() throws {
        let f = try BoxFixture()
        try f.box.addText("hola", "hello", id: "hola", level: "finished")
        let names = Level.allCases.map(\.name)
        for from in names {
            for to in names where to != from {
                _ = try f.box.move(id: "hola", level: from)
                let card = try f.box.move(id: "hola", level: to)
                #expect(card.id == "hola" && card.level.name == to)
                #expect(card.front.text == "hola" && card.back.text == "hello")
                #expect(f.dir.levelOnDisk("hola") == [to], "\(from) → \(to)")
            }
        }
        #expect(!f.dir.logLines.contains { $0[1] == "grade" }, "a move is not a grade")
    }

    /// R12: a move is not a grade — passed and failed counts of the open test do not change.
    @Test func r12MoveIsNotAGrade() throws {
        let f = try BoxFixture()
        for id in ["a", "b"] { try f.box.addText(id, id, id: id) }
        _ = try f.box.prepare()
        let card = try f.box.move(id: "a", level: "2")
        #expect(card.level == .two)
        let test = try f.box.status().test
        #expect((test.passed, test.failed, test.remaining) == (0, 0, 2))
    }

    @Test func r12MoveToItsOwnLevelChangesNothing() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a", level: "3")
        let before = f.dir.snapshot()
        let log = f.dir.logSize
        #expect(try f.box.move(id: "a", level: "3").level == .three)
        #expect(f.dir.snapshot() == before)
        #expect(f.dir.logSize == log)
    }

    // MARK: R13

    @Test func r13MoveByHandIsSeenWithoutARestart() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a")
        f.dir.move("1/a", "5/a")
        #expect(try f.box.show(id: "a").level == .five)
        let counts = try f.box.status().counts
        #expect(counts[.one] == 0 && counts[.five] == 1)
        #expect(try f.box.list(level: "5", withText: false).map(\.id) == ["a"])
        // The box's own move starts from where the card now is.
        #expect(try f.box.move(id: "a", level: "finished").level == .finished)
        #expect(f.dir.levelOnDisk("a") == ["finished"])
    }

    @Test func r13CreatedAndRemovedByHand() throws {
        let f = try BoxFixture()
        f.dir.writeCard("hand", level: "3", front: "hand front", back: "hand back")
        let card = try f.box.show(id: "hand")
        #expect(card.level == .three && card.front.text == "hand front")
        #expect(try f.box.status().counts[.three] == 1)
        f.dir.removeTree("3/hand")
        expectBoxError(.noSuchCard(id: "hand")) { try f.box.show(id: "hand") }
        #expect(try f.box.status().counts[.three] == 0)
        // The id is free again.
        #expect(try f.box.addText("again", "x", id: "hand").level == .one)
    }

    /// R13: moved into the store from outside, and out of it, as `mv` would.
    @Test func r13MovedInAndOutOfTheStore() throws {
        let f = try BoxFixture()
        let outside = TemporaryDirectory()
        defer { outside.remove() }
        outside.writeCard("visitor", level: "x")
        #expect(rename(outside.path + "/x/visitor", f.dir.path + "/2/visitor") == 0)
        #expect(try f.box.show(id: "visitor").level == .two)
        #expect(rename(f.dir.path + "/2/visitor", outside.path + "/x/visitor") == 0)
        expectBoxError(.noSuchCard(id: "visitor")) { try f.box.show(id: "visitor") }
        #expect(try f.box.status().counts.values.reduce(0, +) == 0)
    }

    /// R13: changes made while no box was open are taken in at open, and the open test follows
    /// R8 (the card moved out leaves, the one moved in joins the end) — and keeps them across a
    /// second restart.
    @Test func r13ChangesWhileClosed() throws {
        let f = try BoxFixture()
        for id in ["a", "b", "c"] { try f.box.addText(id, id, id: id) }
        try f.box.addText("far", "far", id: "far", level: "6")
        _ = try f.box.prepare()
        let order = f.box.queueNow
        f.close()
        f.dir.move("1/\(order[0])", "4/\(order[0])")
        f.dir.move("6/far", "2/far")
        f.dir.writeCard("new", level: "1")
        try f.reopen()
        #expect(f.box.queueNow == [order[1], order[2], "far", "new"])
        // R11, R16: they are logged, so a second restart keeps the order.
        try f.box.addText("y", "y", id: "y")
        try f.reopen()
        #expect(f.box.queueNow == [order[1], order[2], "far", "new", "y"], "R11: the same order after a restart")
        let hand = f.dir.logLines.filter { $0.last == "origin=hand" }.map { $0[2] }
        #expect(Set(hand).isSuperset(of: ["new", "far", order[0]]), "R16: hand changes found at open are logged")
    }

    /// R13: a whole level directory moved away and made again by hand.
    @Test func r13LevelDirectoryReplaced() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a", level: "3")
        let outside = TemporaryDirectory()
        defer { outside.remove() }
        #expect(rename(f.dir.path + "/3", outside.path + "/old3") == 0)
        f.dir.makeDirectory("3")
        f.dir.writeCard("b", level: "3")
        _ = try f.box.status()
        expectBoxError(.noSuchCard(id: "a")) { try f.box.show(id: "a") }
        #expect(try f.box.show(id: "b").level == .three)
        f.dir.writeCard("c", level: "3")
        #expect(try f.box.show(id: "c").level == .three, "the new directory is watched")
    }

    // MARK: R14

    @Test func r14LoosePairIsAdoptedWhileRunning() throws {
        let f = try BoxFixture()
        f.dir.write("4/gato-front.md", "# gato")
        f.dir.write("4/gato-back.txt", "cat")
        let card = try f.box.show(id: "gato")
        #expect(card.level == .four)
        #expect(card.front.mediaType == "text/markdown" && card.front.text == "# gato")
        #expect(card.back.text == "cat")
        #expect(f.dir.read("4/gato/front.md") == "# gato")
        #expect(f.dir.read("4/gato/back.txt") == "cat")
        #expect(!f.dir.exists("4/gato-front.md") && !f.dir.exists("4/gato-back.txt"))
        #expect(try f.box.doctor().isEmpty)
    }

    @Test func r14LoosePairIsAdoptedAtOpen() throws {
        let f = try BoxFixture()
        f.close()
        f.dir.write("1/perro-front.txt", "perro")
        f.dir.write("1/perro-back.txt", "dog")
        try f.reopen()
        #expect(f.dir.levelOnDisk("perro") == ["1"])
        #expect(try f.box.show(id: "perro").back.text == "dog")
        #expect(try f.box.prepare().test.remaining == 1)
    }

    /// R14: a lone half, an invalid name and a taken name are left where they are and reported;
    /// the missing half arriving later completes the pair.
    @Test func r14WhatCannotBeAdoptedIsLeftAndReported() throws {
        let f = try BoxFixture()
        try f.box.addText("taken", "x", id: "taken")
        f.dir.write("2/lone-front.txt", "lone")
        f.dir.write("2/taken-front.txt", "t")
        f.dir.write("2/taken-back.txt", "t")
        f.dir.write("3/bad name-front.txt", "b")
        f.dir.write("3/bad name-back.txt", "b")
        let problems = try f.box.doctor()
        let byPath = Dictionary(problems.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        let root = f.box.storePath
        #expect(byPath[root + "/2/lone-front.txt"]?.kind == .loosePair)
        #expect(byPath[root + "/2/lone-front.txt"]?.reason.contains("without its back") == true)
        #expect(problems.contains { $0.kind == .loosePair && $0.path.hasPrefix(root + "/2/taken-") && $0.reason.contains("already exists") })
        #expect(problems.contains { $0.kind == .loosePair && $0.path.hasPrefix(root + "/3/bad name-") && $0.reason.contains("not a valid card id") && !$0.reason.contains("(R") })
        #expect(try f.box.status().problems >= 3)
        for file in ["2/lone-front.txt", "2/taken-front.txt", "2/taken-back.txt", "3/bad name-front.txt", "3/bad name-back.txt"] {
            #expect(f.dir.exists(file), "\(file) left where it is")
        }
        #expect(f.dir.levelOnDisk("taken") == ["1"])
        #expect(try f.box.status().counts[.two] == 0)
        f.dir.write("2/lone-back.txt", "alone no more")
        #expect(try f.box.show(id: "lone").back.text == "alone no more")
        #expect(try f.box.doctor().allSatisfy { !$0.path.contains("lone") })
    }

    /// R14: an adopted pair joins the open test like any card moved in (R8).
    @Test func r14AdoptedPairJoinsTheOpenTest() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a")
        _ = try f.box.prepare()
        f.dir.write("2/pair-front.txt", "p")
        f.dir.write("2/pair-back.txt", "q")
        #expect(try f.box.status().test.remaining == 2)
        #expect(f.box.queueNow == ["a", "pair"])
    }

    /// R13, R8: renaming a card directory inside its level is the old id leaving and a new one
    /// arriving: the new id joins the end of the queue.
    @Test func r13RenameInsideALevel() throws {
        let f = try BoxFixture()
        for id in ["a", "b", "c"] { try f.box.addText(id, id, id: id) }
        _ = try f.box.prepare()
        let order = f.box.queueNow
        f.dir.move("1/\(order[0])", "1/renamed")
        _ = try f.box.status()
        #expect(f.box.queueNow == [order[1], order[2], "renamed"])
        expectBoxError(.noSuchCard(id: order[0])) { try f.box.show(id: order[0]) }
    }

    /// R14: a loose pair in `finished` is adopted there.
    @Test func r14LoosePairInFinished() throws {
        let f = try BoxFixture()
        f.dir.write("finished/old-front.txt", "old")
        f.dir.write("finished/old-back.txt", "viejo")
        #expect(try f.box.show(id: "old").level == .finished)
        #expect(try f.box.status().counts[.finished] == 1)
    }

    /// R13 with R20: a directory made by hand whose name is not a valid id is not a card; it is
    /// reported and left alone, at open and while running.
    @Test func r20DirectoriesWithBadNamesAreNotCards() throws {
        let f = try BoxFixture()
        f.close()
        f.dir.writeCard("my card", level: "1")
        try f.reopen()
        f.dir.writeCard(".hidden", level: "2")
        f.dir.write("3/notes.txt", "not a card")
        #expect(try f.box.status().counts.values.reduce(0, +) == 0)
        #expect(try f.box.list(level: nil, withText: false).isEmpty)
        let problems = try f.box.doctor()
        for path in ["1/my card", "2/.hidden", "3/notes.txt"] {
            #expect(problems.contains { $0.path == f.box.storePath + "/" + path && $0.kind == .strayEntry }, "\(path)")
        }
        #expect(f.dir.exists("1/my card/front.txt") && f.dir.exists("2/.hidden/back.txt") && f.dir.exists("3/notes.txt"))
    }
}
