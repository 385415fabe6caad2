import Glibc
import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// docs/sync.md: what sync tools leave in a store is never a card, a side or an id; a conflict is
/// reported with the command that keeps one side, and that command keeps it. docs/rules.md, R13:
/// a card whose directory a sync tool has in two levels at once is served from the complete copy.
@Suite struct StoreSyncToolTests {
    /// Sets a file's modification time to `seconds` after the epoch.
    static func setModified(_ path: String, seconds: Int) {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }

    static let syncthingCopy = "back.sync-conflict-20261122-101500-ABCDEFG.txt"

    // MARK: Conflict copies of a side

    @Test func aConflictCopyBesideASideLeavesTheCardWhole() throws {
        let f = try BoxFixture()
        try f.box.addText("hola", "hello", id: "hola")
        f.dir.write("1/hola/" + Self.syncthingCopy, "hi")
        let card = try f.box.show(id: "hola")
        #expect(card.back.text == "hello" && card.back.path.hasSuffix("/1/hola/back.txt"))
        #expect(try f.box.list(level: nil, withText: false).map(\.id) == ["hola"])
        let problems = try f.box.doctor()
        #expect(problems.count == 1)
        #expect(problems.first?.kind == .syncConflict)
        #expect(problems.first?.path == f.dir.path + "/1/hola/" + Self.syncthingCopy)
        #expect(problems.first?.reason.contains("Syncthing") == true)
        #expect(problems.first?.advice == "keep one side: leitnerctl doctor --resolve hola --keep mine|theirs")
        let status = try f.box.status()
        #expect(status.problems == 1 && status.counts[.one] == 1)
    }

