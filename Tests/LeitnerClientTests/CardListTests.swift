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
}
