/// A Markdown side taken apart at its media references (R31): runs of text, images
/// `![text](NAME.png)` and sounds `[sound:NAME.mp3]` (Anki's form). The one parser of a side's
/// media: the store's listing of a side's media, the terminal, the web, `doctor`, `add`, the
/// importers and the exporter all ask it, so they agree on what a side refers to.
///
/// It only reads the text. Whether NAME is a file in the directory is the store's question
/// (`Store.media`). A reference whose NAME is not one file name of the right kind (`../x.png`,
/// `/etc/passwd`, a URL, `notes.pdf` as an image) is `refused`: shown as it is written, and
/// reported by `doctor`. What does not read as a reference at all (`![x]`, `[sound:` with no
/// `]`, anything inside a code span or a fenced block) is text, so the text loses nothing.
public struct SideMedia: Sendable, Equatable {
    /// A run of the side, in order; the `written` texts and `.text` runs joined give back the
    /// side character for character.
    public enum Piece: Sendable, Equatable {
        case text(String)
        case image(alt: String, name: String, written: String)
        case sound(name: String, written: String)
        /// A reference whose name cannot be a medium of its kind, and why.
        case refused(written: String, name: String, kind: MediaName.Kind, reason: String)

        /// The characters of the side this piece stands for.
        public var written: String {
            switch self {
            case .text(let text): text
            case .image(_, _, let written), .sound(_, let written), .refused(let written, _, _, _): written
            }
        }
    }

    /// One medium a side refers to by a valid name.
    public struct Reference: Sendable, Equatable, Hashable {
        public var name: String
        public var kind: MediaName.Kind

        public init(name: String, kind: MediaName.Kind) {
            self.name = name
            self.kind = kind
        }
    }

    public let pieces: [Piece]

    /// The side `markdown` taken apart.
    public init(parsing markdown: String) {
        var parser = Parser()
        var inFence = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.offset > 0 { parser.plain.append("\n") }
            let trimmed = line.element.drop { $0 == " " }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") { inFence.toggle() }
            if inFence || trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                parser.plain += line.element
            } else {
                parser.scan(Array(line.element))
            }
        }
        parser.flush()
        pieces = parser.pieces
    }

    /// The media this side refers to by valid names, each once, in the order of first use.
    public var references: [Reference] {
        var seen = Set<Reference>()
        return pieces.compactMap { piece in
            let reference: Reference
            switch piece {
            case .image(_, let name, _): reference = Reference(name: name, kind: .image)
            case .sound(let name, _): reference = Reference(name: name, kind: .sound)
            default: return nil
            }
            return seen.insert(reference).inserted ? reference : nil
        }
    }

    /// The references refused for their names: what `doctor` reports.
    public var refused: [(name: String, reason: String)] {
        pieces.compactMap { piece in
            if case .refused(_, let name, _, let reason) = piece { (name, reason) } else { nil }
        }
    }

    /// True when the side holds a reference, valid or not: when it is false, a renderer draws
    /// the side as it always did.
    public var hasReferences: Bool { pieces.contains { if case .text = $0 { false } else { true } } }

    /// The scan of one line outside fenced code.
    private struct Parser {
        var pieces: [Piece] = []
        var plain = ""

        mutating func flush() {
            if !plain.isEmpty { pieces.append(.text(plain)) }
            plain = ""
        }

        mutating func add(_ piece: Piece) {
            flush()
            pieces.append(piece)
        }

        mutating func scan(_ chars: [Character]) {
            var i = 0
            while i < chars.count {
                let c = chars[i]
                if c == "\\", i + 1 < chars.count {
                    plain.append(c); plain.append(chars[i + 1]); i += 2; continue
                }
                if c == "`" {
                    // A code span is text whatever it holds: the same run of backticks closes it.
                    var ticks = 0
                    while i + ticks < chars.count, chars[i + ticks] == "`" { ticks += 1 }
                    let end = Parser.closingTicks(chars, count: ticks, from: i + ticks) ?? i + ticks
                    plain += String(chars[i..<end]); i = end; continue
                }
                if c == "!", i + 1 < chars.count, chars[i + 1] == "[", let (piece, next) = Parser.image(chars, at: i) {
                    add(piece); i = next; continue
                }
                if c == "[", let (piece, next) = Parser.sound(chars, at: i) {
                    add(piece); i = next; continue
                }
                plain.append(c)
                i += 1
            }
        }

        /// The index after the run of exactly `count` backticks closing a code span, nil when
        /// none does (then the backticks are text).
        static func closingTicks(_ chars: [Character], count: Int, from start: Int) -> Int? {
            var i = start
            while i < chars.count {
                guard chars[i] == "`" else { i += 1; continue }
                var run = 0
                while i + run < chars.count, chars[i + run] == "`" { run += 1 }
                if run == count { return i + run }
                i += run
            }
            return nil
        }

        /// `![alt](destination)` at `start`, the destination a bare name, `<a name>` (which may
        /// hold spaces, as CommonMark allows) and an optional quoted title.
        static func image(_ chars: [Character], at start: Int) -> (Piece, Int)? {
            guard let close = chars[(start + 2)...].firstIndex(where: { $0 == "]" || $0 == "[" }), chars[close] == "]",
                  close + 1 < chars.count, chars[close + 1] == "(",
                  let paren = chars[(close + 2)...].firstIndex(of: ")") else { return nil }
            let alt = String(chars[(start + 2)..<close])
            let written = String(chars[start...paren])
            guard let name = destination(chars[(close + 2)..<paren]) else { return nil }
            if let reason = MediaName.problem(name, kind: .image) {
                return (.refused(written: written, name: name, kind: .image, reason: reason), paren + 1)
            }
            return (.image(alt: alt, name: name, written: written), paren + 1)
        }

        /// The file a link destination names: `<…>` or a run without spaces, then nothing or a
        /// title in quotes; nil when it is not that form (then the image is text).
        static func destination(_ inside: ArraySlice<Character>) -> String? {
            var rest = inside.drop { $0 == " " }
            let name: String
            if rest.first == "<" {
                guard let end = rest.firstIndex(of: ">") else { return nil }
                name = String(rest[(rest.startIndex + 1)..<end])
                rest = rest[(end + 1)...]
            } else {
                let run = rest.prefix { $0 != " " }
                name = String(run)
                rest = rest[run.endIndex...]
            }
            let title = String(rest).trimmingCharacters(" ")
            guard title.isEmpty || (title.count >= 2 && title.first == "\"" && title.last == "\"") else { return nil }
            return name
        }

        /// `[sound:NAME]` at `start`.
        static func sound(_ chars: [Character], at start: Int) -> (Piece, Int)? {
            let prefix = Array("[sound:")
            guard chars.count - start > prefix.count, Array(chars[start..<(start + prefix.count)]) == prefix,
                  let close = chars[(start + prefix.count)...].firstIndex(of: "]") else { return nil }
            let name = String(chars[(start + prefix.count)..<close])
            let written = String(chars[start...close])
            if let reason = MediaName.problem(name, kind: .sound) {
                return (.refused(written: written, name: name, kind: .sound, reason: reason), close + 1)
            }
            return (.sound(name: name, written: written), close + 1)
        }
    }
}

extension String {
    /// The string without `character` at either end.
    func trimmingCharacters(_ character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text.removeFirst() }
        while text.last == character { text.removeLast() }
        return String(text)
    }
}
