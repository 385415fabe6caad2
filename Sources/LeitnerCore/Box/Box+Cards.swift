/// The cards' requests: `Add`, `Move`, `Delete`, `Show`, `List`, `ReadAsset`, `Doctor`.
extension Box {
    /// The largest asset `Add` takes.
    public static let maxAssetSize = 64 << 20

    /// Adds a card (R1: to `new/` unless a level is named, R23; R20: a valid, unused id). Without an
    /// id, one is made from the front's text, or the back's when the front is not text. With `allowDuplicateFront` false, a text front that
    /// another card already has is refused with `duplicateFront`.
    public func add(front: Asset, back: Asset, id: String?, level: String?,
                    allowDuplicateFront: Bool = true) throws(BoxError) -> Card {
        try add(front: front, back: back, id: id, level: level, allowDuplicateFront: allowDuplicateFront, withReverse: false).card
    }

    /// `add`, and with `withReverse` its reverse card too (R28): `ID.rev`, beside the card in the
    /// same level or place, added in the same durable change — both or neither. Without a level
    /// both wait in `new/` (R23), or both go into level 1 as admissions when today's room takes
    /// the two. The reverse's id taken is `cardExists`, and nothing is added. With `typeAnswer`
    /// each gets a `type-answer` file (R32), written and synced with its sides before the card
    /// is renamed into place. `media` are put in the card's directory beside its sides, in the
    /// same change (R31). `tags` are written with the card, and with its reverse (R25, R28: a
    /// reverse's tags are its own, the card's to begin with), in the same change: no `Tag` after.
    /// - Throws: `invalidTag` (nothing added) for a tag `Tag` would refuse.
    public func add(front: Asset, back: Asset, id: String?, level: String?, allowDuplicateFront: Bool,
                    withReverse: Bool, typeAnswer: Bool = false, media: [Asset] = [],
                    tags: [String] = []) throws(BoxError) -> (card: Card, reverse: Card?) {
        let frontFile = try Box.fileName(for: front, side: .front)
        let backFile = try Box.fileName(for: back, side: .back)
        try Box.validateMedia(media)
        for tag in tags { try CardTag.validate(tag) }
        // Each once, in the order given, as `Tag` would leave them.
        var seen = Set<String>()
        let tags = tags.filter { seen.insert($0).inserted }
        let named = try level.map { (name) throws(BoxError) in try Box.level(named: name) }
        if let id { try CardID.validate(id) }
        let moment = try begin()
        var room = try admissionRoom(moment)
        let (target, origin): (Level, LogOrigin?)
        if let named {
            (target, origin) = (named, nil)
        } else if withReverse {
            // R28: the reverse goes beside its card, each taking an admission of its own.
            (target, origin) = try newPairTarget(moment, room: &room)
        } else {
            (target, origin) = try newCardTarget(moment, room: &room)
        }
        let frontText = MediaType.isText(MediaType.of(fileName: frontFile))
            ? String(decoding: front.content, as: UTF8.self) : nil
        if !allowDuplicateFront, let text = frontText, let existing = try frontTexts()[Box.normalized(text)] {
            throw .duplicateFront(id: existing)
        }
        // A front that is not text (an image, a sound) has no words: the back's, when it is
        // text, name the card (a picture and its caption) rather than `card-N`.
        let backText = MediaType.isText(MediaType.of(fileName: backFile))
            ? String(decoding: back.content, as: UTF8.self) : nil
        let cardID: String
        if let id { cardID = id } else { cardID = makeID(from: frontText ?? backText) }
        if store.level(of: cardID) != nil { throw .cardExists(id: cardID) }
        var reverseID: String?
        if withReverse { reverseID = try Box.reverseID(of: cardID) }
        if let reverseID, store.level(of: reverseID) != nil { throw .cardExists(id: reverseID) }
        let tagFiles: [(name: String, bytes: [UInt8])] = tags.isEmpty ? [] : [(CardTag.fileName, Array(CardTag.fileText(tags).utf8))]
        try store.stageCard(cardID, front: (frontFile, front.content), back: (backFile, back.content), typeAnswer: typeAnswer,
                            media: tagFiles + media.map { ($0.name, $0.content) })
        var staged = [Store.StagedCard(staged: "add-" + cardID, id: cardID, level: target)]
        var journal = [LogEntry(time: moment.now, event: .add, id: cardID, to: target, origin: origin)]
        if let reverseID {
            do {
                staged.append(try store.stageReverse(reverseID, of: cardID, level: target, tags: tags, typeAnswer: typeAnswer, synced: true))
            } catch {
                store.discardStaged(staged)
                throw error
            }
            journal.append(LogEntry(time: moment.now, event: .add, id: reverseID, to: target, origin: origin))
        }
        try store.commitStagedCards(staged, journal: journal)
        if let text = frontText { frontIndex?[Box.normalized(text)] = cardID }
        if tracksMembership { for card in staged { daily.levelChanged(card.id, to: target) } }
        return (try store.card(cardID, withText: true), try reverseID.map { (id) throws(BoxError) in try store.card(id, withText: true) })
    }

