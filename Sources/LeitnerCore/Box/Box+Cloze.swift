/// `AddCloze`: a cloze note and its cards (R30).
extension Box {
    /// Puts the note `text` into `notes/` (as `id`, or an id from its text) and adds one card
    /// per deletion number, `ID.cN`, each logged as an `add`: into `level` when one is named,
    /// else where a new card goes (R23: `new/`, or level 1 while today's admissions allow), in
    /// the order of their numbers. The note and its cards are put in place in one journaled
    /// change, the note first: a crash at any step leaves the note with all its cards, or
    /// nothing (R18).
    /// With `typeAnswer` the note gets a `type-answer` file (R32: each of its cards asks for
    /// its deletion typed), and `media` are put in the note's directory beside its text (R31:
    /// every card of the note shows them), written with the note.
    /// - Throws: `invalidParameter` when the text has no deletion or the note exists;
    ///   `cardExists` when a card's id is taken (nothing is added); `invalidCardId`, `invalidLevel`;
    ///   `invalidAsset` for a medium `Add` would refuse.
    public func addCloze(text: String, id: String?, level: String?, extra: String? = nil,
                         tags: [String] = [], typeAnswer: Bool = false, media: [Asset] = []) throws(BoxError) -> [Card] {
        let parsed = ClozeText(parsing: text)
        guard !parsed.numbers.isEmpty else {
            throw .invalidParameter(name: "text", reason: "no deletion {{c1::…}} in it")
        }
        let named = try level.map { (name) throws(BoxError) in try Box.level(named: name) }
        if let id { try CardID.validate(id) }
        for tag in tags { try CardTag.validate(tag) }
        try Box.validateMedia(media)
        let moment = try begin()
        let noteID = id ?? makeID(from: parsed.answer(revealing: 0, markdown: false, extra: nil))
        var cardIDs: [(String, Int)] = []
        for number in parsed.numbers {
            guard let cardID = Store.defaultClozeID(note: noteID, number: number) else {
                throw .invalidCardId(id: noteID + ".c\(number)", reason: "too long for a cloze card's id")
            }
            if store.level(of: cardID) != nil { throw .cardExists(id: cardID) }
            cardIDs.append((cardID, number))
        }
        let staged = try store.stageNote(noteID, text: text, extra: extra, tags: tags,
                                          files: Store.typeAnswerFiles(typeAnswer) + media.map { (name: $0.name, bytes: $0.content) })
        do {
            return try addClozeCards(cardIDs, of: noteID, level: named, tags: tags, moment, staged: staged)
        } catch {
            store.discardStaged(note: staged)
            throw error
        }
    }

    /// Stages and commits the cards `cards` of note `note` in one journaled change, with the
    /// note itself when it is `staged`, not yet in `notes/`. Each is logged with `origin` when it
    /// goes into the `level` named.
    func addClozeCards(_ cards: [(id: String, number: Int)], of note: String, level: Level?, tags: [String],
                       _ moment: Moment, staged stagedNote: Store.StagedNote? = nil, origin named: LogOrigin? = nil) throws(BoxError) -> [Card] {
        var room = try admissionRoom(moment)
        var staged: [Store.StagedCard] = []
        var journal: [LogEntry] = []
        for (cardID, number) in cards {
            let (target, origin): (Level, LogOrigin?)
            if let level { (target, origin) = (level, named) } else { (target, origin) = try newCardTarget(moment, room: &room) }
            do {
                staged.append(try store.stageLinkCard(cardID, file: (Store.clozeFileName, Store.clozeFileText(ClozeOf(note: note, number: number))),
                                                      level: target, tags: tags, synced: true))
            } catch {
                store.discardStaged(staged)
                throw error
            }
            journal.append(LogEntry(time: moment.now, event: .add, id: cardID, to: target, origin: origin))
        }
        try store.commitStagedCards(staged, journal: journal, note: stagedNote)
        if tracksMembership { for card in staged { daily.levelChanged(card.id, to: card.level) } }
        var added: [Card] = []
        for card in staged { added.append(try store.card(card.id, withText: true)) }
        return added
    }
}

