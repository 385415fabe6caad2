/// Marks where a search pattern matches in a line, for `leitnerctl search` on a terminal: the
/// same matching as the daemon's (ignoring case), on the line as the card has it.
public struct MatchHighlighter {
    let pattern: String
    let regex: Regex<AnyRegexOutput>?

    /// - Throws: when `regex` is true and the pattern is not a regular expression.
    public init(pattern: String, regex: Bool) throws {
        self.pattern = pattern.lowercased()
        self.regex = regex ? try Regex(pattern).ignoresCase() : nil
    }

    /// `line` with each match wrapped in `style`'s highlight.
    public func highlight(_ line: String, style: TextStyle) -> String {
        guard style.enabled else { return line }
        var out = ""
        if let regex {
            var last = line.startIndex
            for match in line.matches(of: regex) where !match.range.isEmpty {
                out += line[last..<match.range.lowerBound]
                out += style.apply(style.bold + style.red, String(line[match.range]))
                last = match.range.upperBound
            }
            return out + line[last...]
        }
        let characters = Array(line)
        var index = 0
        while index < characters.count {
            // Lower-case character by character, so that the match's bounds are the line's own.
            var folded = ""
            var end = index
            while folded.utf8.count < pattern.utf8.count && end < characters.count {
                folded += String(characters[end]).lowercased()
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
