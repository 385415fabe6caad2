import Glibc
import Testing
@testable import LeitnerCore
import LeitnerSystem
import LeitnerTestSupport

/// The notes' first look made on a thread of its own from the open on (`NoteLook`), not by the
/// first request: whatever changes a note after its look and before that request is taken in by
/// the request, as when the look was its own (R30): a number gained gets its card, a number lost
/// damages its card, a note made gets its cards, a note renamed takes its cards along.
@Suite struct NoteLookTests {
    /// The store of `NoteRecordTests` (five notes of two numbers, cards named otherwise), opened
    /// again with its first look waited for, so that what the test does next comes after it.
    static func openedWithTheLookDone() throws -> BoxFixture {
        let f = try NoteRecordTests.reopenedWithARecord()
        try f.reopen()
        let look = try #require(f.box.noteLook, "the open started the notes' first look")
        look.waitUntilDone()
        return f
    }

    /// A first look made again on `f`'s store, through a reader of its own as on the look's
    /// thread, with `stamps` the record as parsed and `record` giving it as judged.
    static func lookAgain(_ f: BoxFixture, stamps: NoteRecord?, record: () -> NoteRecord?) throws -> (NoteIndex, Set<String>) {
        let reader = try CardReader(notesOf: f.box.store)
        defer { reader.close() }
        let files = NoteFiles(reader: reader, watcher: f.box.store.watcher, stopped: { false })
        return NoteIndex.build(cursor: f.box.store.openCursor(), files: files, stamps: stamps, record: record)
    }

    @Test func aNumberGainedAfterTheLookGetsItsCardAtTheFirstRequest() throws {
        let f = try Self.openedWithTheLookDone()
        f.dir.write("notes/n1/text.md", "Satz {{c1::eins}} und {{c2::zwei}} und {{c3::drei}}.")
        #expect(try f.box.status().counts[.one] == 11)
        #expect(try NoteRecordTests.adds(f.box).last == "n1.c3")
        #expect(try f.box.show(id: "n1.c3").clozeOf?.number == 3)
        #expect(f.box.noteLook == nil, "the first request took the look")
        #expect(try f.box.doctor().isEmpty)
    }

    @Test func aNumberLostAfterTheLookDamagesItsCardAndDeletesNothing() throws {
        let f = try Self.openedWithTheLookDone()
        f.dir.write("notes/n2/text.md", "Satz {{c1::eins}} und nichts mehr.")
        #expect(try f.box.status().counts[.one] == 9)
        let problems = try f.box.doctor()
        #expect(problems.map(\.path) == [f.box.storePath + "/1/k-2-2"])
        #expect(f.dir.read("1/k-2-2/cloze-of") == "n2\nc2\n")
        #expect(try NoteRecordTests.adds(f.box).count == 10)
    }

    @Test func aNoteMadeAndANoteRenamedAfterTheLookAreTakenIn() throws {
        let f = try Self.openedWithTheLookDone()
        f.dir.write("notes/neu/text.md", "{{c1::neu}}")
        f.dir.move("notes/n0", "notes/m0")
        #expect(try f.box.status().counts[.one] == 11)
        #expect(try NoteRecordTests.adds(f.box).last == "neu.c1")
        #expect(try ["k-0-1", "k-0-2"].map { try f.box.show(id: $0).clozeOf?.note } == ["m0", "m0"])
        #expect(try f.box.doctor().isEmpty)
    }

    /// The look judges every note's cards against the store's index as the open left it, so that
    /// the first request looks up none of them: here every number is held.
    @Test func theLookJudgesTheNotesCardsAgainstTheIndexTheOpenLeft() throws {
        let f = try Self.openedWithTheLookDone()
        let look = try #require(f.box.noteLook)
        f.box.noteLook = nil
        var looked = try #require(look.take(store: f.box.store))
        defer { f.box.store.closeCursor(looked.index.cursor) }
        #expect(looked.index.takeJudgedAtLook() == [], "every note's numbers were held")
        #expect(looked.index.takeJudgedAtLook() == nil, "taken once")
    }