/// R30: a note that gains a number — edited by hand, by `edit`, by a sync tool, or left
/// without its cards by a crash — gets that number's card at the next request.
extension Box {
    /// Brings the notes' index up to date and adds a card `NOTE.cN` for each number of a changed
    /// note that no card holds: into `new/` (level 1 when the box admits no new cards, R23),
    /// logged as an `add` each, with the note's tags. The cards of a note that changed are read
    /// again, so that one whose number is gone is damaged (R21) at once, out of the test.
    ///
    /// A note whose cards cannot be added now (a store that refuses writes) is tried again at the
    /// next request; the request itself goes on, since it did not ask for the cards.
    ///
    /// In a synced store, a note that came into `notes/` — by hand, or delivered by a sync tool,
    /// which brings a note added or renamed on another machine with its cards, in any order —
    /// gets the cards it lacks only once the store has been quiet for `settleAfter` (`waitingNotes`):
    /// added before, they would double the cards still on their way (docs/sync.md, "Cloze notes
    /// on two machines"). A note already here that gains a number gets its card at once, on each
    /// machine that sees the number: the same card, logged `origin=note`, given once in the merged
    /// history.
    func followNotes(_ moment: Moment) {
        var recordsNotes = false
        // A record behind the log is also written again when the first look built the link index
        // (a note renamed while the daemon was down, a card gone): it then names what was found,
        // and the next start, after a kill too, looks into no card directory.
        var recordBehind = false
        defer { if recordsNotes || (recordBehind && linkIndex != nil) { recordNotes() } }
        var changed = retryNotes
        var renames = retryRenames
        let firstLook = noteIndex == nil
        var arrived = Set<String>()
        // The notes the first look left to judge (nil: every note), with the ones carried over.
        var judging: Set<String>?
        if var kept = noteIndex {
            // Taken out while updated: updated where it is kept, its dictionaries would be copied.
            noteIndex = nil
            changed.formUnion(kept.update(store: store))
            renames += kept.takeRenames()
            arrived = kept.takeArrivals()
            noteIndex = kept
        } else {
            var (built, notes): (NoteIndex, Set<String>)
            var looked = noteLook?.take(store: store)
            if let lost = looked, store.isLost(lost.index.cursor) {
                // More changes since the open than the feed keeps (a large delivery taken in at
                // the open): the look is dropped, and made here with the record, as before.
                store.closeCursor(lost.index.cursor)
                looked = nil
            }
            if let looked {
                // Made on the look's thread from the open on: the notes changed since their look
                // (an event of their watch, a write of the box) are read again now.
                (built, notes) = (looked.index, looked.notes)
                notes.formUnion(built.update(store: store))
                renames += built.takeRenames()
                judging = built.takeJudgedAtLook()?.union(changed)
            } else {
                (built, notes) = NoteIndex.build(store: store, record: noteRecord)
            }
            noteLook = nil
            // Recorded again once the first look is done when it read notes: the next start,
            // after a kill too, reads none. A record behind the log (a daemon killed) is written
            // again when it left out a holder or is far behind; a few lines behind, it serves the
            // next start as a new one would, and its writing is spared the first request's turn.
            let behind = noteRecord.map { $0.isCurrent ? 0 : store.log.size - $0.logSize } ?? 0
            recordsNotes = !notes.isEmpty
                && (built.notesRead > 0 || noteRecord?.leftOutHolders == true || behind > NoteRecord.rewriteBehind)
            recordBehind = !notes.isEmpty && behind > 0
            noteRecord = nil
            noteIndex = built
            changed.formUnion(notes)
            arrived = notes
        }
        retryNotes = []
        retryRenames = []
        // The notes waiting for the store to be quiet are looked at again; only a changed note's
        // cards are read again for the views.
        let looked = changed
        changed.formUnion(waitingNotes)
        judging?.formUnion(waitingNotes)
        guard !changed.isEmpty || !renames.isEmpty, let index = noteIndex else { return }
        if firstLook {
            // At the first look after open, a note whose numbers are held by cards of their default
            // ids, or by the cards the last close recorded, needs no more: its cards are judged as
            // they are read. Only a note that lacks one, or that changed, looks for its cards in
            // the link index (every card directory, once); one that has none of them may be a
            // note renamed while the daemon was down. The look judged every note on its thread
            // against the store's index as the open left it: only those it found lacking, and
            // those changed since, are judged again, unless a card has left the store since.
            var cardless = Set<String>()
            changed = (judging ?? changed).filter { note in
                let numbers = index.numbersOf[note] ?? []
                let held = numbers.count(where: {
                    NoteIndex.firstLookHolder(of: note, number: $0, recorded: index.recordedHolders[note], level: store.level(of:)) != nil
                })
                if held == 0, !numbers.isEmpty { cardless.insert(note) }
                return held < numbers.count
            }
            renames += renamedWhileClosed(cardless, index: index)
        }
        // A note renamed by hand takes its cards along (as `rename` does) before anything counts
        // it as a note without cards.
        var waiting = Set<String>()
        for rename in renames {
            if followRename(rename, moment) { continue }
            retryRenames.append(rename)
            waiting.insert(rename.to)
        }
        for note in changed.sorted() where !waiting.contains(note) {
            let numbers = index.numbersOf[note] ?? []
            var held: [Int: String] = [:]
            for (id, number) in currentLinkIndex().cards(ofNote: note, store: store) {
                held[number] = id
                guard looked.contains(note) else { continue }
                // Its sides are the note's text: the views read it again (a listing without text
                // its soundness, the search index its text).
                store.publishWritten(id)
                // One whose number is gone is damaged now: out of the open test until mended.
                if store.damage(of: id) != nil, tracksMembership, daily.contains(id) { daily.levelChanged(id, to: nil) }
            }
            var missing: [(id: String, number: Int)] = []
            for number in numbers where held[number] == nil {
                if let id = Store.defaultClozeID(note: note, number: number), store.level(of: id) == nil { missing.append((id, number)) }
            }
            guard !missing.isEmpty else {
                waitingNotes.remove(note)
                continue
            }
            if isSynced, arrived.contains(note) || waitingNotes.contains(note), !noteIsQuiet(note, cards: held.values) {
                waitingNotes.insert(note)
                continue
            }
            waitingNotes.remove(note)
            do {
                var room: Int? = 0
                let target = try newCardTarget(moment, room: &room).level
                _ = try addClozeCards(missing, of: note, level: target, tags: store.noteTags(note), moment, origin: .note)
            } catch {
                retryNotes.insert(note)
            }
        }
    }
}

