/// An Anki card template (`{{Front}}<hr id=answer>{{Back}}`), parsed once and rendered per note
/// (docs/anki-import.md, "Templates"). What Anki's renderer does that a Markdown side can carry
/// is done: `{{Field}}`, `{{FrontSide}}`, the specials (`Tags`, `Type`, `Deck`, `Subdeck`,
/// `Card`), sections `{{#F}}…{{/F}}` and `{{^F}}…{{/F}}`, and the filters `text:`, `hint:`,
/// `furigana:`, `kana:`, `kanji:`, `type:` (R32's typed answer), `cloze:` and `tts`. Filters
/// apply from the field outwards, as Anki's do (`text:furigana:F` is furigana first). Any other
/// filter is named in the result, and its field's text shown as it is.
struct AnkiTemplate: Sendable {
    indirect enum Node: Sendable {
        case text(String)
        case field(name: String, filters: [String])
        case section(name: String, inverted: Bool, body: [Node])
    }

    /// What a note's fields and card give the template.
    struct Context {
        var fields: [String: String]
        /// The rendered question, for `{{FrontSide}}` on the answer; nil on the question.
        var frontSide: String?
        var tags: [String] = []
        var notetype = ""
        var deck = ""
        var card = ""
    }

    struct Rendered: Equatable {
        var html: String
        /// A `type:` field was on the question: the card asks for its answer typed (R32).
        var typeAnswer = false
        /// Filters this renderer does not know, by name.
        var unknownFilters: [String] = []
    }

    let nodes: [Node]

    init(_ text: String) {
        var at = text.startIndex
        nodes = AnkiTemplate.parse(text, &at, closing: nil)
    }

    private static func parse(_ text: String, _ at: inout String.Index, closing: String?) -> [Node] {
        var nodes: [Node] = []
        while at < text.endIndex {
            guard let open = text[at...].firstRange(of: "{{"), let close = text[open.upperBound...].firstRange(of: "}}") else {
                nodes.append(.text(String(text[at...])))
                at = text.endIndex
                break
            }
            if open.lowerBound > at { nodes.append(.text(String(text[at..<open.lowerBound]))) }
            let tag = text[open.upperBound..<close.lowerBound].trimmingSpaces
            at = close.upperBound
            if let first = tag.first, first == "#" || first == "^" {
                let name = String(tag.dropFirst()).trimmingSpaces
                nodes.append(.section(name: name, inverted: first == "^", body: parse(text, &at, closing: name)))
            } else if tag.first == "/" {
                // A close without its open is dropped, as Anki would refuse the template anyway.
                if String(tag.dropFirst()).trimmingSpaces == closing { return nodes }
            } else {
                var parts = tag.split(separator: ":", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
                let name = parts.removeLast()
                nodes.append(.field(name: name, filters: parts))
            }
        }
        return nodes
    }

    /// Every field name the template shows or tests, specials such as `FrontSide` included.
    var fieldNames: [String] {
        var names: [String] = []
        func walk(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .text: break
                case .field(let name, _): names.append(name)
                case .section(let name, _, let body): names.append(name); walk(body)
                }
            }
        }
        walk(nodes)
        return names
    }

    func render(_ context: Context) -> Rendered {
        var rendered = Rendered(html: "")
        AnkiTemplate.render(nodes, context, into: &rendered)
        return rendered
    }

    private static func render(_ nodes: [Node], _ context: Context, into out: inout Rendered) {
        for node in nodes {
            switch node {
            case .text(let text): out.html += text
            case .section(let name, let inverted, let body):
                let value = context.fields[name] ?? special(name, context) ?? ""
                if isEmpty(value) == inverted { render(body, context, into: &out) }
            case .field(let name, let filters):
                var value = context.fields[name] ?? special(name, context) ?? ""
                for filter in filters.reversed() { value = apply(filter, to: value, field: name, context, &out) }
                out.html += value
            }
        }
    }

    /// A field counts as empty when it has no text and no picture, as Anki's sections test.
    static func isEmpty(_ html: String) -> Bool {
        HTMLText.plain(html).allSatisfy(\.isWhitespace) && !html.contains("<img")
    }

    private static func special(_ name: String, _ context: Context) -> String? {
        switch name {
        case "FrontSide": context.frontSide ?? ""
        case "Tags": context.tags.joined(separator: " ")
        case "Type": context.notetype
        case "Deck": context.deck
        case "Subdeck": context.deck.split(separator: "::").last.map(String.init) ?? ""
        case "Card": context.card
        case "CardFlag", "CardID": ""
        default: nil
        }
    }

    private static func apply(_ filter: String, to value: String, field: String, _ context: Context, _ out: inout Rendered) -> String {
        switch filter {
        case "text": return HTMLText.escape(HTMLText.plain(value))
        case "hint": return isEmpty(value) ? "" : "<br><i>\(HTMLText.escape(field)): \(value)</i><br>"
        case "furigana": return ruby(value) { "\($0)(\($1))" }
        case "kana": return ruby(value) { $1 }
        case "kanji": return ruby(value) { base, _ in base }
        case "type":
            // The question asks for the answer typed; the answer shows what was expected.
            if context.frontSide == nil { out.typeAnswer = true; return "" }
            return value
        case "cloze", "cloze-only": return value
        default:
            if filter.hasPrefix("tts") { return value }
            if !out.unknownFilters.contains(filter) { out.unknownFilters.append(filter) }
            return value
        }
    }

    /// Anki's ruby syntax, `漢字[かんじ]` (a space before the base ends the previous one), each
    /// base and reading given to `join`.
    static func ruby(_ text: String, _ join: (String, String) -> String) -> String {
        var out = ""
        var base = ""
        // A space before a base is the separator Anki drops when the base has a reading.
        var space = false
        func flush() {
            if space { out += " " }
            out += base
            base = ""
            space = false
        }
        var at = text.startIndex
        while at < text.endIndex {
            let c = text[at]
            if c == "[", !base.isEmpty, let end = text[at...].firstIndex(of: "]") {
                out += join(base, String(text[text.index(after: at)..<end]))
                base = ""
                space = false
                at = text.index(after: end)
                continue
            }
            if c == " " {
                flush()
                space = true
            } else if c == "<" || c == ">" {
                flush()
                out.append(c)
            } else {
                base.append(c)
            }
            at = text.index(after: at)
        }
        flush()
        return out
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