    /// Moves a card to a level by hand (R12): its id stays, it is not a grade; a move to its own
    /// level changes nothing (but for a card in two levels, docs/sync.md). The open test takes it
    /// in by R8.
    /// - Throws: `storeFailure` naming the card when it is damaged (R21: it is never touched),
    ///   or when the move cannot be made; nothing is changed or logged then (R16).
    public func move(id: String, level: String) throws(BoxError) -> Card {
        try CardID.validate(id)
        let target = try Box.level(named: level)
        let moment = try awaitTransit(try begin()) { hasArrived(id) }
        guard let from = store.level(of: id) else { throw .noSuchCard(id: id) }
        // Read first: a damaged card is refused before anything is written.
        let card = try store.card(id, withText: true)
        let line = LogEntry(time: moment.now, event: .move, id: id, from: from, to: target)
        guard from != target else {
            // A card a sync left in two levels, moved to the level of the copy served: nothing
            // to rename, but the learner's word on where it is, the newest event, is logged, so
            // that the settling keeps this copy (docs/sync.md).
            if store.hasCopies(id) { try store.appendToLog([line], durable: true) }
            return card
        }
        try moveServedCard(id, from: from, to: target, journal: [line])
        if lastShown?.id == id { lastShown = nil }
        if tracksMembership { daily.levelChanged(id, to: target) }
        if daily.isDone { try complete(moment) }
        return store.relocated(card, to: target)
    }

    /// Deletes a card. A damaged card is deleted too: the user asked for it by name.
    public func delete(id: String) throws(BoxError) {
        _ = try delete(id: id, keepReverses: false)
    }

    /// Deletes a card and, unless `keepReverses`, its reverse cards with it (R28), in one durable
    /// change, each logged as a `delete`. Kept reverses are dangling from then on: damaged (R21),
    /// out of the tests, and reported by `doctor`. An id that names no card but a note (R30)
    /// deletes the note and its cards so (`deleteNote`). A cloze card whose number its note still
    /// holds is refused: it would come back at the next request.
    /// - Returns: the card's reverses (a note's cards): deleted, or kept and dangling.
    public func delete(id: String, keepReverses: Bool) throws(BoxError) -> [String] {
        try CardID.validate(id)
        let moment = try begin()
        guard let from = store.level(of: id) else {
            if store.hasNote(id) { return try deleteNote(id, keepCards: keepReverses, moment) }
            throw .noSuchCard(id: id)
        }
        try refuseDeletingHeldClozeCard(id, in: from)
        let reverses = reverses(of: id)
        var doomed = [(id: id, level: from)]
        if !keepReverses {
            for reverse in reverses { if let level = store.level(of: reverse) { doomed.append((reverse, level)) } }
        }
        try store.removeCards(doomed, journal: doomed.map { LogEntry(time: moment.now, event: .delete, id: $0.id, from: $0.level) })
        for card in doomed {
            if lastShown?.id == card.id { lastShown = nil }
            frontIndex = frontIndex?.filter { $0.value != card.id }
            if tracksMembership { daily.levelChanged(card.id, to: nil) }
        }
        if keepReverses {
            // Damaged now (R21): out of the open test until mended.
            for reverse in reverses where store.damage(of: reverse) != nil {
                if tracksMembership, daily.contains(reverse) { daily.levelChanged(reverse, to: nil) }
            }
        }
        if daily.isDone { try complete(moment) }
        return reverses
    }