/// A note renamed by hand (R30): its cards follow it, as they follow `rename` of it.
extension Box {
    /// Rewrites the `cloze-of` of the cards of `rename.from` to name `rename.to`, whose directory
    /// the note is now, each logged as an `edit`.
    /// - Returns: false when the store refused the change (tried again at the next request).
    func followRename(_ rename: (from: String, to: String), _ moment: Moment) -> Bool {
        let cards = noteCards(rename.from)
        guard !cards.isEmpty else { return true }
        do {
            try store.renameNote(rename.from, to: rename.to, cards: cards, journal: cards.map {
                LogEntry(time: moment.now, event: .edit, id: $0.id, from: $0.level, to: $0.level)
            }, moved: true)
        } catch {
            return false
        }
        for card in cards {
            searchIndexNeedsReading(card.id)
            if lastShown?.id == card.id { lastShown = nil }
        }
        return true
    }

    /// At the first look after open, the notes renamed while the daemon was not watching: a note
    /// with none of its cards whose numbers are exactly those of the cards of a note gone from
    /// `notes/`, when no other note without cards has those numbers and no other gone note has
    /// those cards' numbers. Anything less certain is left as it is: the gone note's cards
    /// damaged, the new note given cards of its own.
    /// - Parameter cardless: the notes with numbers and none of their default or recorded cards:
    ///   only such a note can be one, and the link index is read for them only.
    func renamedWhileClosed(_ cardless: Set<String>, index: NoteIndex) -> [(from: String, to: String)] {
        guard !cardless.isEmpty else { return [] }
        var numbersOfGone: [String: Set<Int>] = [:]
        var holding = Set<String>()
        for (_, link) in currentLinkIndex().clozeLinks(store: store) {
            holding.insert(link.note)
            if index.numbersOf[link.note] == nil, !store.hasNote(link.note) { numbersOfGone[link.note, default: []].insert(link.number) }
        }
        guard !numbersOfGone.isEmpty else { return [] }
        let candidates = cardless.filter { !holding.contains($0) }
        var found: [(from: String, to: String)] = []
        for note in candidates.sorted() {
            let numbers = Set(index.numbersOf[note] ?? [])
            let gone = numbersOfGone.filter { $0.value == numbers }.map(\.key)
            guard gone.count == 1, candidates.filter({ Set(index.numbersOf[$0] ?? []) == numbers }).count == 1 else { continue }
            found.append((gone[0], note))
        }
        return found
    }
}

/// The notes' record (`NoteRecord`): written at close, read by the next open's first look.
extension Box {
    /// Records each note known with a stamp, its numbers and the cards of other names that hold
    /// them (from the link index when there is one, else as recorded at open), for the next open.
    /// Without a notes' index (no request since open) nothing is written: the old record stands,
    /// and the log's lines since it tell what the daemon changed.
    func recordNotes() {
        guard let index = noteIndex else { return }
        var held: [String: [Int: String]] = [:]
        if linkIndex != nil {
            // Of two cards holding one number (a copy), the first by id, whatever the walk's order.
            for (id, link) in currentLinkIndex().clozeLinks(store: store) {
                if let other = held[link.note]?[link.number], other < id { continue }
                held[link.note, default: [:]][link.number] = id
            }
        }
        var entries: [String: NoteRecord.Entry] = [:]
        for (note, numbers) in index.numbersOf {
            guard let stamp = index.stamps[note] else { continue }
            var holders: [Int: String] = [:]
            for number in numbers {
                if let id = Store.defaultClozeID(note: note, number: number), store.level(of: id) != nil { continue }
                if linkIndex != nil {
                    if let id = held[note]?[number] { holders[number] = id }
                } else if let id = index.recordedHolders[note]?[number], store.level(of: id) != nil {
                    holders[number] = id
                }
            }
            entries[note] = NoteRecord.Entry(stamp: stamp, numbers: numbers, holders: holders)
        }
        try? NoteRecord(logSize: store.log.size, entries: entries).write(store: store)
    }
}
