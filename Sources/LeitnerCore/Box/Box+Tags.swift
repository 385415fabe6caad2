/// Tags (R25): `Tag`, `Untag`, `Tags`, and the filter by tag that `List`, `Search`, `Next` and
/// practice take. The tags are read from the search index (`SearchIndex`), which keeps each
/// card's tags beside its text and is kept current the same way (R13: a `tags` file edited by
/// hand is read again before the next request that needs it).
extension Box {
    /// Adds tags to a card: those it has already are left as they are. The card's `tags` file
    /// is rewritten (bad lines dropped: they were never tags) and the change logged as an edit
    /// (R16, R17).
    /// - Throws: `invalidTag` (nothing changed), `noSuchCard`, `storeFailure` for a damaged card.
    public func tag(id: String, tags: [String]) throws(BoxError) -> Card {
        try changeTags(id: id, tags: tags) { current in current + tags.filter { !current.contains($0) } }
    }

    /// Takes tags off a card; a tag it does not have is no error. Removing `ja` removes `ja`
    /// only, not `ja:kana`.
    /// - Throws: as `tag(id:tags:)`.
    public func untag(id: String, tags: [String]) throws(BoxError) -> Card {
        try changeTags(id: id, tags: tags) { current in current.filter { !tags.contains($0) } }
    }

    private func changeTags(id: String, tags: [String], _ change: ([String]) -> [String]) throws(BoxError) -> Card {
        try CardID.validate(id)
        for tag in tags { try CardTag.validate(tag) }
        let moment = try begin()
        guard let level = store.level(of: id) else { throw .noSuchCard(id: id) }
        // Read first: a damaged card is refused before anything is written (R21).
        let card = try store.card(id, withText: true)
        let wanted = change(card.tags)
        if wanted == card.tags { return card }
        try store.writeTags(id, in: level, wanted, journal: [
            LogEntry(time: moment.now, event: .edit, id: id, from: level, to: level),
        ])
        if lastShown?.id == id { lastShown = nil }
        return try store.card(id, withText: true)
    }

    /// Every tag of the box's cards with the number of cards that have it, by tag; with a
    /// filter, of the cards it selects. Damaged cards are left out (R21).
    public func tagCounts(filter: TagFilter = .all) throws(BoxError) -> [TagCount] {
        _ = try begin()
        var counts: [[UInt8]: Int] = [:]
        currentSearchIndex().forEach { parts in
            guard parts.slot.tagsLength > 0 else { return }
            let tags = parts.eachTag
            guard filter.isEmpty || filter.selects(tags) else { return }
            for tag in tags { counts[Array(tag), default: 0] += 1 }
        }
        return counts.sorted { $0.key.lexicographicallyPrecedes($1.key) }
            .map { TagCount(tag: String(decoding: $0.key, as: UTF8.self), cards: $0.value) }
    }

    /// The ids of the cards `filter` selects, from the search index as it is now.
    func selectedIDs(_ filter: TagFilter) -> Set<String> {
        var ids = Set<String>()
        currentSearchIndex().forEach { parts in
            if filter.selects(parts.eachTag) { ids.insert(String(decoding: parts.id, as: UTF8.self)) }
        }
        return ids
    }

    /// The search index brought up to date with the store's changes (R13), built when there is
    /// none yet.
    func currentSearchIndex() -> SearchIndex {
        // Updated in place where it exists: a copy would copy every card's folded text.
        searchIndex?.update(store: store)
        if searchIndex == nil { searchIndex = SearchIndex(store: store) }
        return searchIndex ?? SearchIndex(store: store)
    }
}
