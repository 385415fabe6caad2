import Glibc
import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// R30: a note renamed or deleted, as R28 does for a card's reverses — with `rename` and
/// `delete` of the note's id, and by hand (`mv`, `rm -r` of its directory). Its cards keep their
/// ids, levels and histories; none is lost or doubled, and none takes another number's schedule.
@Suite struct ClozeNoteRenameTests {
    /// A note `zahl` with two cards, `zahl.c1` in level 2 and `zahl.c2` moved to level 4.
    func withNote(_ body: (Box, TemporaryDirectory) throws -> Void) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-05-04"))
        defer { box.close() }
        _ = try box.addCloze(text: "{{c1::eins}} und {{c2::zwei}}", id: "zahl", level: "2")
        _ = try box.move(id: "zahl.c2", level: "4")
        try body(box, dir)
    }

    /// What the store says of the note's cards: each card's level and what its `cloze-of` names.
    func cards(_ box: Box) throws -> [String] {
        try box.list(level: nil, withText: false).map { "\($0.id) \($0.level.name) \($0.clozeOf?.description ?? "-")" }
    }

    func events(_ box: Box) throws -> [String] {
        try box.log(since: nil, limit: nil).map { "\($0.event) \($0.id ?? "")" }
    }

    @Test func renameOfANoteRewritesItsCardsInOneChange() throws {
        try withNote { box, dir in
            let before = try events(box)
            let first = try box.rename(id: "zahl", to: "nummer")
            #expect(first.id == "zahl.c1" && first.clozeOf == ClozeOf(note: "nummer", number: 1))
            #expect(dir.exists("notes/nummer/text.md") && !dir.exists("notes/zahl"))
            #expect(dir.read("2/zahl.c1/cloze-of") == "nummer\nc1\n" && dir.read("4/zahl.c2/cloze-of") == "nummer\nc2\n")
            // The cards keep their ids and levels; the renamed note gets no card of its own.
            #expect(try cards(box) == ["zahl.c1 2 cloze 1 of nummer", "zahl.c2 4 cloze 2 of nummer"])
            #expect(try events(box) == before + ["edit zahl.c1", "edit zahl.c2"])
            #expect(try box.show(id: "zahl.c2").front.path == dir.path + "/notes/nummer/text.md")
            #expect(try box.doctor().isEmpty)
            // A note of that name exists: refused, nothing changed.
            _ = try box.addCloze(text: "{{c1::drei}}", id: "drei", level: nil)
            #expect(throws: BoxError.self) { try box.rename(id: "nummer", to: "drei") }
            #expect(dir.read("2/zahl.c1/cloze-of") == "nummer\nc1\n" && dir.exists("notes/nummer/text.md"))
            // A number the renamed note gains gets its card under the note's new id.
            dir.write("notes/nummer/text.md", "{{c1::eins}} und {{c2::zwei}} {{c3::drei}}")
            #expect(try box.show(id: "nummer.c3").clozeOf == ClozeOf(note: "nummer", number: 3))
        }
    }

    @Test func deleteOfANoteDeletesItsCardsUnlessKept() throws {
        try withNote { box, dir in
            _ = try box.addCloze(text: "{{c1::drei}}", id: "drei", level: nil)
            #expect(try box.delete(id: "zahl", keepReverses: false) == ["zahl.c1", "zahl.c2"])
            #expect(!dir.exists("notes/zahl") && !dir.exists("2/zahl.c1") && !dir.exists("4/zahl.c2"))
            #expect(try events(box).suffix(2) == ["delete zahl.c1", "delete zahl.c2"])
            #expect(try cards(box) == ["drei.c1 1 cloze 1 of drei"] || cards(box) == ["drei.c1 new cloze 1 of drei"])
            // Kept: the cards stay, damaged since their note is gone, and doctor says so.
            #expect(try box.delete(id: "drei", keepReverses: true) == ["drei.c1"])
            #expect(!dir.exists("notes/drei") && dir.levelOnDisk("drei.c1").count == 1)
            let problems = try box.doctor()
            #expect(problems.count == 1 && problems.first?.reason.contains("note is gone") == true)
            #expect(throws: BoxError.noSuchCard(id: "zahl")) { try box.delete(id: "zahl", keepReverses: false) }
        }
    }

    /// Deleting one card whose number its note still holds would only bring it back, with a fresh
    /// schedule, at the next request: refused, with what to do instead.
    @Test func deleteOfAClozeCardTheNoteStillHoldsIsRefused() throws {
        try withNote { box, dir in
            do {
                _ = try box.delete(id: "zahl.c2", keepReverses: false)
                Issue.record("a cloze card its note still holds was deleted")
            } catch {
                #expect("\(error)".contains("edit the note") && "\(error)".contains("leitnerctl delete zahl"))
            }
            #expect(dir.exists("4/zahl.c2/cloze-of"))
            // Once the note no longer holds the number, the card (damaged) is deleted by name.
            dir.write("notes/zahl/text.md", "{{c1::eins}} und zwei")
            _ = try box.delete(id: "zahl.c2", keepReverses: false)
            #expect(!dir.exists("4/zahl.c2"))
            // A second card of one number (a copy) may go: the number stays held.
            dir.write("3/kopie/cloze-of", "zahl\nc1\n")
            _ = try box.delete(id: "kopie", keepReverses: false)
            #expect(try cards(box) == ["zahl.c1 2 cloze 1 of zahl"])
        }
    }

    /// `mv notes/zahl notes/nummer` while the daemon runs: the next request sees the same
    /// directory under a new name, and the cards follow it as `rename` would have them.
    @Test func aNoteRenamedByHandTakesItsCardsAlong() throws {
        try withNote { box, dir in
            _ = try box.status()
            #expect(rename(dir.path + "/notes/zahl", dir.path + "/notes/nummer") == 0)
            #expect(try cards(box) == ["zahl.c1 2 cloze 1 of nummer", "zahl.c2 4 cloze 2 of nummer"])
            #expect(try events(box).suffix(2) == ["edit zahl.c1", "edit zahl.c2"])
            #expect(try box.doctor().isEmpty)
        }
    }

    /// The same `mv` while the daemon is down: at the first request, a note without cards whose
    /// numbers are exactly those of a gone note's cards is that note.
    @Test func aNoteRenamedWhileClosedTakesItsCardsAlong() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let clock = ManualClock("2026-05-04")
        do {
            let box = try Box.open(dir, clock: clock)
            _ = try box.addCloze(text: "{{c1::eins}} und {{c2::zwei}}", id: "zahl", level: "2")
            _ = try box.addCloze(text: "{{c1::a}} {{c2::b}}", id: "ab", level: "3")
            box.close()
        }
        #expect(rename(dir.path + "/notes/zahl", dir.path + "/notes/nummer") == 0)
        // A new note whose numbers two gone notes' cards have: which one it was is not known, so
        // it gets cards of its own, and the gone notes' cards stay as they are (damaged).
        dir.write("notes/x/text.md", "{{c1::x}}")
        dir.write("1/y-alt/cloze-of", "y\nc1\n")
        dir.write("1/z-alt/cloze-of", "z\nc1\n")
        let box = try Box.open(dir, clock: clock)
        defer { box.close() }
        #expect(try cards(box).filter { !$0.hasPrefix("x.") } == [
            "zahl.c1 2 cloze 1 of nummer", "zahl.c2 2 cloze 2 of nummer", "ab.c1 3 cloze 1 of ab", "ab.c2 3 cloze 2 of ab",
        ])
        #expect(!dir.exists("new/nummer.c1") && !dir.exists("1/nummer.c1") && dir.levelOnDisk("x.c1").count == 1)
        #expect(dir.read("1/y-alt/cloze-of") == "y\nc1\n" && dir.read("1/z-alt/cloze-of") == "z\nc1\n")
        #expect(try box.doctor().map(\.path).sorted() == [dir.path + "/1/y-alt", dir.path + "/1/z-alt"])
    }

    /// `rm -r notes/zahl`: the cards stay, damaged, reported; nothing is deleted (R21).
    @Test func aNoteDeletedByHandLeavesItsCardsDamaged() throws {
        try withNote { box, dir in
            _ = try box.prepare()
            dir.removeTree("notes/zahl")
            let problems = try box.doctor().map(\.path).sorted()
            #expect(problems == [dir.path + "/2/zahl.c1", dir.path + "/4/zahl.c2"])
            #expect(dir.exists("2/zahl.c1/cloze-of") && dir.exists("4/zahl.c2/cloze-of"))
            #expect(try box.list(level: nil, withText: false).isEmpty)
        }
    }
}
