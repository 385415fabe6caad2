import Glibc

/// What a search looks for: a substring, or a regular expression (Swift's `Regex` syntax, the
/// standard library's own engine), both ignoring case.
public struct SearchPattern {
    enum Kind {
        case substring([UInt8])
        /// A regular expression, and a run of ASCII characters every match holds (lower-cased),
        /// when one is found: sides without it are passed over before the regex engine runs.
        case regex(Regex<AnyRegexOutput>, required: [UInt8]?)
    }

    let kind: Kind
    public let text: String

    /// - Throws: `invalidPattern` for an empty pattern or a regular expression that does not parse.
    public init(_ text: String, regex: Bool) throws(BoxError) {
        self.text = text
        guard !text.isEmpty else { throw .invalidPattern(pattern: text, reason: "empty") }
        if regex {
            do { kind = .regex(try Regex(text).ignoresCase(), required: SearchPattern.requiredLiteral(text)) } catch {
                throw .invalidPattern(pattern: text, reason: "not a regular expression: \(error)")
            }
        } else {
            kind = .substring(Array(SearchIndex.fold(text).utf8))
        }
    }

    /// True when folded text (`SearchIndex.fold`) holds a match.
    func matches(folded bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch kind {
        case .substring(let needle):
            return needle.withUnsafeBufferPointer { SearchPattern.contains(bytes, $0) }
        case .regex(let regex, let required):
            if let required, !required.withUnsafeBufferPointer({ SearchPattern.contains(bytes, $0) }) { return false }
            return (try? regex.firstMatch(in: String(decoding: bytes, as: UTF8.self))) != nil
        }
    }

    /// The longest run of plain ASCII characters that every match of `pattern` contains, lower-
    /// cased; nil when none is sure. Conservative: a pattern with `|` outside a group, an inline
    /// option or a quote (`(?x)`, `\Q`) gets none; groups, classes, escapes like `\d`, `.`,
    /// anchors and a character made optional by `?`, `*` or `{` end a run.
    static func requiredLiteral(_ pattern: String) -> [UInt8]? {
        if pattern.contains("(?") || pattern.contains("\\Q") { return nil }
        let characters = Array(pattern.unicodeScalars)
        var best: [UInt8] = [], run: [UInt8] = []
        func flush() {
            if run.count > best.count { best = run }
            run = []
        }
        /// Adds a literal unless the next character makes it optional.
        func literal(_ scalar: Unicode.Scalar, next: Int) {
            let quantifier = next < characters.count ? characters[next] : " "
            if quantifier == "?" || quantifier == "*" || quantifier == "{" { return flush() }
            run.append(UInt8(scalar.value) | (("A"..."Z").contains(scalar) ? 0x20 : 0))
            if quantifier == "+" { flush() }
        }
        var index = 0
        while index < characters.count {
            let scalar = characters[index]
            switch scalar {
            case "|":
                return nil
            case "(":
                flush()
                index = SearchPattern.skipGroup(characters, from: index)
            case "[":
                flush()
                index = SearchPattern.skipClass(characters, from: index)
            case "\\":
                guard index + 1 < characters.count else { return nil }
                let escaped = characters[index + 1]
                if escaped.isASCII, escaped.properties.isPatternSyntax {
                    literal(escaped, next: index + 2)
                } else {
                    flush()
                }
                index += 2
            case "{":
                // A quantifier's bounds are no literal: `b{22}`.
                flush()
                while index < characters.count, characters[index] != "}" { index += 1 }
                index += 1
            case ".", "^", "$", "*", "+", "?", "}", ")", "]":
                flush()
                index += 1
            default:
                if scalar.isASCII, scalar.value >= 0x20, scalar.value < 0x7F {
                    literal(scalar, next: index + 1)
                } else {
                    flush()
                }
                index += 1
            }
        }
        flush()
        return best.isEmpty ? nil : best
    }

    /// The index after the group that opens at `start`, classes and escapes inside it skipped.
    static func skipGroup(_ characters: [Unicode.Scalar], from start: Int) -> Int {
        var index = start + 1
        while index < characters.count {
            switch characters[index] {
            case "\\": index += 2
            case "[": index = skipClass(characters, from: index)
            case "(": index = skipGroup(characters, from: index)
            case ")": return index + 1
            default: index += 1
            }
        }
        return index
    }

    /// The index after the class that opens at `start` (`[^]…]`, `[[:alpha:]]`).
    static func skipClass(_ characters: [Unicode.Scalar], from start: Int) -> Int {
        var index = start + 1
        if index < characters.count, characters[index] == "^" { index += 1 }
        if index < characters.count, characters[index] == "]" { index += 1 }
        while index < characters.count {
            switch characters[index] {
            case "\\": index += 2
            case "[": index = skipClass(characters, from: index)
            case "]": return index + 1
            default: index += 1
            }
        }
        return index
    }

    /// `memmem` (not in the headers Swift imports): `memchr` for the first byte, then `memcmp`.
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let needleBase = needle.baseAddress, let first = needle.first else { return true }
        guard haystack.count >= needle.count, let base = haystack.baseAddress else { return false }
        var start = UnsafeRawPointer(base)
        let end = UnsafeRawPointer(base + (haystack.count - needle.count + 1))
        while start < end {
            guard let found = memchr(start, Int32(first), end - start) else { return false }
            if memcmp(found, needleBase, needle.count) == 0 { return true }
            start = UnsafeRawPointer(found) + 1
        }
        return false
    }

    /// True when a line of a card, as it is, holds a match (or a whole side, for a regular
    /// expression that spans lines).
    func matches(line: String) -> Bool {
        switch kind {
        case .substring:
            let folded = Array(SearchIndex.fold(line).utf8)
            return folded.withUnsafeBufferPointer { matches(folded: $0) }
        case .regex(let regex, _):
            return (try? regex.firstMatch(in: line)) != nil
        }
    }
}
