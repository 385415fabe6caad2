import LeitnerCore

/// A note's field as AnkiConnect's clients send it — HTML, as Anki keeps fields — made into the
/// Markdown of a side (docs/web.md, "AnkiConnect"), with the media it names in R31's forms:
/// `<img src="NAME">` becomes `![](NAME)`, `[sound:NAME]` stays, and each NAME is listed so that
/// the file is put beside the side. Blocks (`<div>`, `<p>`, list items) and `<br>` become lines,
/// `<ol>`/`<ul>` items `1.`/`-` lines, `<b>`/`<i>` `**`/`*`, ruby text its base with the reading
/// in parentheses (`食(た)べる`), entities their characters; scripts, styles and comments are
/// dropped, and every other element leaves its text. Text that Markdown would read as markup is
/// escaped. An image whose source is a path or an address is no media of the card: its alt text
/// is kept, and nothing is fetched.
struct AnkiFieldText: Equatable {
    var markdown: String
    /// The media file names the field uses, each once, in order.
    var media: [String]

    init(markdown: String, media: [String]) {
        self.markdown = markdown
        self.media = media
    }

    init(html: String) {
        var writer = Writer()
        var scanner = Scanner(Array(html.unicodeScalars))
        while let token = scanner.next() {
            switch token {
            case .text(let text): writer.text(text)
            case .open(let name, let attributes): writer.open(name, attributes)
            case .close(let name): writer.close(name)
            }
        }
        self.init(markdown: writer.finish(), media: writer.media)
    }

    /// Whether `name` names a medium of `kind` as R31 takes it (`MediaName`), written bare: the
    /// door writes no name that Markdown or the sound form would read as its end (a space, a
    /// bracket, a parenthesis), and `storeMediaFile` keeps none (`AnkiActions.mediaName`).
    static func isMediaName(_ name: String, kind: MediaName.Kind) -> Bool {
        MediaName.problem(name, kind: kind) == nil && !name.unicodeScalars.contains { unwritable.contains($0) }
    }

    /// Characters a bare name in `![](NAME)` or `[sound:NAME]` cannot hold.
    static let unwritable = Set(" \t()[]<>\"'`".unicodeScalars)

    // MARK: Reading HTML

    enum Token: Equatable {
        case text(String)
        case open(String, [String: String])
        case close(String)
    }

    /// A forgiving tokenizer: HTML from a clipboard or a dictionary need not be well formed, and
    /// a `<` that starts no tag is text.
    struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        mutating func next() -> Token? {
            guard index < scalars.count else { return nil }
            if scalars[index] == "<", let tag = tag() { return tag }
            var text = String.UnicodeScalarView()
            text.append(scalars[index])
            index += 1
            while index < scalars.count, scalars[index] != "<" {
                text.append(scalars[index])
                index += 1
            }
            return .text(Self.decodeEntities(String(text)))
        }

        /// The tag at `index` (a `<`), or nil when it starts none.
        private mutating func tag() -> Token? {
            let start = index
            var i = index + 1
            if starts(with: "!--", at: i) {
                i += 3
                while i < scalars.count, !starts(with: "-->", at: i) { i += 1 }
                index = min(i + 3, scalars.count)
                return next() ?? .text("")
            }
            let closing = i < scalars.count && scalars[i] == "/"
            if closing { i += 1 }
            let nameStart = i
            while i < scalars.count, scalars[i].properties.isAlphabetic || ("0"..."9").contains(scalars[i]) { i += 1 }
            guard i > nameStart else { return nil }
            let name = String(String.UnicodeScalarView(scalars[nameStart..<i])).lowercased()
            var attributes: [String: String] = [:]
            while i < scalars.count, scalars[i] != ">" {
                if scalars[i] == " " || scalars[i] == "\t" || scalars[i] == "\n" || scalars[i] == "\r" || scalars[i] == "/" {
                    i += 1
                    continue
                }
                let keyStart = i
                while i < scalars.count, !" \t\n\r=>/".unicodeScalars.contains(scalars[i]) { i += 1 }
                let key = String(String.UnicodeScalarView(scalars[keyStart..<i])).lowercased()
                var value = ""
                if i < scalars.count, scalars[i] == "=" {
                    i += 1
                    if i < scalars.count, scalars[i] == "\"" || scalars[i] == "'" {
                        let quote = scalars[i]
                        i += 1
                        let valueStart = i
                        while i < scalars.count, scalars[i] != quote { i += 1 }
                        value = String(String.UnicodeScalarView(scalars[valueStart..<min(i, scalars.count)]))
                        i += 1
                    } else {
                        let valueStart = i
                        while i < scalars.count, !" \t\n\r>".unicodeScalars.contains(scalars[i]) { i += 1 }
                        value = String(String.UnicodeScalarView(scalars[valueStart..<i]))
                    }
                }
                if !key.isEmpty { attributes[key] = Self.decodeEntities(value) }
            }
            guard i < scalars.count else {
                index = start
                return nil
            }
            index = i + 1
            if !closing, name == "script" || name == "style" {
                // Their content is no text of the card: skipped to the closing tag.
                while index < scalars.count, !(scalars[index] == "<" && starts(with: "/" + name, at: index + 1, caseless: true)) { index += 1 }
            }
            return closing ? .close(name) : .open(name, attributes)
        }

