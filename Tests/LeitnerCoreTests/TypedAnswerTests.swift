import Testing
@testable import LeitnerCore

/// Which cards ask for a typed answer and what they expect (docs/rules.md R32).
@Suite struct TypedAnswerTests {
    static func card(_ id: String, level: Level, front: String, back: String, mediaType: String = "text/plain",
                     clozeOf: ClozeOf? = nil) -> Card {
        Card(id: id, level: level, front: Side(path: front, mediaType: mediaType, text: "q"),
             back: Side(path: back, mediaType: mediaType, text: "**der** _Hund_ / dog"), clozeOf: clozeOf)
    }

    @Test func aReverseCardAsksByItsOwnDirectory() {
        // Its sides are the original's files, in another level.
        let reverse = TypedAnswerTests.card("hund.rev", level: .two, front: "/box/5/hund/back.md",
                                            back: "/box/5/hund/front.md", mediaType: "text/markdown")
        #expect(TypedAnswer.expected(reverse, everyCard: false, exists: { $0 == "/box/2/hund.rev/type-answer" })
                == "der Hund / dog")
        #expect(TypedAnswer.expected(reverse, everyCard: false, exists: { $0 == "/box/5/hund/type-answer" }) == nil)
        #expect(TypedAnswer.expected(reverse, everyCard: true, exists: { _ in false }) == "der Hund / dog")
    }

    @Test func aClozeCardAsksByItsDirectoryOrItsNote() {
        let cloze = TypedAnswerTests.card("k.c1", level: .new, front: "/box/notes/k/text.md", back: "/box/notes/k/text.md",
                                          clozeOf: ClozeOf(note: "k", number: 1))
        #expect(TypedAnswer.asksForTyping(cloze, exists: { $0 == "/box/notes/k/type-answer" }))
        #expect(TypedAnswer.asksForTyping(cloze, exists: { $0 == "/box/new/k.c1/type-answer" }))
        #expect(!TypedAnswer.asksForTyping(cloze, exists: { $0 == "/box/notes/other/type-answer" }))
    }

    @Test func aClozeCardExpectsItsDeletion() {
        let text = ClozeText(parsing: "Die {{c1::Katze}} schläft {{c2::auf dem **Sofa**::wo?}}, die {{c1::Maus}}, {{c1::Katze}}")
        #expect(TypedAnswer.clozeAnswer(text, number: 1, mediaType: "text/plain") == "Katze, Maus")
        #expect(TypedAnswer.clozeAnswer(text, number: 2, mediaType: "text/markdown") == "auf dem Sofa")
        #expect(TypedAnswer.clozeAnswer(text, number: 3, mediaType: "text/plain") == nil)
    }
}