    /// A note that lacked a card when the store was opened (its card deleted while the daemon was
    /// down) is judged lacking by the look, and gets its card at the first request.
    @Test func aNoteLackingACardAtTheOpenIsJudgedLackingByTheLook() throws {
        let f = try NoteRecordTests.reopenedWithARecord()
        f.close()
        precondition(system("rm -r '\(f.dir.path)/1/k-3-1'") == 0)
        try f.reopen()
        let look = try #require(f.box.noteLook)
        f.box.noteLook = nil
        var looked = try #require(look.take(store: f.box.store))
        defer { f.box.store.closeCursor(looked.index.cursor) }
        #expect(looked.index.takeJudgedAtLook() == ["n3"])
        try f.reopen()
        #expect(try f.box.status().counts[.one] == 10)
        #expect(try NoteRecordTests.adds(f.box).last == "n3.c1")
        #expect(try f.box.doctor().isEmpty)
    }

    /// R30 in the order of events the judgement on the look's thread adds: the look has judged
    /// every note held, then a note is edited by hand before the first request (losing c2,
    /// gaining c3). The request judges that note again: c3's card is added and c2's damaged.
    @Test func aNoteEditedByHandAfterTheLookJudgedItIsJudgedAgainAtTheFirstRequest() throws {
        let f = try Self.openedWithTheLookDone()
        f.dir.write("notes/n1/text.md", "Satz {{c1::eins}} und {{c3::drei}}.")
        #expect(try f.box.status().counts[.one] == 10)
        #expect(try NoteRecordTests.adds(f.box).last == "n1.c3")
        #expect(try f.box.show(id: "n1.c3").clozeOf?.number == 3)
        #expect(try f.box.doctor().map(\.path) == [f.box.storePath + "/1/k-1-2"])
        #expect(f.dir.read("1/k-1-2/cloze-of") == "n1\nc2\n", "nothing deleted")
    }

    /// A card deleted by hand after the look judged its note held, before the first request: the
    /// look's judgement no longer holds, and the request judges every note itself, so the number
    /// gets its card again (R30), as when the look was made on the turn.
    @Test func aCardDeletedByHandAfterTheLookJudgedItsNoteIsMissedByNone() throws {
        let f = try Self.openedWithTheLookDone()
        precondition(system("rm -r '\(f.dir.path)/1/k-2-2'") == 0)
        #expect(try f.box.status().counts[.one] == 10)
        #expect(try NoteRecordTests.adds(f.box).last == "n2.c2")
        #expect(try f.box.show(id: "n2.c2").clozeOf?.number == 2)
        #expect(try f.box.doctor().isEmpty)
    }

    @Test func aBoxClosedBeforeAnyRequestStopsItsLookAndTheNextOpenLooksAgain() throws {
        let f = try NoteRecordTests.reopenedWithARecord()
        try f.reopen()
        #expect(f.box.noteLook != nil)
        f.close()
        f.dir.write("notes/n4/text.md", "Satz {{c1::eins}} und {{c2::zwei}} und {{c3::drei}}.")
        try f.reopen()
        #expect(try f.box.status().counts[.one] == 11)
        #expect(try NoteRecordTests.adds(f.box).last == "n4.c3")
        #expect(try f.box.doctor().isEmpty)
    }

    @Test func aStoreWithoutNotesStartsNoLook() throws {
        let f = try BoxFixture("2026-05-04")
        f.dir.writeCard("a", level: "1")
        try f.reopen()
        #expect(f.box.noteLook == nil)
        f.dir.write("notes/neu/text.md", "{{c1::neu}} und {{c2::mehr}}")
        #expect(try f.box.status().counts[.one] == 3)
        #expect(try NoteRecordTests.adds(f.box).suffix(2) == ["neu.c1", "neu.c2"])
    }

    /// The look starts before the store's scan, so that its watches are taken alongside it: the
    /// hook it starts from sees a store whose levels are not read yet.
    @Test func theLookStartsBeforeTheScan() throws {
        let f = try BoxFixture("2026-05-04")
        f.dir.writeCard("a", level: "1")
        f.close()
        var seen: Level?? = nil
        let store = try Store(path: f.dir.path, device: "here", now: 0, beforeScan: { store in
            seen = .some(store.level(of: "a"))
            return nil
        })
        defer { store.close() }
        #expect(seen == .some(nil), "the hook ran before the scan")
        #expect(store.level(of: "a") == .one)
    }

