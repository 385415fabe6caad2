import LeitnerCore

/// Marks where a search pattern matches in a line, for `leitnerctl search` on a terminal: the
/// same matching as the daemon's (ignoring case), on the line as the card has it.
public struct MatchHighlighter {
    let pattern: String
    /// The daemon's own engine: the marks are what it matched.
    let regex: LinearRegex?

    /// - Throws: `RegexError` when `regex` is true and the pattern is not a regular expression.
    public init(pattern: String, regex: Bool) throws {
        self.pattern = CaseFolding.fold(pattern)
        self.regex = regex ? try LinearRegex(pattern) : nil
    }

    /// `line` with each match wrapped in `style`'s highlight.
    public func highlight(_ line: String, style: TextStyle) -> String {
        guard style.enabled else { return line }
        var out = ""
        if let regex {
            let bytes = Array(line.utf8)
            bytes.withUnsafeBufferPointer { text in
                var last = 0
                var from = 0
                while from <= text.count, let match = regex.firstMatch(in: text, from: from) {
                    // An empty match marks nothing; none longer starts there (it is the longest).
                    if match.isEmpty {
                        from = match.lowerBound + 1
                        while from < text.count, text[from] & 0xC0 == 0x80 { from += 1 }
                        continue
                    }
                    out += String(decoding: text[last..<match.lowerBound], as: UTF8.self)
                    out += style.apply(style.bold + style.red, String(decoding: text[match], as: UTF8.self))
                    last = match.upperBound
                    from = last
                }
                out += String(decoding: text[last...], as: UTF8.self)
            }
            return out
        }
        let characters = Array(line)
        var index = 0
        while index < characters.count {
            // Folded character by character, as the daemon folds (`CaseFolding`), so that the
            // match's bounds are the line's own.
            var folded = ""
            var end = index
            while folded.utf8.count < pattern.utf8.count && end < characters.count {
                folded += CaseFolding.fold(String(characters[end]))
                end += 1
            }
            if !pattern.isEmpty && folded.hasPrefix(pattern) {
                out += style.apply(style.bold + style.red, String(characters[index..<end]))
                index = end
            } else {
                out.append(characters[index])
                index += 1
            }
        }
        return out
    }
}
