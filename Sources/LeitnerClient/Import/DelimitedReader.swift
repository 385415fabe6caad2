
/// Splits delimited text into records: CSV with RFC 4180 quoting, tab-separated values with
/// backslash escapes, or Anki's plain-text notes (any separator, RFC 4180 quoting).
/// Line ends may be LF or CRLF; blank lines are skipped.
public struct DelimitedReader: Sendable {
    public enum Quoting: Sendable {
        /// A field in double quotes may hold separators, line breaks and `""` for a quote.
        case rfc4180
        /// No quotes; `\t`, `\n`, `\r` and `\\` stand for a tab, a line feed, a carriage
        /// return and a backslash (how `export` writes TSV).
        case backslash
    }

    public var separator: Character
    public var quoting: Quoting
    /// Lines starting with `#` are skipped (TSV comments, Anki's header lines).
    public var skipsComments: Bool

    public init(separator: Character, quoting: Quoting, skipsComments: Bool = false) {
        self.separator = separator
        self.quoting = quoting
        self.skipsComments = skipsComments
    }

    /// The records of `text`.
    public func rows(_ text: String) -> [DelimitedRow] {
        var rows: [DelimitedRow] = []
        var line = 1
        var chars = Array(text)
        if chars.first == "\u{FEFF}" { chars.removeFirst() }
        var i = 0
        while i < chars.count {
            let start = line
            if chars[i].isNewline {
                line += 1
                i += 1
                continue
            }
            if skipsComments && chars[i] == "#" {
                while i < chars.count && !chars[i].isNewline { i += 1 }
                continue
            }
            var row = DelimitedRow(line: start, fields: [])
            switch quoting {
            case .rfc4180: readQuoted(chars, &i, &line, &row)
            case .backslash: readEscaped(chars, &i, &row)
            }
            // Skip the rest of a line a problem was found on, and its end.
            while i < chars.count && !chars[i].isNewline { i += 1 }
            if i < chars.count { i += 1; line += 1 }
            rows.append(row)
        }
        return rows
    }

    private func readEscaped(_ chars: [Character], _ i: inout Int, _ row: inout DelimitedRow) {
        var field = ""
        while i < chars.count && !chars[i].isNewline {
            let c = chars[i]
            i += 1
            if c == separator {
                row.fields.append(field)
                field = ""
            } else if c == "\\" {
                guard i < chars.count, !chars[i].isNewline else { field.append("\\"); continue }
                let next = chars[i]
                i += 1
                switch next {
                case "t": field.append("\t")
                case "n": field.append("\n")
                case "r": field.append("\r")
                case "\\": field.append("\\")
                default: field.append("\\"); field.append(next)
                }
            } else {
                field.append(c)
            }
        }
        row.fields.append(field)
    }

    private func readQuoted(_ chars: [Character], _ i: inout Int, _ line: inout Int, _ row: inout DelimitedRow) {
        while true {
            var field = ""
            if i < chars.count && chars[i] == "\"" {
                let quoteLine = line
                i += 1
                var closed = false
                while i < chars.count {
                    let c = chars[i]
                    i += 1
                    if c == "\"" {
                        if i < chars.count && chars[i] == "\"" {
                            field.append("\"")
                            i += 1
                        } else {
                            closed = true
                            break
                        }
                    } else {
                        if c.isNewline { line += 1 }
                        field.append(c)
                    }
                }
                row.fields.append(field)
                if !closed {
                    row.problem = "quoted field opened on line \(quoteLine) is not closed"
                    return
                }
                guard i < chars.count, !chars[i].isNewline else { return }
                if chars[i] == separator {
                    i += 1
                    continue
                }
                row.problem = "text after the closing quote of field \(row.fields.count)"
                return
            }
            while i < chars.count && !chars[i].isNewline && chars[i] != separator {
                if chars[i] == "\"" {
                    row.fields.append(field)
                    row.problem = "a quote inside unquoted field \(row.fields.count) (quote the field and double the quote)"
                    return
                }
                field.append(chars[i])
                i += 1
            }
            row.fields.append(field)
            guard i < chars.count, chars[i] == separator else { return }
            i += 1
        }
    }
}
