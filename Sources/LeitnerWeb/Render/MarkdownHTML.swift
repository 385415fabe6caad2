import LeitnerClient
/// A card's Markdown as safe HTML: the forms cards use (as `MarkdownRenderer` draws them on a
/// terminal): headings, paragraphs, lists, quotes, fenced code, rules, `*em*`, `**strong**`,
/// `` `code` `` and `[text](url)`. No raw HTML passes: every character of the text is escaped,
/// and the only elements are the ones written here. A link keeps its target only when it is
/// `http:`, `https:` or `mailto:`, and opens with no referrer; an image (`![alt](src)`) shows its
/// alt text, since nothing is loaded from outside.
public enum MarkdownHTML {
    public static func render(_ markdown: String) -> HTML {
        var out: HTML = ""
        var paragraph: [String] = []
        var list: String?  // "ul" or "ol" while inside one
        var fence: [String]?

        func flushParagraph() {
            guard !paragraph.isEmpty else { return }
            out += "<p>" + inline(paragraph.joined(separator: "\n")) + "</p>\n"
            paragraph = []
        }
        func closeList() {
            if let open = list { out += "</\(open)>\n"; list = nil }
        }

        for rawLine in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.last == "\r" ? rawLine.dropLast() : rawLine
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                if let code = fence {
                    out += "<pre><code>\(code.joined(separator: "\n"))</code></pre>\n"
                    fence = nil
                } else {
                    flushParagraph(); closeList()
                    fence = []
                }
                continue
            }
            if fence != nil { fence!.append(String(line)); continue }
            if trimmed.isEmpty { flushParagraph(); closeList(); continue }
            if let level = headingLevel(trimmed) {
                flushParagraph(); closeList()
                let text = trimmed.dropFirst(level).drop { $0 == " " }
                out += "<h\(level + 1)>" + inline(String(text)) + "</h\(level + 1)>\n"
                continue
            }
            if let (ordered, text) = listItem(trimmed) {
                flushParagraph()
                let kind = ordered ? "ol" : "ul"
                if list != kind { closeList(); out += "<\(kind)>\n"; list = kind }
                out += "<li>" + inline(text) + "</li>\n"
                continue
            }
            if trimmed.hasPrefix(">") {
                flushParagraph(); closeList()
                out += "<blockquote>" + inline(String(trimmed.dropFirst().drop { $0 == " " })) + "</blockquote>\n"
                continue
            }
            if trimmed.count >= 3, let mark = trimmed.first, "-*_".contains(mark), trimmed.allSatisfy({ $0 == mark }) {
                flushParagraph(); closeList()
                out += "<hr>\n"
                continue
            }
            if list != nil { closeList() }
            paragraph.append(String(trimmed))
        }
        if let code = fence { out += "<pre><code>\(code.joined(separator: "\n"))</code></pre>\n" }
        flushParagraph(); closeList()
        return out
    }

    /// A heading's level (1 … 6), shown one level lower in the page (the card is inside a page).
    private static func headingLevel(_ line: Substring) -> Int? {
        let hashes = line.prefix { $0 == "#" }.count
        guard (1...5).contains(hashes) else { return nil }
        let rest = line.dropFirst(hashes)
        return rest.isEmpty || rest.first == " " ? hashes : nil
    }

    private static func listItem(_ line: Substring) -> (ordered: Bool, text: String)? {
        if let first = line.first, "-*+".contains(first), line.dropFirst().first == " " {
            return (false, String(line.dropFirst(2)))
        }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 3 else { return nil }
        let rest = line.dropFirst(digits.count)
        guard let mark = rest.first, mark == "." || mark == ")", rest.dropFirst().first == " " else { return nil }
        return (true, String(rest.dropFirst(2)))
    }

    /// Inline forms, escaped. An emphasis closes only the one opened last, and every one still
    /// open at the end is closed, so the elements always nest.
    static func inline(_ text: String) -> HTML {
        let chars = Array(text)
        var out: HTML = ""
        var open: [String] = []  // "strong" or "em"
        var i = 0
        func has(_ marker: [Character], after start: Int) -> Bool {
            MarkdownRenderer.closes(marker, in: chars, after: start)
        }
        while i < chars.count {
            let c = chars[i]
            if c == "\\", i + 1 < chars.count, "\\`*_[]()#+-.!".contains(chars[i + 1]) {
                out += HTML(escaping: String(chars[i + 1])); i += 2; continue
            }
            if c == "`", let end = chars[(i + 1)...].firstIndex(of: "`") {
                out += "<code>\(String(chars[(i + 1)..<end]))</code>"
                i = end + 1; continue
            }
            let isImage = c == "!" && i + 1 < chars.count && chars[i + 1] == "["
            let bracket = isImage ? i + 1 : i
            if chars[bracket] == "[", let close = chars[bracket...].firstIndex(of: "]"), close + 1 < chars.count,
               chars[close + 1] == "(", let paren = closingParenthesis(chars, from: close + 1) {
                let label = String(chars[(bracket + 1)..<close])
                let url = String(chars[(close + 2)..<paren]).trimmingSpaces
                if !isImage, let safe = safeURL(url) {
                    out += "<a href=\"\(safe)\" rel=\"noreferrer noopener\" target=\"_blank\">" + HTML(escaping: label) + "</a>"
                } else {
                    out += HTML(escaping: label)
                }
                i = paren + 1; continue
            }
            if (c == "*" || c == "_"), i + 1 < chars.count, chars[i + 1] == c {
                if open.last == "strong" { out += "</strong>"; open.removeLast(); i += 2; continue }
                if !open.contains("strong"), has([c, c], after: i + 2) { out += "<strong>"; open.append("strong"); i += 2; continue }
            }
            if c == "*" || c == "_" {
                let inWord = c == "_" && i > 0 && chars[i - 1].isLetter && i + 1 < chars.count && chars[i + 1].isLetter
                if !inWord {
                    if open.last == "em" { out += "</em>"; open.removeLast(); i += 1; continue }
                    if !open.contains("em"), i + 1 < chars.count, chars[i + 1] != " ", has([c], after: i + 1) {
                        out += "<em>"; open.append("em"); i += 1; continue
                    }
                }
            }
            if c == "\n" { out += "<br>"; i += 1; continue }
            out += HTML(escaping: String(c))
            i += 1
        }
        for tag in open.reversed() { out += "</\(tag)>" }
        return out
    }

    /// The index of the `)` that closes the `(` at `open`, parentheses inside counted (a URL
    /// such as `https://en.wikipedia.org/wiki/Leitner_(system)`).
    static func closingParenthesis(_ chars: [Character], from open: Int) -> Int? {
        var depth = 0
        for index in open..<chars.count {
            if chars[index] == "(" { depth += 1 }
            if chars[index] == ")" {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    /// `url` when it is a link to the web or an address to write to; nil for anything else
    /// (`javascript:`, `data:`, a relative path that would reach this server's routes).
    static func safeURL(_ url: String) -> String? {
        let lower = url.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") || lower.hasPrefix("mailto:") else { return nil }
        guard url.unicodeScalars.allSatisfy({ $0.value > 32 && $0.value != 127 }) else { return nil }
        return url
    }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
