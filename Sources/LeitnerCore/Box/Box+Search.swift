/// `Search`: cards whose id, front or back holds a pattern, from the in-memory `SearchIndex`.
extension Box {
    /// A line longer than this is cut (at a character boundary) in the reply.
    static let maxSearchLineBytes = 1024

    /// Every line of the cards that match `pattern` (ignoring case), sorted by level then id, or
    /// the first `limit` of them: `startSearch` then `nextMatches` to the end, for callers that
    /// want them at once.
    /// - Throws: as `startSearch` and `nextMatches`.
    public func search(_ pattern: SearchPattern, fields: Set<SearchMatch.Field>, level: String?,
                       limit: Int? = nil, filter: TagFilter = .all) throws(BoxError) -> [SearchMatch] {
        var scan = try startSearch(pattern, fields: fields, level: level, limit: limit, filter: filter)
        var matches: [SearchMatch] = []
        while !scan.isFinished { matches += try nextMatches(of: &scan, upTo: 1024) }
        return matches
    }

    /// Begins a search to be read a batch at a time: finds the matching cards in the index (built
    /// by the first search, then brought up to date with the store's changes, R13), sorted by
    /// level then id.
    /// - Parameters:
    ///   - fields: what to search: the id, the front, the back (text and Markdown sides).
    ///   - level: only cards of this level, when given.
    ///   - limit: the most lines to give, when given (at least 1; above `Box.maxLimit`, that).
    ///   - filter: only the cards it selects by their tags (R25).
    /// - Throws: `invalidLevel`, `invalidParameter` for a limit below 1.
    public func startSearch(_ pattern: SearchPattern, fields: Set<SearchMatch.Field>, level: String?,
                            limit: Int?, filter: TagFilter = .all) throws(BoxError) -> SearchScan {
        let only = try level.map { (name) throws(BoxError) in try Box.level(named: name) }
        if let limit, limit < 1 { throw .invalidParameter(name: "limit", reason: "expected 1 or more") }
        let limit = limit.map { min($0, Box.maxLimit) }
        _ = try begin()
        let index = try currentSearchIndex()
        var found: [SearchScan.Hit] = []
        let onlyLevel = only.map { UInt8($0.rawValue) }
        let (searchID, searchFront, searchBack) = (fields.contains(.id), fields.contains(.front), fields.contains(.back))
        index.forEach { parts in
            guard onlyLevel == nil || parts.slot.level == onlyLevel else { return }
            guard filter.isEmpty || filter.selects(parts.eachTag) else { return }
            var hits: UInt8 = 0
            if searchID, pattern.matches(folded: parts.foldedID) { hits |= SearchScan.Hit.bit(.id) }
            if searchFront, pattern.matches(folded: parts.front) { hits |= SearchScan.Hit.bit(.front) }
            if searchBack, pattern.matches(folded: parts.back) { hits |= SearchScan.Hit.bit(.back) }
            guard hits != 0, let level = Level(rawValue: Int(parts.slot.level)) else { return }
            let id = String(decoding: parts.id, as: UTF8.self)
            if !store.isDamaged(id) { found.append(SearchScan.Hit(level: level, id: id, fieldBits: hits)) }
        }
        return SearchScan(pattern: pattern, only: only, hits: found, limit: limit)
    }

    /// The matching lines of the next `count` cards of a search. Each batch begins as a request
    /// does (hand changes taken in, R13) and reads each card as it is now: a card deleted or
    /// damaged since the search began is left out, one moved is given at its new level (unless
    /// the search is of one level it left), and a side changed so that it no longer matches
    /// gives no line.
    /// - Throws: `storeFailure` when the store cannot be read.
    public func nextMatches(of scan: inout SearchScan, upTo count: Int) throws(BoxError) -> [SearchMatch] {
        _ = try begin()
        var matches: [SearchMatch] = []
        for hit in scan.nextHits(upTo: count) {
            guard let level = store.level(of: hit.id), scan.only == nil || level == scan.only,
                  !store.isDamaged(hit.id),
                  let card = try? store.card(hit.id, withText: true) else { continue }
            for field in hit.fields {
                for line in Box.matchingLines(of: card, field: field, pattern: scan.pattern) {
                    guard scan.take() else { return matches }
                    matches.append(SearchMatch(id: hit.id, level: level, field: field, line: Box.cut(line)))
                }
            }
        }
        return matches
    }

    /// The lines of a card's field that hold the pattern. A regular expression may match across
    /// lines only: the side's first line stands for it then, while the whole side still matches.
    static func matchingLines(of card: Card, field: SearchMatch.Field, pattern: SearchPattern) -> [String] {
        let text: String
        switch field {
        case .id: return [card.id]
        case .front: text = card.front.text ?? ""
        case .back: text = card.back.text ?? ""
        }
        let all = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).map(String.init)
        let lines = all.filter { pattern.matches(line: $0) }
        if lines.isEmpty, let first = all.first, pattern.matches(line: text) { return [first] }
        return lines
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

    /// Tells the views (the search index, the tag table) to read a card again: its content
    /// changed, its level did not (the store publishes level changes itself).
    func searchIndexNeedsReading(_ id: String) {
        store.publishWritten(id)
    }
}
