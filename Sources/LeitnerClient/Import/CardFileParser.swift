import LeitnerCore
/// Turns the text of an import file into cards to add, and the lines that cannot be.
///
/// TSV and CSV: two fields a line, front and back; or a header line naming the columns
/// (`id`, `front`, `back`, `level`, `frontext`, `backext`, `tags`, `type-answer`, `reverse-of`,
/// `cloze-of`, `cloze`, in any order; `front` and `back` required; `frontext`/`backext` say `txt`
/// or `md`, as `export` writes them; a row with a `reverse-of` is a reverse card of that id,
/// whose sides are not its own and are not read; one with a `cloze-of` and a `cloze` number is
/// that card of that note, its front the note's text and its back the note's extra). Anki: the
/// header lines say the separator, whether fields are HTML, and which columns hold the guid,
/// note type, deck and tags; the first two other columns are front and back, more are ignored.
public struct CardFileParser: Sendable {
    public var format: ImportFormat

    public init(format: ImportFormat) { self.format = format }

    /// The cards of `text`, and every line that is wrong with the reason. Nothing of a bad
    /// line is kept.
    public func parse(_ text: String) -> (records: [ImportRecord], problems: [ImportProblem]) {
        switch format {
        case .tsv: return cards(DelimitedReader(separator: "\t", quoting: .backslash, skipsComments: true).rows(text),
                                separator: "\t", html: false, skipColumns: [], headerAllowed: true)
        case .csv: return cards(DelimitedReader(separator: ",", quoting: .rfc4180).rows(text),
                                separator: ",", html: false, skipColumns: [], headerAllowed: true)
        case .anki: return anki(text)
        }
    }