        private func starts(with word: String, at position: Int, caseless: Bool = false) -> Bool {
            var i = position
            for scalar in word.unicodeScalars {
                guard i < scalars.count else { return false }
                let here = caseless ? Unicode.Scalar(UInt8(truncatingIfNeeded: scalars[i].value) | 0x20) : scalars[i]
                guard here == scalar || scalars[i] == scalar else { return false }
                i += 1
            }
            return true
        }

        static let namedEntities: [String: String] = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "ensp": " ", "emsp": " ",
            "thinsp": " ", "ndash": "–", "mdash": "—", "hellip": "…", "laquo": "«", "raquo": "»",
            "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "middot": "·", "times": "×", "divide": "÷",
            "copy": "©", "reg": "®", "deg": "°", "shy": "",
        ]

        /// `&amp;`, `&#39;`, `&#x263A;` and the common named entities; any other `&` is text.
        static func decodeEntities(_ text: String) -> String {
            guard text.contains("&") else { return text }
            var out = ""
            var rest = Substring(text)
            while let amp = rest.firstIndex(of: "&") {
                out += rest[..<amp]
                let after = rest[rest.index(after: amp)...]
                guard let semi = after.prefix(12).firstIndex(of: ";") else {
                    out += "&"
                    rest = after
                    continue
                }
                let name = after[..<semi]
                var decoded: String?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
                } else if name.hasPrefix("#") {
                    decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
                } else {
                    decoded = namedEntities[String(name)]
                }
                if let decoded {
                    out += decoded
                    rest = after[after.index(after: semi)...]
                } else {
                    out += "&"
                    rest = after
                }
            }
            return out + rest
        }
    }

    // MARK: Writing Markdown

    /// The Markdown written so far: lines, the open lists, the ruby being read.
    struct Writer {
        var lines: [String] = []
        var line = ""
        /// A space is owed before the next text on this line (HTML's collapsed white space).
        var space = false
        var lists: [(ordered: Bool, count: Int)] = []
        /// Inside `<ruby>`: the pairs read (`漢(かん)`), the base text since, and the reading
        /// of `<rt>` while in one.
        var ruby: (done: String, base: String, reading: String?)?
        var skipping = 0  // inside `<rp>`: the parentheses for browsers without ruby
        var media: [String] = []

        mutating func text(_ text: String) {
            if skipping > 0 { return }
            if var open = ruby {
                if open.reading != nil { open.reading! += text } else { open.base += text }
                ruby = open
                return
            }
            // `[sound:NAME]` is R31's form already: written as it is (its name unescaped), and
            // its NAME is media.
            var rest = Substring(text)
            while let range = rest.firstRange(of: "[sound:"), let end = rest[range.upperBound...].firstIndex(of: "]") {
                let name = String(rest[range.upperBound..<end])
                guard AnkiFieldText.isMediaName(name, kind: .sound) else {
                    words(rest[..<rest.index(after: end)])
                    rest = rest[rest.index(after: end)...]
                    continue
                }
                words(rest[..<range.lowerBound])
                if space { line += " "; space = false }
                line += "[sound:\(name)]"
                use(name)
                rest = rest[rest.index(after: end)...]
            }
            words(rest)
        }

        /// Text with HTML's white space collapsed and Markdown's marks escaped.
        mutating func words(_ text: Substring) {
            for character in text {
                if character.isWhitespace {
                    space = !line.isEmpty
                    continue
                }
                if space { line += " "; space = false }
                line += escaped(character)
            }
        }

        /// A character Markdown would read as markup, escaped; at a line's start also those that
        /// begin a heading, a quote or a list.
        func escaped(_ character: Character) -> String {
            if "\\`*_".contains(character) { return "\\\(character)" }
            if line.isEmpty, "#>-+".contains(character) { return "\\\(character)" }
            return String(character)
        }

        mutating func use(_ name: String) {
            if !media.contains(name) { media.append(name) }
        }

        mutating func endLine() {
            if !line.isEmpty { lines.append(line) }
            line = ""
            space = false
        }

        /// A block's edge: the line ends, and a paragraph's blank line follows outside lists.
        mutating func block() {
            endLine()
            if lists.isEmpty, lines.last != "" && !lines.isEmpty { lines.append("") }
        }

        mutating func open(_ name: String, _ attributes: [String: String]) {
            switch name {
            case "br":
                if ruby == nil { endLine() }
            case "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "table", "tr", "section", "article", "header", "footer":
                if ruby == nil { block() }
            case "ol", "ul":
                endLine()
                lists.append((name == "ol", 0))
            case "li":
                endLine()
                if let last = lists.indices.last {
                    lists[last].count += 1
                    let indent = String(repeating: "  ", count: lists.count - 1)
                    line = indent + (lists[last].ordered ? "\(lists[last].count). " : "- ")
                } else {
                    line = "- "
                }
            case "b", "strong":
                mark("**")
            case "i", "em":
                mark("*")
            case "td", "th":
                if !line.isEmpty { space = true }
            case "ruby":
                ruby = ("", "", nil)
            case "rt":
                if var open = ruby { open.reading = open.reading ?? ""; ruby = open }
            case "rp":
                skipping += 1
            case "img":
                image(attributes)
            default:
                break
            }
        }

        mutating func close(_ name: String) {
            switch name {
            case "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "table", "tr", "section", "article", "header", "footer":
                if ruby == nil { block() }
            case "ol", "ul":
                endLine()
                if !lists.isEmpty { lists.removeLast() }
                if lists.isEmpty { block() }
            case "li":
                endLine()
            case "b", "strong":
                mark("**")
            case "i", "em":
                mark("*")
            case "ruby":
                if let open = ruby {
                    ruby = nil
                    let reading = open.reading.map { $0.filter { !$0.isWhitespace } } ?? ""
                    text(open.done + open.base + (reading.isEmpty ? "" : "(\(reading))"))
                }
            case "rt":
                if let open = ruby, let reading = open.reading {
                    let kept = reading.filter { !$0.isWhitespace }
                    ruby = (open.done + open.base + (kept.isEmpty ? "" : "(\(kept))"), "", nil)
                }
            case "rp":
                skipping = max(0, skipping - 1)
            default:
                break
            }
        }

        /// An emphasis mark, written against its text: `**word**`, never `** word **`.
        mutating func mark(_ mark: String) {
            if skipping > 0 || ruby != nil { return }
            if space, !line.hasSuffix(" ") { line += " "; space = false }
            line += mark
        }

        /// `<img src="NAME">` as `![](NAME)`; a path or an address leaves its alt text only.
        mutating func image(_ attributes: [String: String]) {
            let source = attributes["src"] ?? ""
            if AnkiFieldText.isMediaName(source, kind: .image) {
                if space { line += " "; space = false }
                line += "![](\(source))"
                use(source)
            } else if let alt = attributes["alt"], !alt.isEmpty {
                text(alt)
            }
        }

        mutating func finish() -> String {
            endLine()
            // Empty emphasis left by an empty `<b></b>` reads as markup: dropped.
            var kept = lines.map { $0.replacing("****", with: "") }
            while kept.last == "" { kept.removeLast() }
            while kept.first == "" { kept.removeFirst() }
            return kept.joined(separator: "\n")
        }
    }
}
