import Glibc
import Testing
@testable import LeitnerCore
@testable import LeitnerSystem
import LeitnerTestSupport

/// `addMany`: a batch of new cards in one durable change (docs/store-format.md, "Batches").
@Suite(.serialized) struct BoxBatchTests {
    static func text(_ front: String, _ back: String, id: String? = nil, level: String? = nil) -> NewCard {
        NewCard(front: Asset(name: "front.txt", text: front), back: Asset(name: "back.txt", text: back), id: id, level: level)
    }

    @Test func addsEveryCardWithItsLevelAndLogsEachAdd() throws {
        let fixture = try BoxFixture()
        let outcome = try fixture.box.addMany([
            Self.text("perro", "dog"), Self.text("gato", "cat", level: "3"), Self.text("x", "y", id: "pájaro"),
        ], allowDuplicateFront: false)
        #expect(outcome.added == [.init(index: 0, id: "perro", level: .one), .init(index: 1, id: "gato", level: .three),
                                  .init(index: 2, id: "pájaro", level: .one)])
        #expect(outcome.present.isEmpty && outcome.refused.isEmpty)
        #expect(fixture.dir.read("3/gato/front.txt") == "gato")
        #expect(fixture.dir.read("1/pájaro/back.txt") == "y")
        #expect(fixture.dir.logLines.map { [$0[1], $0[2], $0[4]] } == [["add", "perro", "1"], ["add", "gato", "3"], ["add", "pájaro", "1"]])
        // Nothing is left staged, and no batch record once the batch is done.
        #expect(fixture.dir.exists(".leitner/local.here/tmp/add-perro") == false)
        #expect(fixture.dir.exists(".leitner/local.here/tmp/batches") == false)
        #expect(fixture.dir.exists(".leitner/local.here/batch") == false)
        #expect(try fixture.box.status().counts[.one] == 2)
    }

    /// R25, R31, R28: an imported card's tags and media are written with it, in the same
    /// change; its reverse gets a copy of the tags; a medium that could not be a file of its
    /// own in the card's directory refuses the card, and the rest go in.
    @Test func tagsAndMediaGoInWithTheCard() throws {
        let fixture = try BoxFixture()
        func card(_ front: String, _ media: [Asset], tags: [String] = ["de:tiere"]) -> NewCard {
            NewCard(front: Asset(name: "front.md", text: front + " ![](katze.png)"), back: Asset(name: "back.md", text: "cat"),
                    id: front, level: "2", tags: tags, media: media)
        }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0, 1, 2]
        let outcome = try fixture.box.addMany([
            card("Katze", [Asset(name: "katze.png", content: png)]),
            card("a", [Asset(name: "../katze.png", content: png)]),
            card("b", [Asset(name: "front.png", content: png)]),
            card("c", [Asset(name: "tags", content: png)]),
            card("d", [Asset(name: "x.png", content: png), Asset(name: "x.png", content: png)]),
            card("e", [], tags: ["de::tiere"]),
        ], allowDuplicateFront: false, withReverse: true)
        #expect(outcome.added.map(\.id) == ["Katze"] && outcome.added.first?.reverse == "Katze.rev")
        #expect(outcome.refused.map(\.index) == [1, 2, 3, 4, 5])
        #expect(fixture.dir.read("2/Katze/tags") == "de:tiere\n")
        #expect(fixture.dir.read("2/Katze.rev/tags") == "de:tiere\n")
        #expect(try FileSystem.readFile(atPath: fixture.dir.path + "/2/Katze/katze.png") == png)
        #expect(fixture.dir.exists("2/a") == false && fixture.dir.exists("2/b") == false)
        #expect(try fixture.box.show(id: "Katze").front.media.map(\.name) == ["katze.png"])
        #expect(try fixture.box.tagCounts().map { [$0.tag, String($0.cards)] } == [["de:tiere", "2"]])
    }

    /// R31: a picture several cards of a batch show with the same bytes is written once and
    /// hard-linked into each other card's directory, which holds it as its own file; the same
    /// name with other bytes is a file of its own.
    @Test func aMediumSeveralCardsShareIsWrittenOnceAndLinked() throws {
        let fixture = try BoxFixture()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0, 1, 2]
        func card(_ id: String, _ bytes: [UInt8]) -> NewCard {
            NewCard(front: Asset(name: "front.md", text: id + " ![](katze.png)"), back: Asset(name: "back.md", text: "cat"),
                    id: id, level: "2", media: [Asset(name: "katze.png", content: bytes)])
        }
        let outcome = try fixture.box.addMany([card("a", png), card("b", png), card("c", png + [3])], allowDuplicateFront: true)
        #expect(outcome.added.map(\.id) == ["a", "b", "c"])
        let status = try ["a", "b", "c"].map { try FileSystem.status(fixture.dir.path + "/2/\($0)/katze.png", in: nil) }
        #expect(status[0].st_ino == status[1].st_ino && status[0].st_nlink == 2)
        #expect(status[2].st_ino != status[0].st_ino && status[2].st_nlink == 1)
        #expect(try FileSystem.readFile(atPath: fixture.dir.path + "/2/b/katze.png") == png)
        #expect(try fixture.box.show(id: "b").front.media.map(\.name) == ["katze.png"])
        #expect(try fixture.box.doctor().isEmpty)
    }

    /// A picture an earlier batch wrote is linked from the card holding it into a later batch's
    /// card showing the same bytes under the same name (an import's batches share their
    /// pictures); once a hand has changed that file, or with other bytes, it is written anew.
    @Test func aMediumAnEarlierBatchWroteIsLinkedWhileItsBytesAreTheSame() throws {
        let fixture = try BoxFixture()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0, 1, 2]
        func add(_ id: String, _ bytes: [UInt8]) throws {
            let card = NewCard(front: Asset(name: "front.md", text: id + " ![](katze.png)"), back: Asset(name: "back.md", text: "cat"),
                               id: id, level: "2", media: [Asset(name: "katze.png", content: bytes)])
            #expect(try fixture.box.addMany([card], allowDuplicateFront: true).added.map(\.id) == [id])
        }
        func status(_ id: String) throws -> stat { try FileSystem.status(fixture.dir.path + "/2/\(id)/katze.png", in: nil) }
        try add("a", png)
        try add("b", png)
        #expect(try status("a").st_ino == status("b").st_ino && status("a").st_nlink == 2)
        try add("c", png + [3])
        #expect(try status("c").st_ino != status("a").st_ino)
        #expect(try FileSystem.readFile(atPath: fixture.dir.path + "/2/c/katze.png") == png + [3])
        // c holds the name now; a hand rewrites c's picture in place: d gets its own, with d's bytes.
        fixture.dir.write("2/c/katze.png", "not a picture")
        try add("d", png + [3])
        #expect(try status("d").st_ino != status("c").st_ino && status("d").st_nlink == 1)
        #expect(try FileSystem.readFile(atPath: fixture.dir.path + "/2/d/katze.png") == png + [3])
        #expect(try fixture.box.doctor().isEmpty)
    }

    /// R28, R34: a reverse goes beside its card, or into the level its card's `reverseLevel`
    /// names, in the same change, each logged in its own level; a `reverseLevel` that is none
    /// refuses its card.
    @Test func aReverseGoesWhereItsCardsReverseLevelSays() throws {
        let fixture = try BoxFixture()
        var far = Self.text("far", "b", level: "2")
        far.reverseLevel = "5"
        var same = Self.text("same", "b", level: "3")
        same.reverseLevel = nil
        var bad = Self.text("bad", "b", level: "2")
        bad.reverseLevel = "8"
        let outcome = try fixture.box.addMany([far, same, bad], allowDuplicateFront: true, withReverse: true)
        #expect(outcome.added.map(\.id) == ["far", "same"] && outcome.refused.map(\.index) == [2])
        #expect(outcome.refused.first?.error == .invalidLevel(level: "8"))
        #expect(fixture.dir.levelOnDisk("far") == ["2"] && fixture.dir.levelOnDisk("far.rev") == ["5"])
        #expect(fixture.dir.levelOnDisk("same.rev") == ["3"])
        #expect(fixture.dir.logLines.filter { $0[1] == "add" }.map { [$0[2], $0[4]] }
                == [["far", "2"], ["far.rev", "5"], ["same", "3"], ["same.rev", "3"]])
        #expect(try fixture.box.show(id: "far.rev").front.text == "b")
    }

    @Test func theSameBatchTwiceAddsNothingTheSecondTime() throws {
        let fixture = try BoxFixture()
        let batch = [Self.text("uno", "one"), Self.text("dos", "two", id: "two"), Self.text("tres", "three")]
        #expect(try fixture.box.addMany(batch, allowDuplicateFront: false).added.count == 3)
        let again = try fixture.box.addMany(batch, allowDuplicateFront: false)
        #expect(again.added.isEmpty)
        #expect(again.present == [.init(index: 0, id: "uno"), .init(index: 1, id: "two"), .init(index: 2, id: "tres")])
        #expect(fixture.dir.logLines.count == 3)
    }

    @Test func refusesWhatAddWouldRefuseAndAddsTheRest() throws {
        let fixture = try BoxFixture()
        let outcome = try fixture.box.addMany([
            Self.text("a", "b", id: "no spaces"),
            Self.text("c", "d", level: "9"),
            NewCard(front: Asset(name: "front", text: "e"), back: Asset(name: "back.txt", text: "f")),
            Self.text("fine", "good"),
        ], allowDuplicateFront: true)
        #expect(outcome.added == [.init(index: 3, id: "fine", level: .one)])
        #expect(outcome.refused.map(\.index) == [0, 1, 2])
        #expect(outcome.refused[0].error == .invalidCardId(id: "no spaces", reason: "contains a space"))
        #expect(outcome.refused[1].error == .invalidLevel(level: "9"))
        if case .invalidAsset(let name, _) = outcome.refused[2].error { #expect(name == "front") } else {
            Issue.record("expected invalidAsset, got \(outcome.refused[2].error)")
        }
    }

    @Test func duplicatesWithinTheBatchAndMadeUpIds() throws {
        let fixture = try BoxFixture()
        try fixture.box.addText("Hola", "hi")
        // Same front as a card in the box, and twice in the batch; with duplicates allowed, ids
        // are numbered past those the batch itself took.
        let strict = try fixture.box.addMany([Self.text(" Hola ", "x"), Self.text("adiós", "bye"), Self.text("adiós", "bye again")],
                                             allowDuplicateFront: false)
        #expect(strict.present == [.init(index: 0, id: "hola"), .init(index: 2, id: "adiós")])
        let loose = try fixture.box.addMany([Self.text("Hola", "a"), Self.text("Hola", "b")], allowDuplicateFront: true)
        #expect(loose.added.map(\.id) == ["hola-2", "hola-3"])
        // The same id twice in one batch: the second is present, as it would be in a second batch.
        let twice = try fixture.box.addMany([Self.text("p", "q", id: "same"), Self.text("r", "s", id: "same")], allowDuplicateFront: true)
        #expect(twice.added.map(\.id) == ["same"] && twice.present == [.init(index: 1, id: "same")])
        #expect(fixture.dir.read("1/same/front.txt") == "p")
    }

    @Test func cardsAddedToTheOpenTestsLevelsJoinItsQueue() throws {
        let fixture = try BoxFixture()
        try fixture.box.addText("uno", "one")
        #expect(try fixture.box.prepare().test.remaining == 1)
        _ = try fixture.box.addMany([Self.text("dos", "two"), Self.text("tres", "three", level: "5")], allowDuplicateFront: false)
        #expect(try fixture.box.status().test.remaining == 2) // R8: level 1 is in the test, 5 is not
    }

    @Test func survivesAReopenAndThenAGradeOfAnImportedCard() throws {
        let fixture = try BoxFixture()
        _ = try fixture.box.addMany((0..<300).map { Self.text("word \($0)", "back \($0)") }, allowDuplicateFront: false)
        try fixture.reopen()
        #expect(try fixture.box.status().counts[.one] == 300)
        _ = try fixture.box.prepare()
        let card = try #require(try fixture.box.next().card)
        _ = try fixture.box.grade(id: card.id, correct: true, answerMs: 10)
        fixture.kill()
        try fixture.reopen()
        #expect(fixture.dir.levelOnDisk(card.id) == ["2"])
        #expect(fixture.dir.logLines.filter { $0[1] == "add" }.count == 300)
    }

    /// A record left by a kill after its sync: the next open finishes every rename and writes
    /// the lines back, even those a power loss took from the log.
    @Test func aRecordLeftByACrashIsFinishedAtOpen() throws {
        let fixture = try BoxFixture()
        let sizeBefore = fixture.dir.logSize
        // Cut the batch off right after its record is synced: every later call fails.
        // Steps: the batch's directory and the one holding it; per card mkdir, 2 × (open, write);
        // then syncfs; the record's open, write, sync, directory sync.
        let cards = 3
        CrashPoint.arm(after: 2 + cards * 5 + 1 + 4 + 1)
        _ = try? fixture.box.addMany((0..<cards).map { Self.text("w\($0)", "b") }, allowDuplicateFront: false)
        let crashed = CrashPoint.hasCrashed
        CrashPoint.disarm()
        #expect(crashed)
        #expect(fixture.dir.exists(".leitner/local.here/batch"))
        #expect(fixture.dir.levelOnDisk("w0").isEmpty)
        fixture.kill()
        try fixture.reopen()
        #expect((0..<cards).allSatisfy { fixture.dir.levelOnDisk("w\($0)") == ["1"] })
        #expect(fixture.dir.read("1/w2/front.txt") == "w2")
        #expect(fixture.dir.logSize > sizeBefore)
        #expect(fixture.dir.logLines.filter { $0[1] == "add" }.map { $0[2] } == ["w0", "w1", "w2"])
        #expect(fixture.dir.exists(".leitner/local.here/batch") == false)
    }
}
