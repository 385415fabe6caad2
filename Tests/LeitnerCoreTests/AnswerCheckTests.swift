import Testing
@testable import LeitnerCore

/// The comparison of typed answers, docs/rules.md R32, row by row of its table.
@Suite struct AnswerCheckTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var typed: String
        var expected: String
        var ignoresAccents = false
        var isRight: Bool
        var testDescription: String { "'\(typed)' for '\(expected)'\(ignoresAccents ? " ignoring accents" : "")" }
    }

    static let rows: [Row] = [
        // Case.
        Row(typed: "hund", expected: "Hund", isRight: true),
        Row(typed: "HUND", expected: "Hund", isRight: true),
        // Spaces: at the ends, repeated, tabs.
        Row(typed: "  der   Hund ", expected: "der Hund", isRight: true),
        Row(typed: "der\tHund", expected: "der  Hund", isRight: true),
        Row(typed: "derHund", expected: "der Hund", isRight: false),
        // Accents, off (the default) and on.
        Row(typed: "cafe", expected: "café", isRight: false),
        Row(typed: "cafe", expected: "café", ignoresAccents: true, isRight: true),
        Row(typed: "CAFÉ", expected: "cafe", ignoresAccents: true, isRight: true),
        Row(typed: "tieng viet", expected: "tiếng Việt", ignoresAccents: true, isRight: true),
        Row(typed: "Ελληνικα", expected: "ελληνικά", ignoresAccents: true, isRight: true),
        // NFC and NFD: the same text, whichever way it was written.
        Row(typed: "caf\u{E9}", expected: "cafe\u{301}", isRight: true),
        Row(typed: "cafe\u{301}", expected: "caf\u{E9}", isRight: true),
        Row(typed: "Cafe\u{301}", expected: "caf\u{C9}", isRight: true),
        Row(typed: "e\u{323}\u{302}", expected: "\u{1EC7}", isRight: true),
        // Alternatives.
        Row(typed: "dog", expected: "dog / hound", isRight: true),
        Row(typed: "hound", expected: "dog / hound", isRight: true),
        Row(typed: "dog / hound", expected: "dog / hound", isRight: false),
        Row(typed: "dog/hound", expected: "dog/hound", isRight: true),
        Row(typed: "cat", expected: "dog / hound", isRight: false),
        // Kana: typed as romaji, and as kana; voicing marks are letters unless accents are ignored.
        Row(typed: "ka", expected: "ka", isRight: true),
        Row(typed: "ga", expected: "ka", isRight: false),
        Row(typed: "が", expected: "か\u{3099}", isRight: true),
        Row(typed: "か", expected: "が", isRight: false),
        Row(typed: "か", expected: "が", ignoresAccents: true, isRight: true),
        Row(typed: "shi / si", expected: "shi / si", isRight: false),
        Row(typed: "si", expected: "shi / si", isRight: true),
        // German: ß is a letter of its own, ẞ its capital; umlauts are accents.
        Row(typed: "straße", expected: "Straße", isRight: true),
        Row(typed: "STRAẞE", expected: "Straße", isRight: true),
        Row(typed: "strasse", expected: "Straße", isRight: false),
        Row(typed: "strasse", expected: "Straße", ignoresAccents: true, isRight: false),
        Row(typed: "Mädchen", expected: "Ma\u{308}dchen", isRight: true),
        Row(typed: "madchen", expected: "Mädchen", isRight: false),
        Row(typed: "madchen", expected: "Mädchen", ignoresAccents: true, isRight: true),
        Row(typed: "maedchen", expected: "Mädchen", ignoresAccents: true, isRight: false),
        // Empty input is never right.
        Row(typed: "", expected: "Hund", isRight: false),
        Row(typed: "   ", expected: "Hund", isRight: false),
        Row(typed: "", expected: "", isRight: false),
    ]

    @Test(arguments: rows) func verdict(_ row: Row) {
        let check = AnswerCheck(ignoresAccents: row.ignoresAccents)
        #expect(check.check(typed: row.typed, expected: row.expected).isRight == row.isRight)
    }

    @Test func differencesMarkOneWrongLetter() {
        let verdict = AnswerCheck().check(typed: "Hunt", expected: "hund")
        #expect(verdict.differences == [.same("Hun"), .extra("t"), .missing("d")])
    }

    @Test func differencesShowTheTypedAndTheExpectedCharacters() {
        let verdict = AnswerCheck().check(typed: "  MaDCHEN ", expected: "Mädchen")
        #expect(verdict.differences == [.same("M"), .extra("a"), .missing("ä"), .same("DCHEN")])
        let right = AnswerCheck(ignoresAccents: true).check(typed: "madchen", expected: "Mädchen")
        #expect(right.differences == [.same("madchen")])
    }

    @Test func theNearestAlternativeIsShown() {
        let verdict = AnswerCheck().check(typed: "hount", expected: "dog / hound")
        #expect(!verdict.isRight)
        #expect(verdict.expected == "hound")
        #expect(verdict.differences == [.same("houn"), .extra("t"), .missing("d")])
    }

    @Test func emptyInputMarksTheWholeAnswerMissing() {
        let verdict = AnswerCheck().check(typed: "", expected: "いぬ")
        #expect(verdict.differences == [.missing("いぬ")])
    }

    @Test func accentsAreStrippedAfterDecomposition() {
        #expect(AccentFolding.strip("Ångström çà ñ ǖ ệ") == "Angstrom ca n u e")
        #expect(AccentFolding.strip("がぱ") == "かは")
        #expect(AccentFolding.strip("Straße æ ø") == "Straße æ ø")
        #expect(AccentFolding.strip("e\u{301}") == "e")
    }

    struct Markup: Sendable {
        var text: String
        var mediaType: String
        var plain: String
    }

    static let markup: [Markup] = [
        Markup(text: "**der** _Hund_", mediaType: "text/markdown", plain: "der Hund"),
        Markup(text: "*ka*", mediaType: "text/markdown", plain: "ka"),
        Markup(text: "`snake_case` or snake_case", mediaType: "text/markdown", plain: "snake_case or snake_case"),
        Markup(text: "[Hund](https://de.wiktionary.org/wiki/Hund)", mediaType: "text/markdown", plain: "Hund"),
        Markup(text: "![a dog](dog.png) Hund [sound:hund.mp3]", mediaType: "text/markdown", plain: " Hund "),
        Markup(text: "# dog / hound", mediaType: "text/markdown", plain: "dog / hound"),
        Markup(text: "2 \\* 3", mediaType: "text/markdown", plain: "2 * 3"),
        Markup(text: "**der** _Hund_", mediaType: "text/plain", plain: "**der** _Hund_"),
        Markup(text: "<b>der</b> Hund &amp; Katze", mediaType: "text/html", plain: "der Hund & Katze"),
    ]

    @Test(arguments: markup) func expectedAnswerWithoutMarkup(_ row: Markup) {
        #expect(AnswerText.plain(row.text, mediaType: row.mediaType) == row.plain)
    }
}
