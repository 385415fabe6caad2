import Glibc
import LeitnerCore
import LeitnerSystem
@testable import LeitnerWeb
import Testing

/// Escaping is the default (`HTML`): a string put into markup is escaped unless it is markup
/// already, and markup made elsewhere enters only through `HTML(unescaped:)`.
@Suite struct HTMLTests {
    @Test func aStringPutInIsEscapedAndMarkupIsNot() {
        let id = "le-chat<b>&\"'"
        let bold: HTML = "<b>\(id)</b>"
        #expect(bold.description == "<b>le-chat&lt;b&gt;&amp;&quot;&#39;</b>")
        let page: HTML = "<p title=\"\(id)\">\(bold) \(3) \(LogicalDate(year: 2026, month: 1, day: 5)!)</p>"
        #expect(page.description == "<p title=\"le-chat&lt;b&gt;&amp;&quot;&#39;\"><b>le-chat&lt;b&gt;&amp;&quot;&#39;</b> 3 2026-01-05</p>")
        #expect(HTML(escaping: "a&b").description == "a&amp;b")
        #expect(HTML(unescaped: "<i>").description == "<i>")
        var built: HTML = "<ul>"
        built += ["x<", "y"].map { "<li>\($0)</li>" as HTML }.joined(separator: "\n")
        #expect((built + "</ul>").description == "<ul><li>x&lt;</li>\n<li>y</li></ul>")
    }

    /// A page made of a card's text, tags, the box's name and a notice shows each escaped.
    @Test func everyPageEscapesWhatItIsGiven() {
        let nasty = "<script>&\"'"
        let card = Card(id: "id" + nasty, level: .two, front: Side(path: "2/x/front.txt", mediaType: "text/plain", text: nasty),
                        back: Side(path: "2/x/back.txt", mediaType: "text/plain", text: nasty), tags: ["t" + nasty])
        let test = TestSummary(date: LogicalDate(year: 2026, month: 1, day: 5)!, position: 1, levels: [.one], state: .open,
                               remaining: 1, passed: 0, failed: 0)
        let pages = [
            ReviewPage.answer(card, handle: "h" + nasty, test: test, scope: .init(tag: nasty), csrf: nasty, notice: nasty, box: nasty),
            ReviewPage.edit(card, sources: CardPage.editSources(card) { _ in Asset(name: "x", text: "") }, handle: "h" + nasty,
                            scope: .init(tag: nasty), csrf: nasty, box: nasty),
            CardPage.html(card, sources: CardPage.editSources(card) { _ in Asset(name: "x", text: "") }, csrf: nasty, notice: nasty,
                          box: nasty),
            CardsPage.html(filter: .init(text: nasty, tag: nasty), tags: [TagCount(tag: nasty, cards: 1)],
                           entries: [.init(id: nasty, level: .one, lines: [nasty])],
                           paging: .init(summary: nasty, previous: nasty, next: nasty), box: nasty),
            ProblemPage.html(title: nasty, message: nasty, section: .today, links: [(nasty, nasty)], box: nasty),
        ]
        for page in pages {
            #expect(!page.description.contains("<script>") && !page.description.contains("&\"'"))
            #expect(page.description.contains("&lt;script&gt;&amp;&quot;&#39;"))
        }
    }

    /// The door is used where markup escapes its own text, and nowhere else: the page's head
    /// (`HTMLText.pageStart`) and the statistics report. A new use is a decision to review.
    @Test func rawMarkupEntersOnlyThroughTheKnownDoors() throws {
        let root = WebRouteTests.root + "/Sources/LeitnerWeb"
        var uses: [String] = []
        for folder in Self.names(in: root) {
            for file in Self.names(in: "\(root)/\(folder)") where file.hasSuffix(".swift") {
                let text = String(decoding: try FileSystem.readFile(atPath: "\(root)/\(folder)/\(file)"), as: UTF8.self)
                let count = text.split(separator: "HTML(unescaped:", omittingEmptySubsequences: false).count - 1
                if count > 0 && file != "HTML.swift" { uses.append("\(file) \(count)") }
            }
        }
        #expect(uses.sorted() == ["Layout.swift 1", "StatsPage.swift 2"])
    }

    /// The names in a directory (none when it is not one), with readdir(3).
    static func names(in path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
