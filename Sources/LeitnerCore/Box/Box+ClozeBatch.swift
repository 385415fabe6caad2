/// `AddClozes`: many cloze notes and their cards in one durable change (R30), as `AddMany` adds
/// many cards (docs/store-format.md, "Batches").
extension Box {
    /// Adds a batch of cloze notes, each as `addCloze` would (the same checks, the same ids),
    /// with every card of a note in its `cardLevels` level when one is named for its number,
    /// else in the note's `level`, else where a new card goes (R23). When it returns, every note
    /// added and all its cards are on disk and in place (R17); a crash leaves each note with all
    /// its cards or absent (R18). A note whose id is in `notes/`, or earlier in the batch, is
    /// reported present (its id named) and not added, so that the same batch sent again adds
    /// nothing; a note `addCloze` would refuse is reported refused with that error (among them a
    /// card's id taken by another card: `cardExists`). The others go in. Each card added is
    /// reported in `added` with its note's index.
    /// - Throws: `storeFailure` when the store cannot take the batch; nothing is added then (R16).
    public func addClozes(_ notes: [NewNote]) throws(BoxError) -> BatchOutcome {
        let moment = try begin()
        var outcome = BatchOutcome()
        var staged: [Store.StagedCard] = []
        var stagedNotes: [Store.StagedNote] = []
        var journal: [LogEntry] = []
        // The ids of this batch's notes and cards, which are not in the store until it is committed.
        var batchNotes = Set<String>()
        var batchCards = Set<String>()
        var room = try admissionRoom(moment)
        let batch = try store.makeBatchDirectory()
        defer { store.removeBatchDirectory(batch) }
        do {
            for (index, note) in notes.enumerated() {
                let parsed = ClozeText(parsing: note.text)
                var targets: [(id: String, number: Int, named: Level?)] = []
                let noteID: String
                do throws(BoxError) {
                    guard !parsed.numbers.isEmpty else {
                        throw .invalidParameter(name: "text", reason: "no deletion {{c1::…}} in it")
                    }
                    let named = try note.level.map { (name) throws(BoxError) in try Box.level(named: name) }
                    var levels: [Int: Level] = [:]
                    for (number, name) in note.cardLevels { levels[number] = try Box.level(named: name) }
                    if let id = note.id { try CardID.validate(id) }
                    for tag in note.tags { try CardTag.validate(tag) }
                    try Box.validateMedia(note.media)
                    noteID = note.id ?? makeID(from: parsed.answer(revealing: 0, markdown: false, extra: nil), reserved: batchNotes)
                    if store.hasNote(noteID) || batchNotes.contains(noteID) {
                        outcome.present.append(.init(index: index, id: noteID))
                        continue
                    }
                    for number in parsed.numbers {
                        guard let cardID = Store.defaultClozeID(note: noteID, number: number) else {
                            throw .invalidCardId(id: noteID + ".c\(number)", reason: "too long for a cloze card's id")
                        }
                        if store.level(of: cardID) != nil || batchCards.contains(cardID) { throw .cardExists(id: cardID) }
                        targets.append((cardID, number, levels[number] ?? named))
                    }
                } catch {
                    outcome.refused.append(.init(index: index, error: error))
                    continue
                }
                stagedNotes.append(try store.stageNote(noteID, text: note.text, extra: note.extra, tags: note.tags,
                                                       files: Store.typeAnswerFiles(note.typeAnswer) + note.media.map { (name: $0.name, bytes: $0.content) },
                                                       in: batch))
                batchNotes.insert(noteID)
                for (cardID, number, named) in targets {
                    let (target, origin): (Level, LogOrigin?)
                    if let named { (target, origin) = (named, nil) } else { (target, origin) = try newCardTarget(moment, room: &room) }
                    staged.append(try store.stageLinkCard(cardID, file: (Store.clozeFileName, Store.clozeFileText(ClozeOf(note: noteID, number: number))),
                                                          level: target, tags: note.tags, synced: false, in: batch))
                    journal.append(LogEntry(time: moment.now, event: .add, id: cardID, to: target, origin: origin))
                    batchCards.insert(cardID)
                    outcome.added.append(.init(index: index, id: cardID, level: target))
                }
            }
            try store.commitBatch(staged, notes: stagedNotes, journal: journal)
        } catch {
            store.discardStaged(staged)
            for note in stagedNotes { store.discardStaged(note: note) }
            throw error
        }
        if tracksMembership { for card in staged { daily.levelChanged(card.id, to: card.level) } }
        return outcome
    }
}