    /// One card, its text sides filled.
    /// - Throws: `noSuchCard`; `storeFailure` naming the directory when the card is damaged (R21).
    public func show(id: String) throws(BoxError) -> Card {
        try CardID.validate(id)
        try awaitTransit(try begin()) { hasArrived(id) }
        return try store.card(id, withText: true)
    }

    /// The cards of one level, or of all, sorted by level then id; text filled only when
    /// `withText`. Damaged cards are left out (R21; `doctor` lists them).
    public func list(level: String?, withText: Bool, filter: TagFilter = .all) throws(BoxError) -> [Card] {
        var listing = try startListing(level: level, withText: withText, filter: filter)
        var cards: [Card] = []
        while !listing.isFinished { cards += try nextCards(of: &listing, upTo: 1024) }
        return cards
    }

    /// Begins a listing (`list`) to be read a batch at a time: takes the ids of the cards to
    /// list, in order, from the index as it is now; with a filter, only the cards it selects by
    /// their tags (R25), found in the search index, not by reading 100,000 `tags` files.
    /// - Parameters:
    ///   - after: only the cards after this position in the listing's order (a page's last
    ///     card: the next page), whether a card is there or not.
    ///   - before: only the cards before it, read backwards: the nearest first (the page before).
    ///   - limit: at most this many cards (at least 1; above `Box.maxLimit`, that).
    ///   - duringBuild: with `BoxOptions.buildsIndexesApart`, a listing by tag from its first card
    ///     (no `after` or `before`) when there is no tag table and no build under way: begin the
    ///     build on a thread of its own and give the cards of each piece it reads while it reads
    ///     the next (`CardListing.takePiece`; a caller that waits for them off the turn: the
    ///     daemon's streamed reply), rather than after every card's `tags` was read. The listing
    ///     began the build, so the build's reads are of the store as the listing began or later
    ///     (R13); a card the build did not select that the filter selects once it is done (moved
    ///     while it read) comes after the others (`takeLateCards`).
    /// - Throws: `invalidLevel`; `invalidParameter` for a limit below 1, or both `after` and `before`.
    public func startListing(level: String?, withText: Bool, filter: TagFilter = .all, after: ListPosition? = nil,
                             before: ListPosition? = nil, limit: Int? = nil, duringBuild: Bool = false) throws(BoxError) -> CardListing {
        let only = try level.map { (name) throws(BoxError) in try Box.level(named: name) }
        if let limit, limit < 1 { throw .invalidParameter(name: "limit", reason: "expected 1 or more") }
        if after != nil, before != nil { throw .invalidParameter(name: "before", reason: "give after or before, not both") }
        // Each card away as the listing begins is waited for until it can be read where it
        // arrived, as `Show` waits for one: a folder back with one side of two is still on its way.
        let away = try begin()
        let awaited = Array(sync.inTransit.keys)
        try awaitTransit(away) { sync.inTransit.isEmpty && awaited.allSatisfy(hasArrived) }
        if duringBuild, !filter.isEmpty, after == nil, before == nil, let build = beginBuild(.tags) {
            return CardListing(building: build, only: only, withText: withText, filter: filter, limit: limit.map { min($0, Box.maxLimit) })
        }
        let index = store.cardLevels
        let selected = filter.isEmpty ? nil : try selectedEntries(filter, of: index)
        return CardListing(index: index, only: only, withText: withText, selected: selected?.entries,
                           selectedInOrder: selected?.inOrder ?? false,
                           filter: filter.isEmpty ? nil : filter, after: after, before: before,
                           limit: limit.map { min($0, Box.maxLimit) })
    }

