import Glibc
import Testing
@testable import LeitnerCore
import LeitnerSystem
import LeitnerTestSupport

/// R30: a cloze note in `notes/` is never reviewed; each deletion number in its text has one
/// card, a directory holding `cloze-of`, served with that deletion hidden and then revealed; a
/// card whose note is gone or no longer holds its number is damaged, reported and kept.
@Suite struct ClozeNoteTests {
    static let katze = "Die {{c1::Katze}} schläft {{c2::auf dem Sofa::wo?}}, die {{c1::Katze}} und {{c3::der Hund}}."

    @Test func theParserFindsNumbersAnswersAndHints() {
        let text = ClozeText(parsing: ClozeNoteTests.katze)
        #expect(text.numbers == [1, 2, 3])
        #expect(text.pieces[1] == .deletion(number: 1, answer: "Katze", hint: nil))
        #expect(text.pieces[3] == .deletion(number: 2, answer: "auf dem Sofa", hint: "wo?"))
        // Not deletions: kept as text, character for character.
        for literal in ["{{c0::x}}", "{{c100::x}}", "{{c1::x", "{{c1::}}", "{{c01::x}}", "{{c1:x}}", "{{cx::y}}", "{{c"] {
            let parsed = ClozeText(parsing: "a " + literal + " b")
            #expect(parsed.numbers.isEmpty, "\(literal)")
            #expect(parsed.question(hiding: 1, markdown: false) == "a " + literal + " b")
        }
        #expect(ClozeText(parsing: "{{c99::z}}").numbers == [99])
        #expect(ClozeText(parsing: "{{c2::a::}}").pieces == [.deletion(number: 2, answer: "a", hint: nil)])
    }

    /// `cloze-of` as the box writes it is read from its bytes, anything else by the general
    /// reading: both give what R30 says a `cloze-of` names.
    @Test func aClozeOfFileNamesItsNoteAndNumber() {
        let named: [(String, ClozeOf?)] = [
            ("katze\nc2\n", ClozeOf(note: "katze", number: 2)),
            ("katze\nc2", ClozeOf(note: "katze", number: 2)),
            ("katze\nc99\n", ClozeOf(note: "katze", number: 99)),
            ("katze\nc05\n", ClozeOf(note: "katze", number: 5)),
            ("katze\n2\n", ClozeOf(note: "katze", number: 2)),
            ("  katze \r\n\n c3 \n", ClozeOf(note: "katze", number: 3)),
            ("Ka\u{308}tze\nc1\n", ClozeOf(note: "Kätze", number: 1)),
            ("katze\nc0\n", nil), ("katze\nc100\n", nil), ("katze\nc\n", nil), ("katze\nc1x\n", nil),
            (".katze\nc1\n", nil), ("katze\n", nil), ("katze\nc1\nc2\n", nil), ("\nc1\n", nil), ("", nil),
        ]
        for (text, link) in named {
            #expect((try? Store.parseClozeFile(text).get()) == link, "\(text.debugDescription)")
        }
    }

