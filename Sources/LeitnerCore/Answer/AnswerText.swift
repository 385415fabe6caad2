/// The expected answer of a typed card (docs/rules.md R32): the back's text as the learner
/// reads it, without the markup that writes it.
public enum AnswerText {
    /// The text a side of media type `mediaType` shows, without markup: for Markdown, emphasis
    /// and code lose their marks, a link becomes its text, a heading or list its words, an
    /// image or a sound (R31) nothing, and a backslash escape its character; for HTML, the
    /// tags are dropped. Plain text is returned as it is.
    public static func plain(_ text: String, mediaType: String) -> String {
        switch mediaType {
        case "text/markdown": markdownText(text)
        case "text/html": htmlText(text)
        default: text
        }
    }

    /// Markdown without its marks, line by line: a line's leading `#`, `>`, `-`, `*`, `+` and
    /// `1.` marks go, then the inline marks.
    static func markdownText(_ text: String) -> String {
        text.lines.map { line in
            var rest = Substring(line.trimmingBlanks)
            while let first = rest.first, first == "#" || first == ">" { rest = rest.dropFirst() }
            if let marker = rest.first, "-*+".contains(marker), rest.dropFirst().first == " " {
                rest = rest.dropFirst(2)
            }
            return inlineText(Array(rest.trimmingBlanks))
        }.joined(separator: "\n")
    }

    /// The inline content without marks: `code` keeps its content untouched, `[text](url)`
    /// becomes text, `![alt](file)` and `[sound:file]` go, `*`, `_` and `~` marks go (an
    /// underscore inside a word stays, as CommonMark reads it), `\x` is x.
    static func inlineText(_ characters: [Character]) -> String {
        var result = ""
        var index = 0
        func closing(_ mark: Character, from start: Int) -> Int? {
            characters[start...].firstIndex(of: mark)
        }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\\" where index + 1 < characters.count && (characters[index + 1].isPunctuation || characters[index + 1].isSymbol):
                result.append(characters[index + 1])
                index += 2
            case "`":
                var ticks = 0
                while index + ticks < characters.count, characters[index + ticks] == "`" { ticks += 1 }
                let fence = String(repeating: "`", count: ticks)
                let after = String(characters[(index + ticks)...])
                if let end = after.firstRange(of: fence) {
                    result += after[..<end.lowerBound].trimmingBlanks
                    index += ticks + after.distance(from: after.startIndex, to: end.upperBound)
                } else {
                    result += fence
                    index += ticks
                }
            case "!" where index + 1 < characters.count && characters[index + 1] == "[":
                if let (_, next) = link(characters, at: index + 1) { index = next } else { result.append(character); index += 1 }
            case "[":
                if let (label, next) = link(characters, at: index) {
                    result += inlineText(label)
                    index = next
                } else if String(characters[index...]).hasPrefix("[sound:"), let end = closing("]", from: index) {
                    index = end + 1
                } else {
                    result.append(character)
                    index += 1
                }
            case "*", "~":
                index += 1
            case "_":
                let inWord = index > 0 && index + 1 < characters.count
                    && characters[index - 1].isLetterOrNumber && characters[index + 1].isLetterOrNumber
                if inWord { result.append(character) }
                index += 1
            default:
                result.append(character)
                index += 1
            }
        }
        return result
    }

    /// `[label](target)` starting at `start`: the label and the index after the `)`.
    static func link(_ characters: [Character], at start: Int) -> ([Character], Int)? {
        guard characters[start] == "[", let close = characters[start...].firstIndex(of: "]"),
              close + 1 < characters.count, characters[close + 1] == "(",
              let end = characters[(close + 1)...].firstIndex(of: ")") else { return nil }
        return (Array(characters[(start + 1)..<close]), end + 1)
    }

    /// HTML without its tags; the five entities the project writes become their characters.
    static func htmlText(_ text: String) -> String {
        var result = ""
        var inTag = false
        for character in text {
            if character == "<" { inTag = true } else if character == ">" && inTag { inTag = false } else if !inTag { result.append(character) }
        }
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            result = result.replacing(entity, with: character)
        }
        return result
    }
}

extension Character {
    var isLetterOrNumber: Bool { isLetter || isNumber }
}
