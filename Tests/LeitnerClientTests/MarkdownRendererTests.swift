import Testing
@testable import LeitnerClient

@Suite struct MarkdownRendererTests {
    let plain = MarkdownRenderer(width: 20, style: TextStyle(enabled: false))
    let styled = MarkdownRenderer(width: 40, style: TextStyle(enabled: true))

    @Test func headingsParagraphsAndLists() {
        let lines = plain.render("# Perro\n\nThe *dog*, a **loyal** animal of the house.\n\n- one item that wraps around\n- two\n\n1. first")
        #expect(lines == ["Perro", "", "The dog, a loyal", "animal of the house.", "", "• one item that", "  wraps around",
                          "• two", "", "1. first"])
    }

    @Test func stylesOnlyWithColour() {
        #expect(styled.render("## Head") == ["\u{1B}[1mHead\u{1B}[0m"])
        #expect(styled.render("a *b* c") == ["a \u{1B}[3mb\u{1B}[0m c"])
        #expect(styled.render("**x**") == ["\u{1B}[1mx\u{1B}[0m"])
        #expect(plain.render("`code` and snake_case_name") == ["code and", "snake_case_name"])
    }

    @Test func fencedCodeIsKeptAsItIs() {
        #expect(plain.render("```\nlet  x = 1\n```") == ["    let  x = 1"])
    }

    @Test func wideCharactersCountTwoColumns() {
        #expect(DisplayWidth.of("かな") == 4)
        #expect(DisplayWidth.of("\u{1B}[1mab\u{1B}[0m") == 2)
        let lines = MarkdownRenderer(width: 20, style: TextStyle(enabled: false)).render(String(repeating: "あ", count: 15))
        #expect(lines == [String(repeating: "あ", count: 10), String(repeating: "あ", count: 5)])
    }

    @Test func linksShowTheirTarget() {
        #expect(plain.render("[site](http://x)") == ["site <http://x>"])
    }
}
