import Testing
@testable import LeitnerCore

/// R25's tags: what a tag is, how a `tags` file reads, and which cards a selector selects.
@Suite struct CardTagTests {
    @Test func tagsFollowTheIdRulesWithColonsBetweenParts() {
        for tag in ["ja", "ja:kana", "猫", "café-au-lait", "a.b_c:d-e", "ja:kana:hiragana"] {
            #expect(CardTag.problem(tag) == nil, "\(tag)")
        }
        #expect(CardTag.problem("") == "is empty")
        #expect(CardTag.problem("ja:")?.contains("empty part") == true)
        #expect(CardTag.problem(":ja")?.contains("empty part") == true)
        #expect(CardTag.problem("ja::kana")?.contains("empty part") == true)
        #expect(CardTag.problem("two words") == "contains a space")
        #expect(CardTag.problem("ja:-kana") == "starts with '-'")
        #expect(CardTag.problem(String(repeating: "a", count: 129)) != nil)
        #expect(throws: BoxError.invalidTag(tag: "a b", reason: "contains a space")) { try CardTag.validate("a b") }
    }

    @Test func aTagsFileKeepsItsGoodLinesAndNamesItsBadOnes() {
        let parsed = CardTag.parse("ja\n  de \r\n\n::x\nja\nbad tag\nfr")
        #expect(parsed.tags == ["ja", "de", "fr"])
        #expect(parsed.badLines.map(\.line) == [4, 6])
        #expect(parsed.badLines.map(\.text) == ["::x", "bad tag"])
        #expect(CardTag.parse("").tags.isEmpty && CardTag.parse("").badLines.isEmpty)
        #expect(CardTag.fileText(["ja", "de"]) == "ja\nde\n")
        #expect(CardTag.parse(CardTag.fileText(["ja:kana", "de"])).tags == ["ja:kana", "de"])
    }

    /// A plain ASCII line is read from its bytes (`asciiTag`), any other as characters: both
    /// read every line as the characters' reading alone would.
    @Test func aLineReadsTheSameByItsBytesAsByItsCharacters() {
        let lines = ["ja", " ja", "ja ", "\tja\r", "ja:kana", "a.b_c:d-e", ".ja", "-ja", "ja:.kana", "ja:-kana", "ja.",
                     "ja:", ":ja", "ja::kana", ":", "", "   ", "\r", "two words", "ja\tkana", "ja/kana", "ja\u{0B}",
                     "\u{0C}ja", "ja\u{1F}", "\u{00A0}ja", "ja\u{00A0}", "ja\u{3000}", "猫", "café", "cafe\u{301}",
                     "ja\r\r", String(repeating: "a", count: 128), String(repeating: "a", count: 129), "a:" + String(repeating: "b", count: 127)]
        for line in lines {
            let trimmed = String(line.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
            let expected = trimmed.isEmpty || CardTag.problem(trimmed) != nil ? [] : [trimmed]
            #expect(CardTag.parse(line).tags == expected, "\(line.unicodeScalars.map { $0.value })")
            #expect(CardTag.parse(line).badLines.count == (trimmed.isEmpty || !expected.isEmpty ? 0 : 1))
        }
        #expect(CardTag.asciiTag(" bench:group3\r"[...].utf8) == "bench:group3")
        #expect(CardTag.asciiTag("猫"[...].utf8) == nil)
    }

    @Test func aSelectorSelectsItselfAndWhatIsBelowIt() {
        #expect(CardTag.selects("ja", "ja"))
        #expect(CardTag.selects("ja", "ja:kana"))
        #expect(CardTag.selects("ja:kana", "ja:kana:hiragana"))
        #expect(!CardTag.selects("ja", "japan"))
        #expect(!CardTag.selects("ja:kana", "ja"))
        #expect(!CardTag.selects("ja", "de:ja"))
    }

    @Test func aFilterIsAnyOfItsTagsAndNoneOfItsNotTags() throws {
        let filter = try TagFilter(tags: ["ja", "de"], notTags: ["ja:kanji"])
        #expect(filter.selects(["ja:kana"]))
        #expect(filter.selects(["de", "verbs"]))
        #expect(!filter.selects(["fr"]))
        #expect(!filter.selects([]))
        #expect(!filter.selects(["ja:kanji:n5"]))
        #expect(try TagFilter(notTags: ["ja"]).selects([]))
        #expect(!(try TagFilter(notTags: ["ja"]).selects(["ja"])))
        #expect(TagFilter.all.selects([]) && TagFilter.all.isEmpty)
        #expect(throws: BoxError.self) { try TagFilter(tags: ["ja:"]) }
    }
}