    /// A note renamed by hand onto another listed with it, between the look's watch of one and
    /// of the other: the second watch is the first note's, renamed, so the first is forgotten and
    /// not read again as a note with no numbers and no watch (the rename's direction against the
    /// look's order is not known, so both are made).
    @Test func aNoteRenamedOntoAnotherDuringTheLookLeavesNoNoteBehind() throws {
        for (from, onto) in [("na", "nb"), ("nb", "na")] {
            let f = try BoxFixture("2026-05-04")
            f.dir.write("notes/na/text.md", "{{c1::a}}")
            f.dir.write("notes/nb/text.md", "{{c1::b}} {{c2::c}}")
            let reader = try CardReader(notesOf: f.box.store)
            defer { reader.close() }
            var calls = 0
            // Asked before each note's watch: the second time, between the two.
            let files = NoteFiles(reader: reader, watcher: f.box.store.watcher, stopped: {
                calls += 1
                if calls == 2 {
                    _ = system("rm -r '\(f.dir.path)/notes/\(onto)'")
                    f.dir.move("notes/\(from)", "notes/\(onto)")
                }
                return false
            })
            let (index, notes) = NoteIndex.build(cursor: f.box.store.openCursor(), files: files, stamps: nil, record: { nil })
            defer { f.box.store.closeCursor(index.cursor) }
            #expect(calls >= 2)
            #expect(index.numbersOf.keys.sorted() == [onto], "renamed \(from) onto \(onto)")
            #expect(notes == [onto])
            #expect(index.numbersOf[onto] == (from == "na" ? [1] : [1, 2]))
        }
    }

    /// The look compares each note's files with the record right after the note's watch, beside
    /// the store's scan, not once the box has judged the record, and reads those that differ then
    /// too: a note edited after those `stat`s and before the judgement is taken from the record,
    /// one that differed is read as it was, and each edit after is an event of its watch, which
    /// the first request takes in.
    @Test func theLookComparesAndReadsEachNoteBeforeTheRecordIsJudged() throws {
        let f = try Self.openedWithTheLookDone()
        _ = try f.box.status()
        let parsed = try #require(NoteRecord.load(in: f.box.store.stateFD))
        f.dir.write("notes/n2/text.md", "Satz {{c1::eins}} und {{c2::zwei}} und {{c3::drei}}.")
        var edited = false
        let (built, notes) = try Self.lookAgain(f, stamps: parsed.record, record: {
            f.dir.write("notes/n1/text.md", "Satz {{c1::eins}} und {{c2::zwei}} und {{c3::drei}}.")
            f.dir.write("notes/n2/text.md", "Satz {{c1::eins}} und {{c4::vier}}.")
            edited = true
            return NoteRecord.read(store: f.box.store, parsed: parsed)
        })
        var index = built
        defer { f.box.store.closeCursor(index.cursor) }
        #expect(edited)
        #expect(notes == ["n0", "n1", "n2", "n3", "n4"])
        #expect(index.notesRead == 1, "only the note that differed was read")
        #expect(index.numbersOf["n1"] == [1, 2], "found as recorded before the record was given")
        #expect(index.numbersOf["n2"] == [1, 2, 3], "read before the record was given")
        #expect(index.recordedHolders["n3"] == [1: "k-3-1", 2: "k-3-2"], "taken from the record")
        // The edits came after the watches: events, taken in by the next update (the request
        // reads the watcher's events into the store's feed).
        _ = try f.box.status()
        #expect(index.update(store: f.box.store).isSuperset(of: ["n1", "n2"]))
        #expect(index.numbersOf["n1"] == [1, 2, 3])
        #expect(index.numbersOf["n2"] == [1, 4])
    }