    /// The next cards of a listing, reading at most `count` card directories. Each batch begins
    /// as a request does (hand changes taken in, R13), and reads each card where it is now: a
    /// card moved since the listing began is listed at its new level (unless the listing is of
    /// one level it left), one deleted or damaged is left out, one added is not listed.
    ///
    /// Without text, the cards are those of `nextOutlines`.
    public func nextCards(of listing: inout CardListing, upTo count: Int) throws(BoxError) -> [Card] {
        if !listing.withText {
            let outlines = try nextOutlines(of: &listing, upTo: count)
            return (0..<outlines.count).map(outlines.card(at:))
        }
        _ = try begin()
        try takeLateCards(of: &listing)
        var cards: [Card] = []
        for taken in 0..<count {
            guard let id = listing.nextID(batch: count - taken) else { break }
            guard let level = store.level(of: id), listing.only == nil || level == listing.only else { continue }
            guard let card = try? store.card(id, withText: listing.withText) else { continue }
            // The card as it is now: a tag taken off since the listing began leaves it out.
            if let filter = listing.filter, !filter.selects(card.tags) { continue }
            cards.append(card)
            listing.gave()
        }
        return cards
    }

    /// Before a batch of a listing that streamed the tag table's build: the build's next piece
    /// when the caller did not wait for it (the box's own callers; the daemon waits off the
    /// turn), and once the build is done, the cards to give after its own: those of the listing's
    /// first cards (and level) the build did not select and the filter selects now by the tag
    /// table, installed here — moved while the build read them, where it found no `tags`, or
    /// tagged since — each at its level now, by level then id, as a listing gives a card moved
    /// after it began. A filter that only leaves tags out selected every card whose `tags` the
    /// build did not find: none is left for after. A build that gave up under the listing in a box
    /// this one replaced (a reload), or whose pieces another call's install let go, leaves the
    /// listing's cards its pieces did not select to this box's tag table (`resumedCards`).
    /// - Throws: as `currentTagTable`; `storeFailure` when the build gave up in this very box (it
    ///   is closing: the daemon stopping).
    private func takeLateCards(of listing: inout CardListing) throws(BoxError) {
        listing.takePiece()
        guard listing.needsLateCards, let build = listing.build else { return }
        if listing.buildStopped {
            if build === tagBuild {
                throw .storeFailure(path: store.root, reason: "the tag table's build stopped before it read every card: the box is closing")
            }
            listing.giveLate(try resumedCards(of: listing))
            return
        }
        var late: [(level: Level, id: String, entry: UInt32)] = []
        if let filter = listing.filter, !filter.tags.isEmpty {
            for (id, tags) in try currentTagTable(readBy: build).tagsOf where filter.selects(tags) {
                guard let entry = listing.index.entryNumber(of: id), !listing.wasSelected(entry),
                      let was = listing.index.level(ofEntry: entry), listing.only == nil || was == listing.only,
                      let level = store.level(of: id) else { continue }
                late.append((level, id, entry))
            }
        }
        late.sort { ($0.level, $0.id) < ($1.level, $1.id) }
        listing.giveLate(late.map(\.entry))
    }

    /// The cards of a listing whose build gave up to give in this box: those of its first cards
    /// (and level) its pieces did not select that the filter selects now, by this box's tag
    /// table, each at its level now, by level then id. Every card is looked at, not only the
    /// tagged: a filter that only leaves tags out selects the cards without tags too.
    private func resumedCards(of listing: CardListing) throws(BoxError) -> [UInt32] {
        let table = try currentTagTable()
        var levels = [[UInt32]](repeating: [], count: Level.allCases.count)
        listing.index.forEachEntry { entry, was in
            guard !listing.wasSelected(entry), listing.only == nil || was == listing.only,
                  let level = listing.level(of: entry, in: store),
                  listing.filter?.selects(table.tags(of: listing.index.id(ofEntry: entry))) ?? true else { return }
            levels[level.rawValue - 1].append(entry)
        }
        return levels.flatMap { CardListing.sorted($0, in: listing.index) }
    }

    /// How many cards known to the outline table a listing's batch gives for each directory it
    /// may read: a tenth of a microsecond or so each, so that a batch holds the box about as
    /// long as one that reads, and a whole level goes in a turn or two rather than one turn per
    /// 256 cards.
    static let outlinesPerRead = 64

