import Testing
@testable import LeitnerCore
import LeitnerSystem
import LeitnerTestSupport

/// `addClozes` (R30): a batch of cloze notes and all their cards in one durable change, each card
/// in the place its note names for its number (docs/store-format.md, "Batches").
@Suite(.serialized) struct ClozeBatchTests {
    static let katze = "Die {{c1::Katze}} schläft {{c2::auf dem Sofa::wo?}}, {{c1::die Katze}} träumt {{c3::lange}}."

    @Test func eachNoteGoesInWithItsCardsInTheirPlacesAndEachAddIsLogged() throws {
        let fixture = try BoxFixture()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0, 1, 2]
        let outcome = try fixture.box.addClozes([
            NewNote(text: Self.katze, id: "katze", level: "new", extra: "Katzen schlafen viel.", tags: ["de:grammar"],
                    cardLevels: [2: "5", 3: "suspended"]),
            NewNote(text: "Der {{c1::Hund}} bellt ![](hund.png).", id: "hund", typeAnswer: true, media: [Asset(name: "hund.png", content: png)]),
        ])
        #expect(outcome.added == [.init(index: 0, id: "katze.c1", level: .new), .init(index: 0, id: "katze.c2", level: .five),
                                  .init(index: 0, id: "katze.c3", level: .suspended), .init(index: 1, id: "hund.c1", level: .one)])
        #expect(outcome.present.isEmpty && outcome.refused.isEmpty)
        #expect(fixture.dir.read("notes/katze/text.md") == Self.katze)
        #expect(fixture.dir.read("notes/katze/extra.md") == "Katzen schlafen viel.")
        #expect(fixture.dir.read("notes/katze/tags") == "de:grammar\n")
        #expect(fixture.dir.read("5/katze.c2/cloze-of") == "katze\nc2\n")
        #expect(fixture.dir.read("suspended/katze.c3/tags") == "de:grammar\n")
        #expect(try FileSystem.readFile(atPath: fixture.dir.path + "/notes/hund/hund.png") == png)
        #expect(fixture.dir.exists("notes/hund/type-answer"))
        #expect(fixture.dir.logLines.map { [$0[1], $0[2], $0[4]] }
                == [["add", "katze.c1", "new"], ["add", "katze.c2", "5"], ["add", "katze.c3", "suspended"], ["add", "hund.c1", "1"]])
        // Nothing is left staged, and no batch record once the batch is done.
        #expect(fixture.dir.exists(".leitner/local.here/tmp/batches") == false)
        #expect(fixture.dir.exists(".leitner/local.here/batch") == false)
        let card = try fixture.box.show(id: "katze.c2")
        #expect(card.clozeOf == ClozeOf(note: "katze", number: 2) && card.level == .five)
        #expect(card.front.text == "Die Katze schläft **[wo?]**, die Katze träumt lange.")
        #expect(try fixture.box.show(id: "hund.c1").front.media.map(\.name) == ["hund.png"])
        #expect(try fixture.box.doctor().isEmpty)
    }

    /// The same batch sent again adds nothing: each note is present; a note `addCloze` would
    /// refuse is refused with its error, and the others go in.
    @Test func aNoteAlreadyInIsPresentAndARefusedOneStopsNoOther() throws {
        let fixture = try BoxFixture()
        try fixture.box.addText("taken", "card", id: "maus.c1")
        let batch = [
            NewNote(text: Self.katze, id: "katze", level: "2"),
            NewNote(text: "no deletion", id: "leer"),
            NewNote(text: "{{c1::x}}", id: "bad", level: "9"),
            NewNote(text: "{{c1::x}}", id: "bad", cardLevels: [1: "nowhere"]),
            NewNote(text: "Die {{c1::Maus}}", id: "maus"),
            NewNote(text: "{{c1::zwei}} mal", id: "katze"),
            NewNote(text: "{{c1::drei}}", id: "drei", tags: ["bad tag"]),
            NewNote(text: "{{c1::vier}}", id: "vier"),
        ]
        let first = try fixture.box.addClozes(batch)
        #expect(first.added.map(\.id) == ["katze.c1", "katze.c2", "katze.c3", "vier.c1"])
        #expect(first.present == [.init(index: 5, id: "katze")])
        #expect(first.refused.map(\.index) == [1, 2, 3, 4, 6])
        #expect(first.refused.first { $0.index == 4 }?.error == .cardExists(id: "maus.c1"))
        #expect(fixture.dir.exists("notes/maus") == false && fixture.dir.exists("notes/leer") == false)
        #expect(fixture.dir.read("notes/katze/text.md") == Self.katze)
        let again = try fixture.box.addClozes(batch)
        #expect(again.added.isEmpty)
        #expect(again.present.map(\.index) == [0, 5, 7])
        #expect(try fixture.box.status().counts[.two] == 3)
    }

    /// R23: a note's cards without a place go where a new card goes: into `new/` until the day's
    /// test opened, then into level 1 while today's admissions allow, each logged as admitted.
    @Test func cardsWithoutAPlaceAreAdmittedAsNewCardsAre() throws {
        let fixture = try BoxFixture(places: PlacesSettings(newPerDay: 2))
        _ = try fixture.box.prepare()
        let outcome = try fixture.box.addClozes([NewNote(text: Self.katze, id: "katze")])
        #expect(outcome.added.map(\.level) == [.one, .one, .new])
        #expect(fixture.dir.logLines.filter { $0[1] == "add" }.map { [$0[2], $0[4], $0.contains("origin=admit") ? "admitted" : ""] }
                == [["katze.c1", "1", "admitted"], ["katze.c2", "1", "admitted"], ["katze.c3", "new", ""]])
    }
}
