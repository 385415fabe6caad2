/// `Search`: cards whose id, front or back holds a pattern, from the in-memory `SearchIndex`.
extension Box {
    /// What a search found: its lines (at most `limit`), how many cards matched in all, and
    /// whether lines were left out to keep to the limit.
    public struct SearchResult: Sendable {
        public var matches: [SearchMatch]
        public var cards: Int
        public var truncated: Bool
    }

    /// The most lines one `Search` reply carries: 10,000 lines of at most 1 KiB stay well
    /// within a message (docs/protocol.md).
    public static let maxSearchLines = 10_000
    /// A matching line longer than this is cut (at a character boundary) in the reply.
    static let maxSearchLineBytes = 1024

    /// The lines of the cards that match `pattern` (ignoring case), sorted by level then id.
    /// - Parameters:
    ///   - fields: what to search: the id, the front, the back (text and Markdown sides).
    ///   - level: only cards of this level, when given.
    ///   - limit: the most lines to return (1 to `maxSearchLines`).
    /// - Throws: `invalidPattern`, `invalidLevel`, `invalidParameter` for a bad limit.
    public func search(_ pattern: SearchPattern, fields: Set<SearchMatch.Field>, level: String?,
                       limit: Int) throws(BoxError) -> SearchResult {
        let only = try level.map { (name) throws(BoxError) in try Box.level(named: name) }
        guard (1...Box.maxSearchLines).contains(limit) else {
            throw .invalidParameter(name: "limit", reason: "expected 1 to \(Box.maxSearchLines)")
        }
        _ = try begin()
        if searchIndex == nil { searchIndex = SearchIndex(store: store) } else { searchIndex!.update(store: store) }
        var found: [(level: Level, id: String, fields: [SearchMatch.Field])] = []
        let onlyLevel = only.map { UInt8($0.rawValue) }
        searchIndex!.forEach { parts in
            guard onlyLevel == nil || parts.slot.level == onlyLevel else { return }
            var hits: [SearchMatch.Field] = []
            if fields.contains(.id), pattern.matches(folded: parts.foldedID) { hits.append(.id) }
            if fields.contains(.front), pattern.matches(folded: parts.front) { hits.append(.front) }
            if fields.contains(.back), pattern.matches(folded: parts.back) { hits.append(.back) }
            guard !hits.isEmpty, let level = Level(rawValue: Int(parts.slot.level)) else { return }
            let id = String(decoding: parts.id, as: UTF8.self)
            if store.damaged[id] == nil { found.append((level, id, hits)) }
        }
        found.sort { ($0.level, $0.id) < ($1.level, $1.id) }
        var matches: [SearchMatch] = []
        var truncated = false
        cards: for (cardLevel, id, hits) in found {
            // The lines as they are in the card: read now, for the few cards that matched.
            guard let card = try? store.card(id, withText: true) else { continue }
            for field in hits {
                var lines: [String]
                switch field {
                case .id: lines = [id]
                case .front, .back:
                    let text = (field == .front ? card.front.text : card.back.text) ?? ""
                    let all = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).map(String.init)
                    lines = all.filter { pattern.matches(line: $0) }
                    // A regular expression may match across lines: show the first then.
                    if lines.isEmpty, let first = all.first { lines = [first] }
                }
                for line in lines {
                    guard matches.count < limit else {
                        truncated = true
                        break cards
                    }
                    matches.append(SearchMatch(id: id, level: cardLevel, field: field, line: Box.cut(line)))
                }
            }
        }
        return SearchResult(matches: matches, cards: found.count, truncated: truncated)
    }

    /// A line cut to `maxSearchLineBytes`, at a character boundary.
    static func cut(_ line: String) -> String {
        guard line.utf8.count > maxSearchLineBytes else { return line }
        var out = ""
        for character in line {
            if out.utf8.count + character.utf8.count > maxSearchLineBytes - 3 { break }
            out.append(character)
        }
        return out + "…"
    }

    /// Marks a card for the search index to read again: its content changed, its level did not
    /// (the store marks level changes itself).
    func searchIndexNeedsReading(_ id: String) {
        store.searchDirty?.insert(id)
    }
}
