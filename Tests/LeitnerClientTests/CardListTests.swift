import Testing
import LeitnerClient
import LeitnerCore
import LeitnerProtocol

/// How `list` prints a card: a line of a table on a terminal, tab-separated fields elsewhere.
@Suite struct CardListTests {
    let card = Card(id: "multi", level: .finished,
                    front: Side(path: "finished/multi-front.txt", mediaType: "text/plain", text: "one\ntwo\tthree\n"),
                    back: Side(path: "finished/multi-back.png", mediaType: "image/png", text: nil))

    @Test func notOnATerminalFieldsAreTabSeparatedAndWhole() {
        let list = CardList(width: nil, long: false, style: TextStyle(enabled: false))
        #expect(list.header == nil)
        #expect(list.line(card) == "finished\tmulti\tone⏎two→three\t[image/png]")
    }

    @Test func onATerminalColumnsComeFromTheWidth() {
        let list = CardList(width: 50, long: false, style: TextStyle(enabled: false))
        #expect(list.header == "LEVEL     ID            FRONT         BACK")
        #expect(list.line(card) == "finished  multi         one⏎two→thr…  [image/png]")
        #expect(CardList(width: 50, long: true, style: TextStyle(enabled: false)).line(card).contains("one⏎two→three"))
    }

    @Test func fitCountsWideCharactersAsTwoColumns() {
        #expect(CardList.fit("ねこねこ", 5) == "ねこ…")
        #expect(CardList.fit("ねこ", 4) == "ねこ")
    }

    @Test func highlightsMatchesWithTheLinesOwnCase() throws {
        let style = TextStyle(enabled: true)
        let mark = { (text: String) in style.apply(style.bold + style.red, text) }
        #expect(try MatchHighlighter(pattern: "DOG", regex: false).highlight("a Dog and a dog", style: style)
                == "a \(mark("Dog")) and a \(mark("dog"))")
        #expect(try MatchHighlighter(pattern: "d.g", regex: true).highlight("dig", style: style) == mark("dig"))
        #expect(try MatchHighlighter(pattern: "x", regex: false).highlight("x", style: TextStyle(enabled: false)) == "x")
    }

    /// A regular expression is marked where the daemon's engine (`LinearRegex`) matches: the
    /// longest match at the leftmost place, then the next after it; empty matches mark nothing.
    @Test func regexHighlightsWhatTheDaemonMatches() throws {
        let style = TextStyle(enabled: true)
        let mark = { (text: String) in style.apply(style.bold + style.red, text) }
        func highlight(_ pattern: String, _ line: String) throws -> String {
            try MatchHighlighter(pattern: pattern, regex: true).highlight(line, style: style)
        }
        #expect(try highlight("d.g", "a Dog, a dig") == "a \(mark("Dog")), a \(mark("dig"))")
        #expect(try highlight("dog|dogs", "hotdogs") == "hot\(mark("dogs"))")
        #expect(try highlight("é+", "CAFÉÉ! café") == "CAF\(mark("ÉÉ"))! caf\(mark("é"))")
        #expect(try highlight("\\bcat", "cat concat cat") == "\(mark("cat")) concat \(mark("cat"))")
        #expect(try highlight("^a", "a a") == "\(mark("a")) a")
        #expect(try highlight("x*", "abc") == "abc")
        #expect(try highlight("[ぁ-ん]+", "カタカナとひらがな") == "カタカナ\(mark("とひらがな"))")
        #expect(throws: RegexError.self) { try MatchHighlighter(pattern: "(a)\\1", regex: true) }
    }
}
