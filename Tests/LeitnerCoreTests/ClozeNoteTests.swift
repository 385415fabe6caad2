import Glibc
import Testing
@testable import LeitnerCore
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
}