    @Test func aCardHidesItsNumberEverywhereAndShowsTheOthers() {
        let text = ClozeText(parsing: ClozeNoteTests.katze)
        #expect(text.question(hiding: 1, markdown: false) == "Die […] schläft auf dem Sofa, die […] und der Hund.")
        #expect(text.question(hiding: 2, markdown: true) == "Die Katze schläft **[wo?]**, die Katze und der Hund.")
        #expect(text.answer(revealing: 3, markdown: false, extra: nil) == "Die Katze schläft auf dem Sofa, die Katze und [der Hund].")
        #expect(text.answer(revealing: 1, markdown: true, extra: "Katze: cat\n")
                == "Die **[Katze]** schläft auf dem Sofa, die **[Katze]** und der Hund.\n\nKatze: cat\n")
    }

    /// A note and its cards made by hand, as a sync tool or a person would leave them.
    func withNote(_ body: (Box, TemporaryDirectory) throws -> Void) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-05-04"))
        defer { box.close() }
        dir.write("notes/katze/text.md", ClozeNoteTests.katze)
        dir.write("notes/katze/extra.md", "Katze: cat")
        dir.write("1/katze.c1/cloze-of", "katze\nc1\n")
        dir.write("2/katze.c2/cloze-of", "katze\n2")
        dir.write("1/wo/cloze-of", "katze\nc3\n")
        try body(box, dir)
    }

    @Test func aClozeCardIsServedFromItsNote() throws {
        try withNote { box, dir in
            let card = try box.show(id: "katze.c2")
            #expect(card.clozeOf == ClozeOf(note: "katze", number: 2) && card.level == .two)
            #expect(card.front.text == "Die Katze schläft **[wo?]**, die Katze und der Hund.")
            #expect(card.back.text == "Die Katze schläft **[auf dem Sofa]**, die Katze und der Hund.\n\nKatze: cat")
            #expect(card.front.path == dir.path + "/notes/katze/text.md" && card.front.mediaType == "text/markdown")
            // Any name: the file makes it a cloze card.
            #expect(try box.show(id: "wo").clozeOf?.number == 3)
            // The note itself is no card: never listed, counted or tested.
            #expect(try box.list(level: nil, withText: false).map(\.id).sorted() == ["katze.c1", "katze.c2", "wo"])
            #expect(try box.status().counts[.one] == 2)
            _ = try box.prepare()
            #expect(Set(box.test!.queue).isSuperset(of: ["katze.c1", "wo"]))
            #expect(try box.doctor().isEmpty)
        }
    }

    @Test func aCardWhoseNumberLeftTheNoteIsDamagedAndKept() throws {
        try withNote { box, dir in
            _ = try box.prepare()
            dir.write("notes/katze/text.md", "Die {{c1::Katze}} schläft {{c2::auf dem Sofa}}.")
            let problems = try box.doctor()
            #expect(problems.map(\.path) == [dir.path + "/1/wo"])
            #expect(problems.first?.kind == .damagedCard)
            #expect(problems.first?.reason.contains("no longer holds deletion c3") == true)
            #expect(problems.first?.advice.contains("{{c3::…}}") == true)
            #expect(problems.first?.advice.contains("leitnerctl delete wo") == true)
            #expect(!box.test!.queue.contains("wo"))
            #expect(dir.exists("1/wo/cloze-of"))
            // The number back: the card is sound again.
            dir.write("notes/katze/text.md", "{{c3::Hund}} und {{c1::Katze}} {{c2::x}}")
            #expect(try box.show(id: "wo").front.text == "**[…]** und Katze x")
            #expect(try box.doctor().isEmpty)
        }
    }

    @Test func aCardWhoseNoteIsGoneOrBadIsDamaged() throws {
        try withNote { box, dir in
            dir.write("3/lost/cloze-of", "hund\nc1\n")
            dir.write("3/bad/cloze-of", "katze\n")
            dir.write("3/zero/cloze-of", "katze\nc0\n")
            dir.write("3/both/cloze-of", "katze\nc1\n")
            dir.write("3/both/front.txt", "x")
            dir.write("notes/two/text.md", "{{c1::a}}")
            dir.write("notes/two/text.txt", "{{c1::a}}")
            dir.write("3/two.c1/cloze-of", "two\nc1\n")
            let problems = try box.doctor().sorted { $0.path < $1.path }
            #expect(problems.map(\.path) == ["3/bad", "3/both", "3/lost", "3/two.c1", "3/zero"].map { dir.path + "/" + $0 })
            #expect(problems[0].reason.contains("two: the note's id, then the number"))
            #expect(problems[1].reason.contains("sides of its own"))
            #expect(problems[2].reason.contains("the note 'hund' is not in"))
            #expect(problems[2].advice.contains("leitnerctl delete lost"))
            #expect(problems[3].reason.contains("both text.md and text.txt"))
            #expect(problems[4].reason.contains("not a deletion number"))
            #expect(dir.exists("3/lost/cloze-of"))
        }
    }

    /// R11: two cards of one note are never offered one right after the other while the queue
    /// holds a card of another note.
    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func aNotesCardsAreKeptApart(seed: UInt64) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-05-04"), seeds: SeedSequence(seed: seed))
        defer { box.close() }
        for note in ["a", "b", "c"] {
            dir.write("notes/\(note)/text.txt", "{{c1::x}} {{c2::y}} {{c3::z}}")
            for n in 1...3 { dir.write("1/\(note).c\(n)/cloze-of", "\(note)\nc\(n)\n") }
        }
        func note(_ id: String) -> Substring { id.prefix { $0 != "." } }
        var previous: String?
        var answers = 0
        while let card = try box.next().card {
            if let previous, note(previous) == note(card.id) {
                #expect(box.test!.queue.allSatisfy { $0 == previous || note($0) == note(previous) },
                        "seed \(seed): \(card.id) right after \(previous), queue \(box.test!.queue)")
            }
            answers += 1
            _ = try box.grade(id: card.id, correct: answers % 4 != 0, answerMs: 5)
            previous = card.id
        }
        #expect(answers >= 9)
    }

    @Test func addClozeWritesTheNoteAndOneCardANumberLogged() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-05-04"))
        defer { box.close() }
        let cards = try box.addCloze(text: ClozeNoteTests.katze, id: nil, level: nil, extra: "cat", tags: ["de"])
        let note = "die-katze-schläft-auf-dem-sofa-die"
        #expect(cards.map(\.id) == [1, 2, 3].map { note + ".c\($0)" })
        #expect(cards.map(\.clozeOf?.number) == [1, 2, 3] && cards.allSatisfy { $0.tags == ["de"] })
        #expect(dir.snapshot().contains("/notes/\(note)/text.md = \(ClozeNoteTests.katze)"))
        #expect(dir.snapshot().contains("/notes/\(note)/extra.md = cat"))
        #expect(try box.log(since: nil, limit: nil).filter { $0.event == .add }.map(\.id) == cards.map(\.id))
        #expect(cards[0].back.text == "Die **[Katze]** schläft auf dem Sofa, die **[Katze]** und der Hund.\n\ncat")
        // In a level when one is named; a text without a deletion, or a note that exists, is refused.
        let named = try box.addCloze(text: "{{c2::zwei}}", id: "zahl", level: "3")
        #expect(named.map(\.id) == ["zahl.c2"] && named[0].level == .three)
        #expect(throws: BoxError.self) { try box.addCloze(text: "no gap", id: "x", level: nil) }
        #expect(throws: BoxError.self) { try box.addCloze(text: "{{c1::y}}", id: "zahl", level: nil) }
        #expect(!dir.exists("notes/x") && !dir.exists("new/zahl.c1") && !dir.exists("1/zahl.c1"))
        #expect(try box.doctor().isEmpty)
    }

    /// R31, R32: a cloze note's media go into its directory with the note, where each of its
    /// cards shows them, and `typeAnswer` gives it its `type-answer` file; a medium `Add` would
    /// refuse refuses the note, and nothing is written.
    @Test func aClozeNotesMediaAndTypeAnswerAreWrittenWithIt() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-05-04"))
        defer { box.close() }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0, 1, 2]
        let cards = try box.addCloze(text: "Die {{c1::Katze}} ![](katze.png) {{c2::schnurrt}}", id: "katze", level: nil,
                                     extra: "[sound:miau.mp3]", typeAnswer: true,
                                     media: [Asset(name: "katze.png", content: png), Asset(name: "miau.mp3", content: [0xFF, 0xFB])])
        #expect(try FileSystem.readFile(atPath: dir.path + "/notes/katze/katze.png") == png)
        #expect(dir.exists("notes/katze/miau.mp3") && dir.exists("notes/katze/type-answer"))
        #expect(cards.map { $0.front.media.map(\.name) } == [["katze.png"], ["katze.png"]])
        #expect(cards.allSatisfy { TypedAnswer.asksForTyping($0) { FileSystem.exists($0, in: nil) } })
        for bad in [Asset(name: "front.png", content: png), Asset(name: "notes.txt", content: png), Asset(name: "../x.png", content: png)] {
            #expect(throws: BoxError.self) { try box.addCloze(text: "{{c1::y}}", id: "bad", level: nil, media: [bad]) }
        }
        #expect(!dir.exists("notes/bad") && !dir.exists("new/bad.c1") && !dir.exists("1/bad.c1"))
        _ = try box.addCloze(text: "{{c1::ohne}}", id: "plain", level: nil)
        #expect(!dir.exists("notes/plain/type-answer"))
    }

    /// R30: a number written into a note by hand gets its card at the next request, in `new/`
    /// (R23), logged once, with the note's tags; a note made by hand gets all of its cards.
    @Test func aNoteThatGainsANumberGetsItsCardAtTheNextRequest() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var options = BoxOptions(storePath: dir.path, device: TestBox.device, clock: ManualClock("2026-05-04"))
        options.newPerDay = 5
        let box = try Box(options: options)
        defer { box.close() }
        _ = try box.addCloze(text: "{{c1::eins}} {{c2::zwei}}", id: "zahl", level: "2", tags: ["de"])
        #expect(try box.status().counts[.new] == 0)
        dir.write("notes/zahl/text.md", "{{c1::eins}} {{c2::zwei}} {{c3::drei}} {{c7::sieben::n}}")
        func adds() throws -> [String] { try box.log(since: nil, limit: nil).filter { $0.event == .add }.compactMap(\.id) }
        #expect(try box.status().counts[.new] == 2)
        #expect(try adds() == ["zahl.c1", "zahl.c2", "zahl.c3", "zahl.c7"])
        let seven = try box.show(id: "zahl.c7")
        #expect(seven.level == .new && seven.clozeOf == ClozeOf(note: "zahl", number: 7) && seven.tags == ["de"])
        #expect(seven.front.text == "eins zwei drei **[n]**")
        // Each once: later requests, and a rewrite that changes no number, add nothing.
        dir.write("notes/zahl/text.md", "{{c7::sieben::n}} {{c1::eins}} {{c2::zwei}} {{c3::drei}}")
        _ = try box.status()
        _ = try box.list(level: nil, withText: false)
        #expect(try adds().count == 4)
        // A number held by a card of another name is not added again.
        dir.write("notes/hund/text.txt", "{{c1::Hund}} {{c2::Katze}}")
        dir.write("3/miau/cloze-of", "hund\nc2\n")
        _ = try box.status()
        #expect(dir.exists("new/hund.c1/cloze-of") && !dir.exists("new/hund.c2"))
        // The hand-made card is logged as it came (R16), then the one the note lacked.
        #expect(try adds() == ["zahl.c1", "zahl.c2", "zahl.c3", "zahl.c7", "miau", "hund.c1"])
        #expect(try box.doctor().isEmpty)
    }

    /// A note put into `notes/` while the daemon was down, or left without its cards by a crash,
    /// gets them at the first request after open.
    @Test func aNoteWithoutCardsGetsThemAtTheFirstRequest() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.write("notes/hund/text.md", "Der {{c1::Hund}} bellt {{c2::laut}}.")
        dir.write("notes/hund/tags", "de\n")
        let box = try Box.open(dir, clock: ManualClock("2026-05-04"))
        defer { box.close() }
        #expect(try box.list(level: nil, withText: false).map(\.id) == ["hund.c1", "hund.c2"])
        #expect(try box.show(id: "hund.c2").tags == ["de"])
        #expect(try box.log(since: nil, limit: nil).map(\.event) == [.add, .add])
    }

    /// R30: `edit` of a cloze card edits its note — the front its text, the back its extra — and
    /// shows in every card of it; a number the edit adds gets its card in the same request.
    @Test func editOfAClozeCardEditsItsNote() throws {
        try withNote { box, dir in
            let front = try box.readAsset(id: "wo", side: .front)
            #expect(front.name == "front.md" && String(decoding: front.data, as: UTF8.self) == ClozeNoteTests.katze)
            #expect(try box.readAsset(id: "wo", side: .back).name == "back.md")
            let text = "Die {{c1::Katze}} schläft {{c2::auf dem Sofa::wo?}} und {{c3::der Hund}} {{c4::bellt}}."
            let edited = try box.edit(id: "wo", front: Asset(name: "front.md", text: text), back: Asset(name: "back.md", text: "Hund: dog"))
            #expect(edited.changed && edited.card.back.text == "Die Katze schläft auf dem Sofa und **[der Hund]** bellt.\n\nHund: dog")
            #expect(dir.snapshot().contains("/notes/katze/text.md = \(text)"))
            #expect(dir.snapshot().contains("/notes/katze/extra.md = Hund: dog"))
            #expect(try box.show(id: "katze.c1").front.text == "Die **[…]** schläft auf dem Sofa und der Hund bellt.")
            #expect(try box.show(id: "katze.c4").level == .one)
            let log = try box.log(since: nil, limit: nil).suffix(2)
            #expect(log.map(\.event) == [.edit, .add] && log.compactMap(\.id) == ["wo", "katze.c4"])
            // The same text again changes nothing; a text without a deletion is refused.
            #expect(try !box.edit(id: "katze.c2", front: Asset(name: "front.md", text: text), back: nil).changed)
            #expect(throws: BoxError.self) { try box.edit(id: "wo", front: Asset(name: "front.md", text: "no gap"), back: nil) }
            // A plain-text front makes the note's text text.txt.
            _ = try box.edit(id: "wo", front: Asset(name: "front.txt", text: "{{c3::x}}"), back: nil)
            #expect(dir.exists("notes/katze/text.txt") && !dir.exists("notes/katze/text.md"))
            #expect(try box.show(id: "wo").front.path == dir.path + "/notes/katze/text.txt")
            #expect(try box.doctor().map(\.path).sorted() == ["1/katze.c1", "1/katze.c4", "2/katze.c2"].map { dir.path + "/" + $0 })
        }
    }
}