    /// The next cards of a listing without text, as `nextCards` gives them, from what the outline
    /// table learned of each when it was last read, unless it changed since (`OutlineTable`):
    /// only the cards it does not know are read, at most `count`, and a batch gives up to
    /// `outlinesPerRead` times `count` cards, as outlines, not `Card`s (`CardOutlines`).
    public func nextOutlines(of listing: inout CardListing, upTo count: Int) throws(BoxError) -> CardOutlines {
        precondition(!listing.withText, "a listing with text reads every card (nextCards)")
        _ = try begin()
        try takeLateCards(of: &listing)
        // Taken out while used: changed where it is kept, its arrays would be copied.
        var table = outlineTable ?? OutlineTable(store: store)
        outlineTable = nil
        defer { outlineTable = table }
        table.update(store: store)
        var outlines = CardOutlines(index: listing.index, levelDirectories: table.levelDirectories)
        var reads = 0
        while reads < count, outlines.count < count * Box.outlinesPerRead, let entry = listing.nextEntryNumber() {
            guard let level = listing.level(of: entry, in: store), listing.only == nil || level == listing.only else { continue }
            switch table.outline(ofEntry: entry, in: listing.index, at: level, store: store, reads: &reads) {
            case .damaged:
                continue
            case .sides(let front, let back, let tags):
                if let filter = listing.filter, !filter.selects(tags) { continue }
                outlines.append(entry: entry, of: listing.index, level: level, front: front, back: back, tags: tags)
            case .card(let card):
                if let filter = listing.filter, !filter.selects(card.tags) { continue }
                outlines.append(card: card)
            }
            listing.gave()
        }
        outlines.sideNames = table.names
        return outlines
    }

    /// The bytes of one asset of a card.
    public func readAsset(id: String, side: SideName) throws(BoxError) -> (name: String, data: [UInt8]) {
        try CardID.validate(id)
        _ = try begin()
        return try store.assetBytes(id, side: side, limit: options.maxAssetReply)
    }

    /// The bytes of one medium of a card's sides (R31), by the name its sides list it under.
    /// - Throws: `invalidAsset` when no side lists that name (a path, a file no side refers to).
    public func readMedium(id: String, name: String) throws(BoxError) -> (name: String, data: [UInt8]) {
        try CardID.validate(id)
        _ = try begin()
        return try store.mediumBytes(id, name: name, limit: options.maxAssetReply)
    }

    /// Every problem in the store: damaged cards (each card is looked at), loose halves,
    /// duplicates, links and stray entries (R14, R18, R21, R22), and what sync tools left
    /// (docs/sync.md). Changes nothing.
    public func doctor() throws(BoxError) -> [StoreProblem] {
        var scan = try startDoctor()
        var problems: [StoreProblem] = []
        while !scan.isFinished { problems += try nextProblems(of: &scan, upTo: 1024) }
        return problems
    }

    /// Begins a `doctor` to be carried out a batch at a time: takes the ids of the cards to
    /// look at from the index as it is now.
    public func startDoctor() throws(BoxError) -> DoctorScan {
        _ = try begin()
        return DoctorScan(index: store.cardLevels)
    }