    private func anki(_ text: String) -> (records: [ImportRecord], problems: [ImportProblem]) {
        var separator: Character = "\t"
        var html = false
        var skip: Set<Int> = []
        var tagsColumn: Int?
        var problems: [ImportProblem] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            guard line.hasPrefix("#") else { break }
            let body = line.dropFirst().droppingSuffix { $0 == "\r" }
            guard let colon = body.firstIndex(of: ":") else { continue }
            let key = body[..<colon].lowercased().trimmed(of: " ")
            let value = String(body[body.index(after: colon)...])
            switch key {
            case "separator":
                if let found = Self.ankiSeparator(value) { separator = found } else {
                    problems.append(ImportProblem(location: .line(lineNumber), reason: "unknown separator '\(value)'"))
                }
            case "html": html = value.lowercased() == "true"
            case "guid column", "notetype column", "deck column", "tags column":
                if let column = Int(value), column >= 1 {
                    skip.insert(column - 1)
                    // Not a side: the card's tags (R25), read apart.
                    if key == "tags column" { tagsColumn = column - 1 }
                } else {
                    problems.append(ImportProblem(location: .line(lineNumber), reason: "bad column number '\(value)'"))
                }
            default: break // #columns:, #tags:, #deck: and future keys do not change which fields are which
            }
        }
        let rows = DelimitedReader(separator: separator, quoting: .rfc4180, skipsComments: true).rows(text)
        var result = cards(rows, separator: separator, html: html, skipColumns: skip, headerAllowed: false, tagsColumn: tagsColumn)
        result.problems = problems + result.problems
        return result
    }

    static func ankiSeparator(_ value: String) -> Character? {
        switch value.lowercased() {
        case "tab": "\t"
        case "comma": ","
        case "semicolon": ";"
        case "pipe": "|"
        case "space": " "
        case "colon": ":"
        default: value.count == 1 ? value.first : nil
        }
    }

    /// What a line of one field seems to be separated by, when that is not the file's separator:
    /// a spreadsheet saved with `;` (as many languages' spreadsheets save CSV) was refused line by
    /// line with "found 1" and nothing to go on.
    static func separatorHint(_ field: String, separator: Character) -> String {
        let names: [(Character, String)] = [(";", "semicolon"), ("\t", "tab"), (",", "comma"), ("|", "pipe")]
        guard let (character, name) = names.first(where: { $0.0 != separator && field.contains($0.0) }) else { return "" }
        let shown = character == "\t" ? "a tab" : "'\(character)'"
        return "; the line holds \(shown): for a file separated by \(name)s, make its first line #separator:\(name)"
    }

    /// - Parameter separator: the file's, for what a line of one field says.
    /// - Parameter tagsColumn: the raw column of Anki's tags field, if it has one.
    private func cards(_ rows: [DelimitedRow], separator: Character, html: Bool, skipColumns: Set<Int>,
                       headerAllowed: Bool, tagsColumn: Int? = nil) -> (records: [ImportRecord], problems: [ImportProblem]) {
        var records: [ImportRecord] = []
        var problems: [ImportProblem] = []
        var columns: [String: Int]?
        var seenIds: [String: Int] = [:]
        for (index, row) in rows.enumerated() {
            let location = ImportLocation.line(row.line)
            if let problem = row.problem {
                problems.append(ImportProblem(location: location, reason: problem))
                continue
            }
            if index == 0 && headerAllowed, let header = Self.header(row.fields) {
                columns = header
                continue
            }
            let fields = row.fields.enumerated().filter { !skipColumns.contains($0.offset) }.map(\.element)
            func field(_ name: String, _ position: Int) -> String? {
                if let columns {
                    guard let column = columns[name] else { return nil }
                    return column < fields.count ? fields[column] : ""
                }
                return position >= 0 && position < fields.count ? fields[position] : nil
            }
            if let columns, fields.count != columns.count {
                problems.append(ImportProblem(location: location,
                    reason: "expected \(columns.count) fields as the header says, found \(fields.count)"))
                continue
            }
            if columns == nil && (fields.count < 2 || (fields.count > 2 && format != .anki)) {
                problems.append(ImportProblem(location: location, reason: fields.count < 2
                    ? "expected 2 fields (front, back), found \(fields.count)"
                        + (fields.count == 1 ? Self.separatorHint(fields[0], separator: separator) : "")
                    : "expected 2 fields (front, back), found \(fields.count); name the columns in a header line (id, front, back, level) to give more"))
                continue
            }
            var front = field("front", 0) ?? ""
            var back = field("back", 1) ?? ""
            if html {
                front = HTMLText.plain(front)
                back = HTMLText.plain(back)
            }
            let id = field("id", -1).flatMap { $0.isEmpty ? nil : $0 }
            let level = field("level", -1).flatMap { $0.isEmpty ? nil : $0 }
            // An export's media types: txt or md (Markdown stays Markdown).
            let frontExt = field("frontext", -1).flatMap { $0.isEmpty ? nil : $0.lowercased() } ?? "txt"
            let backExt = field("backext", -1).flatMap { $0.isEmpty ? nil : $0.lowercased() } ?? "txt"
            if let bad = [frontExt, backExt].first(where: { !MediaType.isText(MediaType.of(fileName: "x." + $0)) }) {
                problems.append(ImportProblem(location: location, reason: "'\(bad)' is not a text extension (txt or md)"))
                continue
            }
            let typeAnswer: Bool
            switch field("type-answer", -1)?.lowercased() ?? "" {
            case "", "no", "false", "0": typeAnswer = false
            case "yes", "true", "1": typeAnswer = true
            case let other:
                problems.append(ImportProblem(location: location, reason: "type-answer '\(other)': expected yes or no"))
                continue
            }
            let kind: ImportRecord.Kind
            switch Self.kind(reverseOf: field("reverse-of", -1) ?? "", clozeOf: field("cloze-of", -1) ?? "", number: field("cloze", -1) ?? "") {
            case .success(let found): kind = found
            case .failure(let problem):
                problems.append(ImportProblem(location: location, reason: problem.reason))
                continue
            }
            if kind != .card && id == nil {
                problems.append(ImportProblem(location: location, reason: "a reverse or cloze card needs its id"))
                continue
            }
            if case .reverse = kind {
                // Its sides are its original's, written for reading: nothing of them is checked.
            } else if front.allSatisfy(\.isWhitespace) {
                problems.append(ImportProblem(location: location, reason: "the front is empty"))
                continue
            }
            if kind == .card && back.allSatisfy(\.isWhitespace) {
                problems.append(ImportProblem(location: location, reason: "the back is empty"))
                continue
            }
            if let id, let reason = CardID.problem(id) {
                problems.append(ImportProblem(location: location, reason: "invalid card id '\(id)': \(reason)"))
                continue
            }
            // Tags are space-separated in a cell, as Anki writes them; Anki's hierarchy `ja::kana`
            // is R25's `ja:kana`.
            let tagsCell = tagsColumn.map { $0 < row.fields.count ? row.fields[$0] : "" } ?? field("tags", -1) ?? ""
            let tags = tagsCell.split(whereSeparator: { $0 == " " || $0 == "\t" })
                .map { tagsColumn == nil ? String($0) : String($0.replacing("::", with: ":")) }
            if let bad = tags.first(where: { CardTag.problem($0) != nil }), let reason = CardTag.problem(bad) {
                problems.append(ImportProblem(location: location, reason: "invalid tag '\(bad)': \(reason)"))
                continue
            }
            if let level, Level(name: level) == nil {
                problems.append(ImportProblem(location: location, reason: "invalid level '\(level)': expected 1 to 7 or finished"))
                continue
            }
            if let id {
                if let first = seenIds[id] {
                    problems.append(ImportProblem(location: location, reason: "card id '\(id)' is also on line \(first)"))
                    continue
                }
                seenIds[id] = row.line
            }
            records.append(ImportRecord(location: location, id: id, level: level,
                                        front: .text(front, extension: frontExt), back: .text(back, extension: backExt),
                                        tags: tags, kind: kind, typeAnswer: typeAnswer))
        }
        return (records, problems)
    }

    /// What the `reverse-of`, `cloze-of` and `cloze` cells of a row make it: a card with its own
    /// sides when all are empty.
    static func kind(reverseOf: String, clozeOf: String, number: String) -> Result<ImportRecord.Kind, RowProblem> {
        if !reverseOf.isEmpty {
            guard clozeOf.isEmpty && number.isEmpty else { return .failure(RowProblem(reason: "both a reverse-of and a cloze-of")) }
            if let reason = CardID.problem(reverseOf) { return .failure(RowProblem(reason: "invalid reverse-of '\(reverseOf)': \(reason)")) }
            return .success(.reverse(of: reverseOf))
        }
        if clozeOf.isEmpty && number.isEmpty { return .success(.card) }
        switch CardLayout.clozeOf(fileText: clozeOf + "\n" + number) {
        case .success(let link): return .success(.cloze(link))
        case .failure(let problem): return .failure(RowProblem(reason: "cloze-of '\(clozeOf)', cloze '\(number)': \(problem.reason)"))
        }
    }

    /// Why a row's cells are no card.
    struct RowProblem: Error {
        var reason: String
    }

    /// The columns a header may name, as `export` writes them.
    public static let columnNames = ["id", "level", "front", "back", "frontext", "backext", "tags", "type-answer",
                                     "reverse-of", "cloze-of", "cloze"]

    /// The columns a header line names, or nil when the line is not a header.
    static func header(_ fields: [String]) -> [String: Int]? {
        var columns: [String: Int] = [:]
        for (index, field) in fields.enumerated() {
            let name = field.trimmed(of: " ").lowercased()
            guard columnNames.contains(name), columns[name] == nil else { return nil }
            columns[name] = index
        }
        return columns["front"] != nil && columns["back"] != nil ? columns : nil
    }
}

extension StringProtocol {
    func trimmed(of set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }

    func droppingSuffix(while predicate: (Character) -> Bool) -> SubSequence {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