    @Test func keepMineRemovesTheCopy() throws {
        let f = try BoxFixture()
        try f.box.addText("hola", "hello", id: "hola")
        f.dir.write("1/hola/back (conflict_on_2026-11-24).txt", "hi")
        _ = try f.box.show(id: "hola")
        let (card, kept, removed) = try f.box.resolveConflict(id: "hola", keep: "mine")
        #expect(card.back.text == "hello")
        #expect(kept == [f.dir.path + "/1/hola/back.txt"])
        #expect(removed == [f.dir.path + "/1/hola/back (conflict_on_2026-11-24).txt"])
        #expect(f.dir.snapshot() == ["/1/", "/1/hola/", "/1/hola/back.txt = hello", "/1/hola/front.txt = hola",
                                     "/2/", "/3/", "/4/", "/5/", "/6/", "/7/", "/finished/", "/new/", "/suspended/"])
        #expect(try f.box.doctor().isEmpty)
        #expect(try f.box.status().problems == 0)
    }

    @Test func keepTheirsPutsTheCopyInTheSidesPlace() throws {
        let f = try BoxFixture()
        try f.box.addText("hola", "hello", id: "hola")
        f.dir.write("1/hola/" + Self.syncthingCopy, "hi")
        let (card, _, removed) = try f.box.resolveConflict(id: "hola", keep: "theirs")
        #expect(card.back.text == "hi" && card.back.path.hasSuffix("/back.txt"))
        #expect(removed.isEmpty, "the copy was renamed over the side")
        #expect(!f.dir.exists("1/hola/" + Self.syncthingCopy))
        #expect(try f.box.doctor().isEmpty)
    }

    @Test func severalCopiesAreKeptByName() throws {
        let f = try BoxFixture()
        try f.box.addText("hola", "hello", id: "hola")
        f.dir.write("1/hola/back (conflict_on_2026-11-24).txt", "one")
        f.dir.write("1/hola/back (conflict #1_on_2026-11-24).txt", "two")
        expectBoxError({ try f.box.resolveConflict(id: "hola", keep: "theirs") }) {
            if case .cannotResolve(let id, let reason) = $0 { return id == "hola" && reason.contains("2 copies") }
            return false
        }
        #expect(try f.box.doctor().map(\.advice).allSatisfy { $0.hasPrefix("keep one side: leitnerctl doctor --resolve hola --keep mine|'back (conflict") })
        let (card, _, removed) = try f.box.resolveConflict(id: "hola", keep: "back (conflict #1_on_2026-11-24).txt")
        #expect(card.back.text == "two")
        #expect(removed == [f.dir.path + "/1/hola/back (conflict_on_2026-11-24).txt"])
        #expect(try f.box.doctor().isEmpty)
    }

    /// A card whose only back is a copy (deleted on one machine, changed on the other) is
    /// damaged until the copy is kept; then it is whole and joins the test (R8, R21).
    @Test func aCopyWithoutItsSideIsKeptAsTheSide() throws {
        let f = try BoxFixture()
        try f.box.addText("hola", "hello", id: "hola")
        f.dir.move("1/hola/back.txt", "1/hola/" + Self.syncthingCopy)
        expectBoxError({ try f.box.show(id: "hola") }) { if case .storeFailure = $0 { true } else { false } }
        expectBoxError({ try f.box.resolveConflict(id: "hola", keep: "mine") }) {
            if case .cannotResolve = $0 { true } else { false }
        }
        #expect(try f.box.resolveConflict(id: "hola", keep: "theirs").card.back.text == "hello")
        #expect(try f.box.prepare().test.remaining == 1)
    }

    @Test func nothingToResolve() throws {
        let f = try BoxFixture()
        try f.box.addText("hola", "hello", id: "hola")
        expectBoxError({ try f.box.resolveConflict(id: "hola", keep: "mine") }) {
            if case .cannotResolve(let id, let reason) = $0 { return id == "hola" && reason.hasPrefix("no sync conflict") }
            return false
        }
        expectBoxError(.noSuchCard(id: "nope")) { try f.box.resolveConflict(id: "nope", keep: "mine") }
    }

    // MARK: git

    @Test func gitMarkersAreReportedAndResolved() throws {
        let f = try BoxFixture()
        try f.box.addText("hola", "hello", id: "hola")
        f.dir.write("1/hola/back.txt", "<<<<<<< HEAD\nhello\n=======\nhi\n>>>>>>> origin/main\n")
        #expect(try f.box.show(id: "hola").back.text?.hasPrefix("<<<<<<<") == true)
        let problems = try f.box.doctor()
        #expect(problems.map(\.kind) == [.syncConflict])
        #expect(problems.first?.path == f.dir.path + "/1/hola/back.txt")
        #expect(try f.box.status().problems == 1)
        expectBoxError({ try f.box.resolveConflict(id: "hola", keep: "back.txt") }) {
            if case .cannotResolve = $0 { true } else { false }
        }
        let (card, kept, _) = try f.box.resolveConflict(id: "hola", keep: "theirs")
        #expect(card.back.text == "hi\n")
        #expect(kept == [f.dir.path + "/1/hola/back.txt"])
        #expect(try f.box.doctor().isEmpty)
        #expect(try f.box.status().problems == 0)
    }

    // MARK: In the level directories

    /// Temporary folders and files of Syncthing and Unison are no card, no loose half and no
    /// invalid id: they are passed over, at open and while the box runs.
    @Test func temporariesInALevelAreNotProblems() throws {
        let f = try BoxFixture()
        f.dir.makeDirectory("2/.syncthing.hola.tmp")
        f.dir.write("2/.unison.hola-front.txt.3e1b.unison.tmp", "x")
        f.dir.makeDirectory("3/.unison.adios.77f.unison.tmp")
        #expect(try f.box.doctor().isEmpty)
        #expect(try f.box.status().problems == 0)
        f.close()
        try f.reopen()
        #expect(try f.box.doctor().isEmpty)
        #expect(try f.box.status().counts.values.reduce(0, +) == 0)
        // The tool renames its temporary to the card's name when the card is whole.
        f.dir.write("2/.syncthing.hola.tmp/front.txt", "hola")
        f.dir.write("2/.syncthing.hola.tmp/back.txt", "hello")
        f.dir.move("2/.syncthing.hola.tmp", "2/hola")
        #expect(try f.box.show(id: "hola").level == .two)
        #expect(try f.box.doctor().isEmpty)
    }

    /// A conflict copy of a card's directory or of a loose half is reported as what it is, not
    /// as an invalid id or a stray file; nothing is adopted or moved.
    @Test func conflictCopiesInALevelAreReportedAsSuch() throws {
        let f = try BoxFixture()
        try f.box.addText("hola", "hello", id: "hola")
        f.dir.write("1/hola (conflict_on_2026-11-24)/front.txt", "hola")
        f.dir.write("1/hola (conflict_on_2026-11-24)/back.txt", "hi")
        f.dir.write("1/gato-back.sync-conflict-20261122-101500-ABCDEFG.txt", "cat")
        let before = f.dir.snapshot()
        let problems = try f.box.doctor().sorted { $0.path < $1.path }
        #expect(problems.map(\.kind) == [.syncConflict, .syncConflict])
        #expect(problems[0].reason == "a conflict copy of 'gato-back.txt' left by Syncthing")
        #expect(problems[1].reason == "a conflict copy of 'hola' left by Unison")
        #expect(f.dir.snapshot() == before)
        #expect(try f.box.status().counts[.one] == 1)
    }

    // MARK: R13, Syncthing's order

    /// Syncthing moves card `a` from level 3 to level 1 as it does: the new folder first, filled
    /// file by file through temporaries; the old one emptied and removed later. The card is
    /// listed, whole, at every step; neither folder is touched by the box.
    @Test func r13SyncthingsOrderNeverHidesTheCard() throws {
        let f = try BoxFixture()
        try f.box.addText("hola", "hello", id: "a", level: "3")
        Self.setModified(f.dir.path + "/3/a", seconds: 1_000_000)
        var levels: [Level] = []
        func look(_ step: String) throws {
            let listed = try f.box.list(level: nil, withText: true)
            #expect(listed.map(\.id) == ["a"], "\(step)")
            #expect(listed.first?.front.text == "hola" && listed.first?.back.text == "hello", "\(step)")
            #expect(try f.box.status().counts.values.reduce(0, +) == 1, "\(step)")
            levels.append(try f.box.show(id: "a").level)
        }
        try look("before")
        f.dir.makeDirectory("1/a")
        try look("new folder made")
        f.dir.write("1/a/.syncthing.front.txt.tmp", "hola")
        try look("front being written")
        f.dir.move("1/a/.syncthing.front.txt.tmp", "1/a/front.txt")
        try look("front in place")
        f.dir.write("1/a/.syncthing.back.txt.tmp", "hello")
        f.dir.move("1/a/.syncthing.back.txt.tmp", "1/a/back.txt")
        let whole = f.dir.snapshot()
        try look("both whole")
        #expect(try f.box.doctor().map(\.kind) == [.duplicateCard])
        #expect(f.dir.snapshot() == whole, "neither folder is touched")
        f.dir.removeFile("3/a/front.txt")
        try look("old folder being emptied")
        f.dir.removeTree("3/a")
        try look("old folder gone")
        #expect(levels == [.three, .three, .three, .three, .one, .one, .one])
        #expect(try f.box.doctor().isEmpty)
        // The move is in the log once, as a change found in the store.
        #expect(f.dir.logLines.filter { $0[1] == "move" }.map { [$0[2], $0[3], $0[4], $0.last!] } == [["a", "3", "1", "origin=copy"]])
    }

    /// At open, too: of two whole copies the newer is served; an incomplete one never is.
    @Test func r13AtOpenTheCompleteCopyIsServed() throws {
        let f = try BoxFixture()
        f.close()
        f.dir.writeCard("a", level: "2", front: "old")
        f.dir.writeCard("a", level: "5", front: "new")
        Self.setModified(f.dir.path + "/2/a", seconds: 1_000_000)
        Self.setModified(f.dir.path + "/5/a", seconds: 2_000_000)
        f.dir.write("4/b/front.txt", "half")
        f.dir.writeCard("b", level: "6", front: "whole")
        Self.setModified(f.dir.path + "/6/b", seconds: 1_000_000)
        try f.reopen()
        #expect(try f.box.show(id: "a").front.text == "new")
        #expect(try f.box.show(id: "b").front.text == "whole")
        #expect(try f.box.status().counts.values.reduce(0, +) == 2)
        #expect(Set(try f.box.doctor().map(\.path)) == [f.dir.path + "/2/a", f.dir.path + "/4/b"])
    }
}