    /// The next problems of a `doctor`: those of the next `count` cards (a card gone since is
    /// skipped), and once every card has been looked at, the damaged cards leave the open test
    /// (R21, R8) and the problems that are not about one card follow.
    public func nextProblems(of scan: inout DoctorScan, upTo count: Int) throws(BoxError) -> [StoreProblem] {
        let moment = try begin()
        var problems: [StoreProblem] = []
        if !scan.cardsDone {
            for id in scan.nextIDs(upTo: count) {
                guard let level = store.level(of: id) else { continue }
                // Reading the text finds git's conflict markers; the card's sync conflicts follow
                // its damage, if any.
                let wasDamaged = store.isDamaged(id)
                let examined = store.examine(id, readingText: true)
                let damage = examined?.damage
                defer { problems += store.syncConflictProblems(of: id) + (examined.map { store.tagProblems(of: id, read: $0.read) + store.mediaProblems(of: id, read: $0.read) } ?? []) }
                // What to do about it, when it is not the usual (a reverse card's, R28).
                var advice: String?
                if case .failure(let found)? = examined?.read.sides { advice = found.advice }
                guard let reason = damage else {
                    // Mended since this request began: it joins the test as at any request.
                    if wasDamaged { try apply(.appeared(id: id, level: level), now: moment.now, log: false) }
                    continue
                }
                if isInTransit(id) {
                    problems.append(StoreProblem(kind: .syncConflict, path: store.path(of: id, in: level),
                                                 reason: "in transit: a part of the card, delivered by a sync tool still at work (\(reason)); not damaged",
                                                 advice: "wait for the sync to finish; it is damaged only if it stays so once the store is quiet"))
                    continue
                }
                problems.append(StoreProblem(kind: .damagedCard, path: store.path(of: id, in: level),
                                             reason: reason,
                                             advice: advice ?? "give the card exactly one front.EXT and one back.EXT, readable"))
            }
            return problems
        }
        if tracksMembership {
            for id in store.damagedCards.keys where daily.contains(id) && !isInTransit(id) { daily.levelChanged(id, to: nil) }
            // R10: a graded test whose last cards were just found damaged is completed.
            if daily.isDone { try complete(moment) }
        }
        for (id, left) in sync.inTransit.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            problems.append(StoreProblem(kind: .syncConflict, path: store.path(of: id, in: left.level),
                                         reason: "in transit: card '\(id)' left level \(left.level.name) while a sync tool is at work, and has not arrived elsewhere yet; not deleted",
                                         advice: "wait for the sync to finish; if it is still gone once the store is quiet, it was deleted"))
        }
        problems += store.unusableLevels
        problems += openingProblems
        for (line, text) in try store.log.damagedLines() {
            problems.append(StoreProblem(kind: .damagedState, path: "\(store.log.path):\(line)",
                                         reason: "not a log line, left out of the history and the tests: '\(text)'",
                                         advice: "mend the line (TIME, EVENT, ID, FROM, TO, CORRECT, MS, tab-separated) or remove it"))
        }
        problems += store.strayProblems
        problems += store.rootProblems(fresh: true)
        problems += store.looseFileProblems()
        problems += store.sharedStateProblems()
        scan.isFinished = true
        return problems
    }

    // MARK: Helpers

    static func level(named name: String) throws(BoxError) -> Level {
        guard let level = Level(name: name) else { throw .invalidLevel(level: name) }
        return level
    }

    /// `front.EXT` / `back.EXT` from an asset's name, which gives the extension (docs/protocol.md).
    static func fileName(for asset: Asset, side: SideName) throws(BoxError) -> String {
        guard let ext = MediaType.fileExtension(asset.name) else {
            throw .invalidAsset(name: asset.name, reason: "the name has no extension (e.g. \(side.rawValue).txt)")
        }
        guard ext.utf8.count <= 16, ext.utf8.allSatisfy({ CardID.isAllowed($0) && $0 != UInt8(ascii: ".") }) else {
            throw .invalidAsset(name: asset.name, reason: "the extension must be 1 to 16 letters or digits")
        }
        if asset.content.count > maxAssetSize {
            throw .invalidAsset(name: asset.name, reason: "larger than \(maxAssetSize >> 20) MiB")
        }
        if MediaType.isText(MediaType.of(fileName: asset.name)) {
            guard let text = String(validating: asset.content, as: UTF8.self) else {
                throw .invalidAsset(name: asset.name, reason: "a text asset that is not UTF-8")
            }
            // A card with a blank side cannot be reviewed: refused, nothing written (add, edit).
            if text.allSatisfy(\.isWhitespace) {
                throw .invalidAsset(name: asset.name, reason: "the \(side.rawValue) is empty or only white space")
            }
        } else if asset.content.isEmpty {
            throw .invalidAsset(name: asset.name, reason: "the \(side.rawValue) is an empty file")
        }
        return "\(side.rawValue).\(ext.lowercased())"
    }

    /// Refuses the media of a new card (`Add`, `AddMany`) that R31 would not show: a name
    /// `checkMediumName` refuses, one given twice, or one too large.
    /// - Throws: `invalidAsset` naming the first refused.
    static func validateMedia(_ media: [Asset]) throws(BoxError) {
        var names: Set<String> = []
        for medium in media {
            try checkMediumName(medium.name)
            if !names.insert(medium.name).inserted { throw .invalidAsset(name: medium.name, reason: "given twice") }
            if medium.content.count > maxAssetSize { throw .invalidAsset(name: medium.name, reason: "larger than \(maxAssetSize >> 20) MiB") }
        }
    }

    /// Refuses a medium's name that R31 would not show: one `MediaName` refuses, neither a
    /// picture's nor a sound's, or a side's own (`front.png` would be taken for the side). The
    /// card's other files (`tags`, `type-answer`, `reverse-of`, `cloze-of`) have no picture's or
    /// sound's extension, so no medium can take their place.
    /// - Throws: `invalidAsset` naming it.
    static func checkMediumName(_ name: String) throws(BoxError) {
        if let problem = MediaName.problem(name) { throw .invalidAsset(name: name, reason: "the name \(problem)") }
        let mediaType = MediaType.of(fileName: name)
        guard MediaName.kind(ofMediaType: mediaType) != nil else {
            throw .invalidAsset(name: name, reason: "neither a picture nor a sound (\(mediaType))")
        }
        if let side = SideName.allCases.first(where: { Store.isSideFile(name, of: $0) }) {
            throw .invalidAsset(name: name, reason: "a side's name: the card's \(side.rawValue) is its own file")
        }
    }

    /// Front texts compare without surrounding white space: so a duplicate front is found
    /// (`allowDuplicate`, docs/protocol.md), by the box and by the AnkiConnect door, whose
    /// notes' first fields are the cards' fronts.
    public static func normalized(_ text: String) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    /// Text of every front → its card, read once and then kept current.
    func frontTexts() throws(BoxError) -> [String: String] {
        if let frontIndex { return frontIndex }
        var index: [String: String] = [:]
        for id in store.cardLevels.keys.sorted() {
            // A reverse card's front is another card's back (R28), not a front anyone wrote.
            guard let card = try? store.card(id, withText: true), card.reverseOf == nil, let text = card.front.text else { continue }
            index[Box.normalized(text)] = index[Box.normalized(text)] ?? id
        }
        frontIndex = index
        return index
    }

    /// An id from the front's text (R20): its words — letters, digits and marks of any script,
    /// lower-cased where the script has case — joined by `-` (`Hola, mundo` → `hola-mundo`,
    /// `猫` → `猫`, `café au lait` → `café-au-lait`), in NFC, or `card`; a number is added when
    /// it is taken.
    /// `reserved`: ids already chosen in the same batch, taken as well.
    func makeID(from text: String?, reserved: Set<String> = []) -> String {
        var slug = ""
        for scalar in CardID.composed(text ?? "").unicodeScalars {
            if scalar != ".", scalar != "_", scalar != "-", CardID.isAllowed(scalar) {
                if slug.utf8.count + 4 > 40, !scalar.properties.isGraphemeExtend {
                    // Cut at the last whole word (`…-code-one`, not `…-code-one-t`) when
                    // there is one; a text without spaces (Japanese) is cut where it is.
                    if let dash = slug.lastIndex(of: "-"), slug.last != "-" { slug = String(slug[..<dash]) }
                    break
                }
                slug.unicodeScalars.append(contentsOf: scalar.properties.changesWhenLowercased
                                           ? String(scalar).lowercased().unicodeScalars : String(scalar).unicodeScalars)
            } else if !slug.isEmpty, slug.last != "-" {
                slug.append("-")
            }
        }
        while slug.last == "-" { slug.removeLast() }
        slug = CardID.composed(slug)
        if !CardID.isValid(slug) { slug = "" }
        if slug.isEmpty { slug = "card" }
        func isTaken(_ id: String) -> Bool { store.level(of: id) != nil || reserved.contains(id) }
        if !isTaken(slug) { return slug }
        // Remember where the numbers of each stem left off: importing thousands of cards whose
        // fronts have no ASCII letters (kana) would otherwise probe from 2 every time.
        var number = idCounters[slug] ?? 2
        while isTaken("\(slug)-\(number)") { number += 1 }
        idCounters[slug] = number + 1
        return "\(slug)-\(number)"
    }
}