    /// What the look took from the record as parsed, before the box judged it, is mended by the
    /// judgement: a holder a line of the log since names is left out (its note's cards are looked
    /// for at the first request), and a record judged of no use has every note read after all.
    @Test func whatTheJudgementLeavesOutOfTheRecordIsLeftOutOfTheLook() throws {
        let f = try Self.openedWithTheLookDone()
        _ = try f.box.status()
        let parsed = try #require(NoteRecord.load(in: f.box.store.stateFD))
        _ = try f.box.rename(id: "k-1-1", to: "k-1-eins")
        var (index, _) = try Self.lookAgain(f, stamps: parsed.record, record: { NoteRecord.read(store: f.box.store, parsed: parsed) })
        #expect(index.notesRead == 0)
        #expect(index.recordedHolders["n1"] == [2: "k-1-2"], "the renamed holder left out")
        #expect(index.recordedHolders["n3"] == [1: "k-3-1", 2: "k-3-2"])
        index.judgeHolders(in: f.box.store.cardLevels)
        #expect(index.takeJudgedAtLook() == ["n1"])
        f.box.store.closeCursor(index.cursor)
        var (unrecorded, _) = try Self.lookAgain(f, stamps: parsed.record, record: { nil })
        #expect(unrecorded.notesRead == 5, "every note read once the record was judged of no use")
        #expect(unrecorded.recordedHolders.isEmpty)
        #expect(unrecorded.numbersOf["n1"] == [1, 2])
        unrecorded.judgeHolders(in: f.box.store.cardLevels)
        #expect(unrecorded.takeJudgedAtLook() == ["n0", "n1", "n2", "n3", "n4"], "no card named n.cN")
        f.box.store.closeCursor(unrecorded.cursor)
    }

    /// The ids the look's judgement looks up, made before the store's index is given, judge each
    /// number as `NoteIndex.firstLookHolder` does: held by the card the record named when it is in
    /// the store, else by `NOTE.cN`; a note whose `NOTE.cN` is no valid id has only the first. A
    /// number whose recorded holder is gone is held by its `NOTE.cN` (made only then).
    @Test func theChecksMadeBeforeTheIndexJudgeAsTheFirstLookHolderDoes() {
        var cards = CardIndex()
        for (id, level) in [("a.c1", Level.one), ("x", .two), ("b.c2", .three), ("f.c1", .one)] { cards[id] = level }
        let long = String(repeating: "l", count: 127), longer = String(repeating: "m", count: 127)
        let longest = String(repeating: "n", count: 127)
        let numbersOf: [String: [Int]] = ["a": [1, 2], "b": [1, 2], "c": [1], "d": [], "e": [1], "f": [1], long: [1], longer: [1], longest: [1]]
        let recorded: [String: [Int: String]] = ["a": [2: "x"], "b": [1: "gone"], "e": [1: "x"], "f": [1: "gone"], longer: [1: "x"],
                                                 longest: [1: "gone"]]
        let lacking = HolderChecks(numbersOf: numbersOf, recorded: recorded).lacking(in: cards)
        #expect(lacking == ["b", "c", long, longest])
        let judged = numbersOf.filter { note, numbers in
            numbers.contains { NoteIndex.firstLookHolder(of: note, number: $0, recorded: recorded[note], level: { cards[$0] }) == nil }
        }
        #expect(lacking == Set(judged.keys))
    }

    /// A look waiting for the record (the store's scan not done) gives up when stopped, and one
    /// given none reads every note: what changed after its watches and before its reads is in it.
    @Test func aLookWaitingForItsRecordStopsAndOneGivenNoneReadsEveryNote() throws {
        let f = try Self.openedWithTheLookDone()
        _ = try f.box.status()
        let waiting = try #require(NoteLook.start(store: f.box.store))
        // The record the last close wrote, parsed on the look's thread for the box to judge.
        #expect(waiting.parsedRecord()?.record.entries.keys.sorted() == ["n0", "n1", "n2", "n3", "n4"])
        waiting.stop(store: f.box.store)
        #expect(waiting.take(store: f.box.store) == nil, "a stopped look found nothing")
        let look = try #require(NoteLook.start(store: f.box.store))
        f.dir.write("notes/n1/text.md", "Satz {{c1::eins}} und {{c2::zwei}} und {{c3::drei}}.")
        look.give(record: nil, cards: f.box.store.cardLevels)
        let looked = try #require(look.take(store: f.box.store))
        #expect(looked.notes == ["n0", "n1", "n2", "n3", "n4"])
        #expect(looked.index.notesRead == 5)
        #expect(looked.index.numbersOf["n1"] == [1, 2, 3])
        f.box.store.closeCursor(looked.index.cursor)
    }
}
