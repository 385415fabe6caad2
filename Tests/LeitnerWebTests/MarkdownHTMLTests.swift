@testable import LeitnerWeb
import Testing

@Suite struct MarkdownHTMLTests {
    @Test func noRawHTMLPasses() {
        let html = MarkdownHTML.render("<script>alert(1)</script>\n\n<img src=x onerror=alert(1)> **<b>**").description
        #expect(!html.contains("<script") && !html.contains("<img") && !html.contains("<b>"))
        #expect(html.contains("&lt;script&gt;") && html.contains("<strong>&lt;b&gt;</strong>"))
    }

    @Test func linksKeepOnlyWebTargets() {
        #expect(MarkdownHTML.render("[a](javascript:alert(1))") == "<p>a</p>\n")
        #expect(MarkdownHTML.render("[a](/review/undo)") == "<p>a</p>\n")
        #expect(MarkdownHTML.render("[a](data:text/html,x)") == "<p>a</p>\n")
        #expect(MarkdownHTML.render("[a \"b\"](https://example.org/?q=\"x\")")
            == "<p><a href=\"https://example.org/?q=&quot;x&quot;\" rel=\"noreferrer noopener\" target=\"_blank\">a &quot;b&quot;</a></p>\n")
        #expect(MarkdownHTML.render("[L](https://en.wikipedia.org/wiki/Leitner_(system))").description.contains("href=\"https://en.wikipedia.org/wiki/Leitner_(system)\""))
        #expect(MarkdownHTML.render("![a cat](https://example.org/cat.png)") == "<p>a cat</p>\n")
    }

    @Test func blocks() {
        let html = MarkdownHTML.render("# Title\n\n- one\n- *two*\n\n1. first\n\n> quoted\n\n```\n<code> & more\n```\n\n---\ntext\nmore")
        #expect(html == """
            <h2>Title</h2>
            <ul>
            <li>one</li>
            <li><em>two</em></li>
            </ul>
            <ol>
            <li>first</li>
            </ol>
            <blockquote>quoted</blockquote>
            <pre><code>&lt;code&gt; &amp; more</code></pre>
            <hr>
            <p>text<br>more</p>

            """)
    }

    @Test func emphasisAlwaysNests() {
        for text in ["**a *b** c*", "*a **b* c**", "**unclosed", "*x", "snake_case_name", "`code *x*`"] {
            let html = MarkdownHTML.inline(text).description
            var stack: [String] = []
            var index = html.startIndex
            while let open = html[index...].firstIndex(of: "<") {
                let close = html[open...].firstIndex(of: ">")!
                let tag = String(html[html.index(after: open)..<close])
                if tag.hasPrefix("/") {
                    #expect(stack.popLast() == String(tag.dropFirst()), "\(text) → \(html)")
                } else {
                    stack.append(tag)
                }
                index = html.index(after: close)
            }
            #expect(stack.isEmpty, "\(text) → \(html)")
        }
        #expect(MarkdownHTML.inline("snake_case_name") == "snake_case_name")
    }
}
