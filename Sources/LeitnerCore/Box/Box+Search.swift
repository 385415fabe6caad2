import LeitnerSystem

/// `Search`: cards whose id, front or back holds a pattern, from the in-memory `SearchIndex`.
extension Box {
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

    /// Begins a search to be read a batch at a time: brings the index up to date with the
    /// store's changes (built by the first search, R13) and keeps it as it is now for the
    /// search's `find`, which runs off the box's turn (`SearchScan`).
    /// - Parameters:
    ///   - fields: what to search: the id, the front, the back (text and Markdown sides).
    ///   - level: only cards of this level, when given.
    ///   - limit: the most lines to give, when given (at least 1; above `Box.maxLimit`, that).
    ///   - cards: the most cards to give lines of, when given (the same range): a page of cards,
    ///     after which no card is read (`SearchScan.cardsLeft`).
    ///   - filter: only the cards it selects by their tags (R25).
    ///   - budget: the regular-expression engine's steps the search may take; `searchSteps` when nil.
    ///   - duringBuild: with `BoxOptions.buildsIndexesApart`, when there is no index and no
    ///     build under way: begin the build on a thread of its own and find in each level once
    ///     the build has read it, the first level's lines given while the others are read (a
    ///     caller that waits for them off the turn: the daemon's streamed reply). The search
    ///     began the build, so the build's snapshot and reads are of the store as the search
    ///     began or later (R13). Otherwise a search waits for the whole index, as every call
    ///     that needs it does (`currentSearchIndex`).
    /// - Throws: `invalidLevel`, `invalidParameter` for a limit or cards below 1.
    public func startSearch(_ pattern: SearchPattern, fields: Set<SearchMatch.Field>, level: String?,
                            limit: Int?, cards: Int? = nil, filter: TagFilter = .all, budget: Int? = nil,
                            duringBuild: Bool = false) throws(BoxError) -> SearchScan {
        let only = try level.map { (name) throws(BoxError) in try Box.level(named: name) }
        if let limit, limit < 1 { throw .invalidParameter(name: "limit", reason: "expected 1 or more") }
        if let cards, cards < 1 { throw .invalidParameter(name: "cards", reason: "expected 1 or more") }
        let (limit, cards) = (limit.map { min($0, Box.maxLimit) }, cards.map { min($0, Box.maxLimit) })
        _ = try begin()
        let criteria = SearchScan.Criteria(fields: fields, filter: filter)
        if duringBuild, let build = beginBuild(.search) {
            return SearchScan(pattern: pattern, only: only, building: build, criteria: criteria, limit: limit,
                              cards: cards, budget: budget ?? options.searchSteps)
        }
        // The build the daemon began as it opened the box (`buildSearchIndexAhead`), still
        // reading: when no card changed since its snapshot, this search is as one that began
        // it. The feed says so only for watched cards: once the watches ran out, a card the build
        // read unwatched may have been edited by hand since with nothing in the feed, so the
        // search takes it that something changed (R13). Otherwise a card changed since may be in a piece read before the change: a search
        // without a limit gives each piece's lines and then, the index installed, those of every
        // card it did not read that matches (the changed cards among them); one with a limit,
        // which may end with the first pieces, waits for the index as any call does. One search
        // takes the pieces.
        if duringBuild, searchIndex == nil, let build = searchBuild, build.ahead {
            let changed = store.hasChanges(since: build.cursor) || store.viewWatchesRanOut
            if limit == nil && cards == nil || !changed, build.joinPieces() {
                return SearchScan(pattern: pattern, only: only, joining: build, changedSince: changed, criteria: criteria,
                                  limit: limit, cards: cards, budget: budget ?? options.searchSteps)
            }
        }
        return SearchScan(pattern: pattern, only: only, index: try currentSearchIndex(), criteria: criteria, limit: limit,
                          cards: cards, budget: budget ?? options.searchSteps)
    }

    /// The matching lines of the next `count` cards of a search: `find` when not yet done,
    /// `readCards`, then `matchRead`, all under the caller's turn (the daemon runs the first and
    /// the last apart, `SearchItems`).
    /// - Throws: `storeFailure` when the store cannot be read; `searchCut`.
    public func nextMatches(of scan: inout SearchScan, upTo count: Int) throws(BoxError) -> [SearchMatch] {
        try scan.find()
        try readCards(of: &scan, upTo: count)
        return try scan.matchRead()
    }

