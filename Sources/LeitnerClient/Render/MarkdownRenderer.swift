/// Markdown made readable on a terminal: headings and emphasis styled, paragraphs and list
/// items wrapped to the width, code kept as it is. Not a full CommonMark implementation:
/// the block and inline forms cards use (headings, paragraphs, lists, quotes, fenced code,
/// `*em*`, `**strong**`, `` `code` ``, `[text](url)`).
public struct MarkdownRenderer: Sendable {
    public var width: Int
    public var style: TextStyle

    public init(width: Int, style: TextStyle) {
        self.width = max(20, width)
        self.style = style
    }

    /// The lines of `markdown` as they should be printed.
    public func render(_ markdown: String) -> [String] {
        var out: [String] = []
        var paragraph: [String] = []
        var inFence = false

        func flush() {
            guard !paragraph.isEmpty else { return }
            out += wrap(inline(paragraph.joined(separator: " ")), first: "", rest: "")
            paragraph = []
        }
        func blank() {
            if let last = out.last, !last.isEmpty { out.append("") }
        }

        for rawLine in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(rawLine.last == "\r" ? rawLine.dropLast() : rawLine)
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                flush()
                inFence.toggle()
                continue
            }
            if inFence {
                out.append(style.apply(style.cyan, "    " + line))
                continue
            }
            if trimmed.isEmpty {
                flush()
                blank()
                continue
            }
            if let level = headingLevel(trimmed) {
                flush()
                blank()
                let text = trimmed.dropFirst(level).drop { $0 == " " }
                let look = level == 1 ? style.bold + style.underline : style.bold
                out += wrap(style.enabled ? look + inline(String(text)) + style.reset : inline(String(text)), first: "", rest: "")
                continue
            }
            if let (marker, text) = listItem(trimmed) {
                flush()
                let indent = String(repeating: " ", count: line.count - trimmed.count)
                let bullet = marker == "-" || marker == "*" || marker == "+" ? "•" : marker
                out += wrap(inline(text), first: indent + bullet + " ",
                            rest: indent + String(repeating: " ", count: DisplayWidth.of(bullet) + 1))
                continue
            }
            if trimmed.hasPrefix(">") {
                flush()
                let text = trimmed.dropFirst().drop { $0 == " " }
                out += wrap(inline(String(text)), first: style.apply(style.dim, "│ "), rest: style.apply(style.dim, "│ "))
                continue
            }
            if trimmed.allSatisfy({ $0 == "-" || $0 == "*" || $0 == "_" }) && trimmed.count >= 3 {
                flush()
                out.append(style.apply(style.dim, String(repeating: "─", count: min(width, 40))))
                continue
            }
            paragraph.append(String(trimmed))
        }
        flush()
        while out.last == "" { out.removeLast() }
        return out
    }

    private func headingLevel(_ line: Substring) -> Int? {
        let hashes = line.prefix { $0 == "#" }.count
        guard (1...6).contains(hashes) else { return nil }
        let rest = line.dropFirst(hashes)
        return rest.isEmpty || rest.first == " " ? hashes : nil
    }

    private func listItem(_ line: Substring) -> (String, String)? {
        if let first = line.first, "-*+".contains(first), line.dropFirst().first == " " {
            return (String(first), String(line.dropFirst(2)))
        }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 3 else { return nil }
        let rest = line.dropFirst(digits.count)
        guard let mark = rest.first, mark == "." || mark == ")", rest.dropFirst().first == " " else { return nil }
        return (digits + String(mark), String(rest.dropFirst(2)))
    }

    /// Inline markup: `**strong**`, `*em*` / `_em_`, `` `code` ``, `[text](url)`, `\` escapes.
    func inline(_ text: String) -> String {
        let chars = Array(text)
        var out = ""
        var i = 0
        var open: [String] = []
        func toggle(_ marker: String, _ look: String) {
            if open.last == marker {
                open.removeLast()
                out += style.reset + open.map { $0 == "**" ? style.bold : style.italic }.joined()
            } else {
                open.append(marker)
                out += look
            }
        }
        func closes(_ marker: [Character], from start: Int) -> Bool {
            MarkdownRenderer.closes(marker, in: chars, after: start)
        }
        while i < chars.count {
            let c = chars[i]
            if c == "\\", i + 1 < chars.count, "\\`*_[]()#+-.!".contains(chars[i + 1]) {
                out.append(chars[i + 1]); i += 2; continue
            }
            if c == "`", let end = chars[(i + 1)...].firstIndex(of: "`") {
                out += style.apply(style.cyan, String(chars[(i + 1)..<end])) + open.map { $0 == "**" ? style.bold : style.italic }.joined()
                i = end + 1; continue
            }
            if c == "[", let close = chars[i...].firstIndex(of: "]"), close + 1 < chars.count, chars[close + 1] == "(",
               let paren = chars[(close + 1)...].firstIndex(of: ")") {
                let label = String(chars[(i + 1)..<close]), url = String(chars[(close + 2)..<paren])
                out += style.apply(style.underline, label) + (url.isEmpty || url == label ? "" : " <\(url)>")
                i = paren + 1; continue
            }
            if (c == "*" || c == "_"), i + 1 < chars.count, chars[i + 1] == c {
                let marker = "**"
                if open.last == marker || closes([c, c], from: i + 2) { toggle(marker, style.bold); i += 2; continue }
            }
            if c == "*" || c == "_" {
                let marker = "*"
                // An underscore inside a word (snake_case) is not emphasis.
                let inWord = c == "_" && i > 0 && chars[i - 1].isLetter && i + 1 < chars.count && chars[i + 1].isLetter
                if !inWord && (open.last == marker || (i + 1 < chars.count && chars[i + 1] != " " && closes([c], from: i + 1))) {
                    toggle(marker, style.italic); i += 1; continue
                }
            }
            out.append(c)
            i += 1
        }
        if !open.isEmpty { out += style.reset }
        return out
    }

    /// Wraps styled text at spaces to `width` columns; a word longer than a line is cut.
    public func wrap(_ text: String, first: String, rest: String) -> [String] {
        var lines: [String] = []
        var line = first
        var lineWidth = DisplayWidth.of(first)
        var lineIsEmpty = true
        let restWidth = DisplayWidth.of(rest)
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var word = String(word)
            var wordWidth = DisplayWidth.of(word)
            if !lineIsEmpty && lineWidth + 1 + wordWidth > width {
                lines.append(line)
                line = rest
                lineWidth = restWidth
                lineIsEmpty = true
            }
            while lineWidth + wordWidth > width && lineIsEmpty && width - lineWidth > 0 {
                // Cut a word too long for a whole line (a URL, a line of kana with no spaces).
                var head = ""
                var headWidth = 0
                var remaining = Substring(word)
                while let c = remaining.first, headWidth + DisplayWidth.of(String(c)) <= width - lineWidth {
                    head.append(c); headWidth += DisplayWidth.of(String(c)); remaining = remaining.dropFirst()
                }
                if head.isEmpty { break }
                lines.append(line + head)
                line = rest
                word = String(remaining)
                wordWidth = DisplayWidth.of(word)
                lineWidth = restWidth
            }
            line += (lineIsEmpty ? "" : " ") + word
            lineWidth += (lineIsEmpty ? 0 : 1) + wordWidth
            lineIsEmpty = false
        }
        lines.append(line)
        return lines
    }

    /// True when `marker` (`**`, `_`) comes again in `chars` after `start`, not right at it: an
    /// emphasis opens only when it is closed later in the line. The web's Markdown asks the same.
    public static func closes(_ marker: [Character], in chars: [Character], after start: Int) -> Bool {
        var j = start
        while j + marker.count <= chars.count {
            if Array(chars[j..<(j + marker.count)]) == marker { return j > start }
            j += 1
        }
        return false
    }
}
