/// The HTML of a rendered Anki side as Markdown that reads well (docs/anki-import.md, "Sides"):
/// blocks (`div`, `p`, `li`, headings) on lines of their own, `<br>` a line break, `<b>` and
/// `<i>` as `**` and `*`, `<hr>` a rule, `<img src=NAME>` as `![](NAME)` (R31), `[sound:NAME]`
/// kept as Anki writes it; scripts, styles and comments dropped; character references
/// decoded. The pictures' names are collected for the importer to carry.
struct AnkiMarkdown {
    var markdown = ""
    /// The `src` of each `<img>`, in order.
    var images: [String] = []
    /// A `<script>` was dropped.
    var hadScript = false

    static let blocks: Set<String> = ["div", "p", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "table", "tr",
                                      "blockquote", "pre", "section", "center"]

    init(html: String) {
        var out = ""
        var at = html.startIndex
        func newline() {
            while out.hasSuffix(" ") { out.removeLast() }
            if !out.isEmpty && !out.hasSuffix("\n") { out += "\n" }
        }
        while at < html.endIndex {
            let c = html[at]
            if html[at...].hasPrefix("<!--") {
                at = html[at...].firstRange(of: "-->")?.upperBound ?? html.endIndex
                continue
            }
            if c == "<", let close = html[at...].firstIndex(of: ">") {
                let inside = html[html.index(after: at)..<close]
                let closing = inside.hasPrefix("/")
                let name = (closing ? inside.dropFirst() : inside).prefix { $0.isLetter || $0.isNumber }.lowercased()
                at = html.index(after: close)
                if !closing && (name == "script" || name == "style") {
                    if name == "script" { hadScript = true }
                    at = html[at...].firstRange(of: "</\(name)")
                        .flatMap { html[$0.upperBound...].firstIndex(of: ">") }.map { html.index(after: $0) } ?? html.endIndex
                    continue
                }
                switch name {
                case "br":
                    while out.hasSuffix(" ") { out.removeLast() }
                    out += "\n"
                case "b", "strong": out += "**"
                case "i", "em": out += "*"
                case "code": out += "`"
                case "hr": newline(); out += "\n---\n\n"
                case "img":
                    if let src = AnkiMarkdown.attribute("src", in: inside) {
                        images.append(src)
                        out += src.contains(" ") ? "![](<\(src)>)" : "![](\(src))"
                    }
                case "li" where !closing: newline(); out += "- "
                case _ where AnkiMarkdown.blocks.contains(name): newline()
                default: break
                }
            } else if c == "&", let semicolon = html[at...].prefix(12).firstIndex(of: ";"),
                      let decoded = HTMLText.entity(String(html[html.index(after: at)..<semicolon])) {
                out += decoded == "\u{00A0}" ? " " : AnkiMarkdown.escaped(decoded)
                at = html.index(after: semicolon)
            } else if c == "\n" || c == "\r" || c == "\t" {
                // White space in HTML source is a space; lines come from the markup.
                if !out.hasSuffix(" ") && !out.hasSuffix("\n") && !out.isEmpty { out += " " }
                at = html.index(after: at)
            } else {
                out += AnkiMarkdown.escaped(String(c))
                at = html.index(after: at)
            }
        }
        markdown = AnkiMarkdown.tidy(out)
    }

    /// A character that would start Markdown emphasis or code, escaped.
    static func escaped(_ text: String) -> String {
        text == "*" || text == "`" || text == "\\" ? "\\" + text : text
    }

    /// Lines without trailing spaces, at most one blank line in a row, none at the ends, and
    /// emphasis that encloses nothing (`****`) taken out.
    static func tidy(_ text: String) -> String {
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = line
            while line.last == " " { line.removeLast() }
            while line.first == " " { line.removeFirst() }
            if line.isEmpty && (lines.last?.isEmpty ?? true) { continue }
            lines.append(line == "****" || line == "**" ? "" : line)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// The value of an attribute in a tag's inside (`img src="cat.png" alt=x`), references decoded.
    static func attribute(_ name: String, in tag: Substring) -> String? {
        var rest = tag[...]
        while let found = rest.firstRange(of: name) {
            let before = found.lowerBound == tag.startIndex ? " " : tag[tag.index(before: found.lowerBound)]
            var after = found.upperBound
            guard before.isWhitespace else { rest = tag[found.upperBound...]; continue }
            while after < tag.endIndex && tag[after].isWhitespace { after = tag.index(after: after) }
            guard after < tag.endIndex, tag[after] == "=" else { rest = tag[found.upperBound...]; continue }
            after = tag.index(after: after)
            while after < tag.endIndex && tag[after].isWhitespace { after = tag.index(after: after) }
            guard after < tag.endIndex else { return nil }
            let quote = tag[after]
            let value: Substring
            if quote == "\"" || quote == "'" {
                let start = tag.index(after: after)
                value = tag[start..<(tag[start...].firstIndex(of: quote) ?? tag.endIndex)]
            } else {
                value = tag[after...].prefix { !$0.isWhitespace && $0 != "/" }
            }
            return HTMLText.plain(String(value))
        }
        return nil
    }
}
