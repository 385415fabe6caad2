/// Tags (R25): `Tag`, `Untag`, `Tags`, and the filter by tag that `List`, `Search`, `Next` and
/// practice take. The tags are read from the tag table (`TagTable`), built by the first request
/// that needs them and kept current without rescans (R13: a `tags` file edited by hand is read
/// again before the next request that needs it); never from the search index, whose first build
/// reads every side of every card.
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
    /// filter, of the cards it selects. Cards known to be damaged are left out (R21).
    public func tagCounts(filter: TagFilter = .all) throws(BoxError) -> [TagCount] {
        _ = try begin()
        var counts: [String: Int] = [:]
        for (id, tags) in try currentTagTable().tagsOf where store.level(of: id) != nil && !store.isDamaged(id) {
            guard filter.isEmpty || filter.selects(tags) else { continue }
            for tag in tags { counts[tag, default: 0] += 1 }
        }
        // By the tags' bytes, as the files hold them (not by String's order of characters).
        return counts.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            .map { TagCount(tag: $0.key, cards: $0.value) }
    }

    /// The ids of the cards `filter` selects, from the tag table as it is now.
    /// - Throws: as `currentTagTable`.
    func selectedIDs(_ filter: TagFilter) throws(BoxError) -> Set<String> {
        let table = try currentTagTable()
        var ids = Set<String>()
        if filter.tags.isEmpty {
            // Only tags left out: every other card is selected, those without tags too.
            for (id, _) in store.cardLevels where filter.selects(table.tags(of: id)) { ids.insert(id) }
        } else {
            // A card without tags has none the filter asks for: only tagged cards are looked at.
            for (id, tags) in table.tagsOf where store.level(of: id) != nil && filter.selects(tags) { ids.insert(id) }
        }
        return ids
    }

    /// `selectedIDs` as the entries of `index` (the store's, which a listing numbers its cards
    /// by): each tagged card's id looked up once, and no set of ids made. A listing by tag began
    /// with two look-ups and a set's insertion a tagged card (30,000 at 10,000 tagged), before
    /// its first card was read. The entries are kept in the tag table for the next listing by
    /// the same filter, as long as no card's tags change and no card comes or goes
    /// (`TagTable.selection`): a warm `list --tag` looks up no id.
    /// - Returns: the entries, and whether they are in the order of their ids (`CardListing.sorted`):
    ///   a filter of tags selects only tagged cards, which are sorted once, when selected, so
    ///   that each listing by it needs no level put in order; one that only leaves tags out
    ///   selects most cards, left in the index's order, each level sorted as a listing reaches it.
    /// - Throws: as `currentTagTable`.
    func selectedEntries(_ filter: TagFilter, of index: CardIndex) throws(BoxError) -> (entries: [UInt32], inOrder: Bool) {
        let table = try currentTagTable()
        let cards = store.cardSetVersion
        let inOrder = !filter.tags.isEmpty
        if let kept = table.selection(filter, cards: cards) { return (kept, inOrder) }
        var entries: [UInt32] = []
        if filter.tags.isEmpty {
            // Only tags left out: the cards left out are among the tagged; every other card is
            // selected, those without tags too.
            var leftOut = Set<UInt32>()
            for (id, tags) in table.tagsOf where !filter.selects(tags) {
                if let number = index.entryNumber(of: id) { leftOut.insert(number) }
            }
            index.forEachEntry { number, _ in
                if !leftOut.contains(number) { entries.append(number) }
            }
        } else {
            // A card without tags has none the filter asks for: only tagged cards are looked at.
            for (id, tags) in table.tagsOf where filter.selects(tags) {
                if let number = index.entryNumber(of: id) { entries.append(number) }
            }
            entries = CardListing.sorted(entries, in: index)
        }
        tagTable?.keepSelection(entries, of: filter, cards: cards)
        return (entries, inOrder)
    }

    /// The tag table brought up to date with the store's changes (R13), built when there is none yet.
    /// - Parameter readBy: a build begun by the calling request (a listing that streamed it):
    ///   its reads are as current as the request needs, as a build that began after the call.
    /// - Throws: with `BoxOptions.buildsIndexesApart`, `storeFailure` while it is being built off
    ///   the turn (`takeAwaitedBuild`); a call throws it before it changes anything, so that it
    ///   can be made again once the build is done.
    func currentTagTable(readBy: IndexBuild? = nil) throws(BoxError) -> TagTable {
        var installed = false
        var watchesTaken = false
        if options.buildsIndexesApart {
            // Events lost: every card's tags are read again, off the turn too.
            if let table = tagTable, store.isLost(table.cursor) {
                store.closeCursor(table.cursor)
                tagTable = nil
                tagWatching = nil
            }
            if tagTable == nil { installed = try installBuilt(.tags, readBy: readBy) }
            // The watches of the cards the build read unwatched, added since.
            if let build = tagWatching {
                let watched = build.takeTagsWatched()
                if watched.last { tagWatching = nil }
                tagTable?.takeWatches(watched.cards, of: watched.generation ?? 0, store: store, last: watched.last)
                watchesTaken = !watched.cards.isEmpty
            }
        }
        // Updated in place where it exists: a copy would copy the table. One installed now was
        // updated by its install: another update would read every unwatched card's `tags` again
        // under the turn (all of them, after the daemon's build), which the install spares a
        // call whose build read after it began (`readAfterCall`); the watches taken in since
        // only need their events taken in, not those reads.
        if !installed {
            tagTable?.update(store: store)
        } else if watchesTaken {
            tagTable?.update(store: store, readingUnwatched: false)
        }
        if tagTable == nil { tagTable = TagTable(store: store) }
        return tagTable ?? TagTable(store: store)
    }

    /// The search index brought up to date with the store's changes (R13), built when there is
    /// none yet.
    /// - Throws: as `currentTagTable`.
    func currentSearchIndex() throws(BoxError) -> SearchIndex {
        var installed = false
        if options.buildsIndexesApart {
            if let index = searchIndex, store.isLost(index.cursor) {
                store.closeCursor(index.cursor)
                searchIndex = nil
            }
            if searchIndex == nil { installed = try installBuilt(.search) }
        }
        // Updated in place where it exists: a copy would copy every card's folded text. One
        // installed now was updated by its install, as the tag table is (above).
        if !installed { searchIndex?.update(store: store) }
        if searchIndex == nil { searchIndex = SearchIndex(store: store) }
        return searchIndex ?? SearchIndex(store: store)
    }

    /// Begins the build of the search index or of the tag table on a thread of its own, for a
    /// search that finds in each level as the build reads it (`startSearch` with `duringBuild`)
    /// or a listing by tag that gives each piece's cards (`startListing`), when there is no index
    /// or table (or the kernel dropped events since it was made) and no build of it under way;
    /// nil otherwise. The next call that needs it installs the build, waiting for it if it must.
    /// - Parameter ahead: begun by no call (`buildSearchIndexAhead`).
    func beginBuild(_ kind: IndexBuild.Kind, ahead: Bool = false) -> IndexBuild? {
        guard options.buildsIndexesApart, (kind == .search ? searchBuild : tagBuild) == nil else { return nil }
        if kind == .search, let index = searchIndex {
            guard store.isLost(index.cursor) else { return nil }
            store.closeCursor(index.cursor)
            searchIndex = nil
        }
        if kind == .tags, let table = tagTable {
            guard store.isLost(table.cursor) else { return nil }
            store.closeCursor(table.cursor)
            tagTable = nil
            tagWatching = nil
        }
        guard let build = try? IndexBuild(kind, store: store, ahead: ahead) else { return nil }
        if kind == .search { searchBuild = build } else { tagBuild = build }
        build.runApart()
        return build
    }

    /// The build that made the last call fail, for the caller to run or wait for before it calls
    /// again; nil when the call did not wait for one. Taken: a second ask gives nil.
    public func takeAwaitedBuild() -> IndexBuild? {
        defer { awaitedBuild = nil }
        return awaitedBuild
    }

    /// Off the turn: installs the index `kind` once its build is done, else begins one (or goes
    /// on waiting for the one under way) and throws. A build that gave up, or during which the
    /// kernel dropped events, is begun again; one whose descriptors cannot be opened is left to
    /// the caller, who reads every card under the turn, the old way.
    /// - Returns: true when a build was installed (and brought up to date), false when none could
    ///   be made: the caller builds under the turn.
    @discardableResult
    private func installBuilt(_ kind: IndexBuild.Kind, readBy: IndexBuild? = nil) throws(BoxError) -> Bool {
        let under = kind == .search ? searchBuild : tagBuild
        if let build = under {
            guard let outcome = build.outcome else { try wait(for: build, kind) }
            if kind == .search { searchBuild = nil } else { tagBuild = nil }
            switch outcome {
            case .search(let built) where !store.isLost(build.cursor):
                // The cards left unwatched (past the watches' limit) were looked at by their
                // stamps after this call began: as current as a read for it; the next call looks again.
                searchIndex = SearchIndex(installing: built, cursor: build.cursor, store: store, stampsAsked: readAfterCall(build))
                return true
            case .tags(let built) where !store.isLost(build.cursor):
                tagTable = TagTable(installing: built, cursor: build.cursor, store: store,
                                    readAfterCall: build === readBy || readAfterCall(build))
                build.dropTagPieces()
                if !built.unwatched.isEmpty { tagWatching = build }
                return true
            case .search, .tags, .stopped:
                store.closeCursor(build.cursor)
            }
        }
        guard let build = try? IndexBuild(kind, store: store) else { return false }
        if kind == .search { searchBuild = build } else { tagBuild = build }
        try wait(for: build, kind)
    }

    /// True when `build` began reading after the call being made began (`callBegan`).
    private func readAfterCall(_ build: IndexBuild) -> Bool {
        guard let callBegan, let began = build.began else { return false }
        return callBegan <= began
    }

    private func wait(for build: IndexBuild, _ kind: IndexBuild.Kind) throws(BoxError) -> Never {
        awaitedBuild = build
        throw .storeFailure(path: store.root, reason: kind == .search ? "the search index is being built" : "the tag table is being built")
    }
}