    /// Reads the next `count` cards of a search for `SearchScan.matchRead`, fewer when their text
    /// passes 1 MiB or the search's `cards` leaves fewer to give. Each batch begins as a request does (hand changes taken in, R13) and reads
    /// each card as it is now: a card deleted or damaged since the search began is left out,
    /// one moved is given at its new level (unless the search is of one level it left), and a
    /// side changed so that it no longer matches gives no line. A search whose build gave up
    /// under it is begun again first (`SearchScan.resume`), and reads no card in that call.
    /// - Throws: `storeFailure` when the store cannot be read; when the search's build gave up in
    ///   this very box (it is closing: the daemon stopping).
    public func readCards(of scan: inout SearchScan, upTo count: Int) throws(BoxError) {
        _ = try begin()
        if let (left, _) = scan.leftBuild {
            // Given up in this box: it is closing. Given up in a box this one replaced (a
            // reload): the search goes on here.
            if left === searchBuild {
                throw .storeFailure(path: store.root, reason: "the search index's build stopped before it read every card: the box is closing")
            }
            if let build = beginBuild(.search) { scan.resume(building: build) } else { scan.resume(index: try currentSearchIndex()) }
            scan.keep([])
            return
        }
        if scan.awaitsIndex {
            // A search that joined the daemon's build, its pieces all found in: the index,
            // installed and brought up to date, is searched for the cards not read yet (off the
            // turn, `find`), whose lines come after the others.
            scan.resume(index: try currentSearchIndex())
            scan.keep([])
            return
        }
        var read: [SearchScan.ReadCard] = []
        var bytes = 0
        let count = scan.batchSize(upTo: count)
        while bytes < 1 << 20, read.count < count, scan.remaining != 0, let hit = scan.nextHits(upTo: 1).first {
            guard let level = store.level(of: hit.id), scan.only == nil || level == scan.only,
                  !store.isDamaged(hit.id),
                  let card = try? store.card(hit.id, withText: true) else { continue }
            bytes += (card.front.text?.utf8.count ?? 0) + (card.back.text?.utf8.count ?? 0)
            read.append(SearchScan.ReadCard(hit: hit, level: level, card: card))
        }
        scan.keep(read)
    }

    /// Begins the search index's build off the turn, as the daemon opens the box, when the store
    /// was searched before: its file (`SearchIndexFile`) is there. The first search then finds
    /// the index built, or joins the build (`startSearch`), where it began the build and waited
    /// at least for every card before its own: 2 s at 100,000 cards for a card of level 2
    /// (docs/performance.md, "The first search after a start, the index built ahead"). A store
    /// never searched is not read for it (docs/daemon.md, "Indexes built off the turn").
    public func buildSearchIndexAhead() {
        guard options.buildsIndexesApart, searchIndex == nil, searchBuild == nil,
              FileSystem.exists(SearchIndexFile.fileName, in: store.stateFD) else { return }
        _ = beginBuild(.search, ahead: true)
    }

    /// Tells the views (the search index, the tag table) to read a card again: its content
    /// changed, its level did not (the store publishes level changes itself).
    func searchIndexNeedsReading(_ id: String) {
        store.publishWritten(id)
    }
}

extension Box {
    /// What the box has to say to its log, each thing once: that the inotify watches ran out
    /// (the views then look at the unwatched cards' files' times before each use; a person can
    /// raise the kernel's limit). The daemon writes them to its journal after each call.
    public func takeWarnings() -> [String] {
        guard let ranOut = store.takeWatchesRunOut() else { return [] }
        let (held, limit) = ranOut
        let kernel = "fs.inotify.max_user_watches is " + (Inotify.userLimit().map { "\($0)" } ?? "unknown")
        let why = held < limit ? "the kernel refused another: the user's other programs hold the rest"
            : options.watchLimit != nil ? "WatchLimit= is \(limit)"
            : "the box takes at most three quarters of it, \(limit)"
        return ["inotify watches ran out at \(held) (\(kernel); \(why)): the card directories without one are looked at "
                + "by their files' times before each search and each filter by tag instead, slower as they are more; "
                + "raise " + (options.watchLimit != nil && held >= limit ? "WatchLimit=" : "fs.inotify.max_user_watches (sysctl)")
                + " to watch every card"]
    }
}
