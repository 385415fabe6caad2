/// `AddCloze`: a cloze note and its cards (R30).
extension Box {
    /// Puts the note `text` into `notes/` (as `id`, or an id from its text) and adds one card
    /// per deletion number, `ID.cN`, each logged as an `add`: into `level` when one is named,
    /// else where a new card goes (R23: `new/`, or level 1 while today's admissions allow), in
    /// the order of their numbers. The note is in place first, so that a crash before the cards
    /// leaves a note whose cards the next request adds, never cards without their note.
    /// - Throws: `invalidParameter` when the text has no deletion or the note exists;
    ///   `cardExists` when a card's id is taken (nothing is added); `invalidCardId`, `invalidLevel`.
    public func addCloze(text: String, id: String?, level: String?, extra: String? = nil,
                         tags: [String] = []) throws(BoxError) -> [Card] {
        let parsed = ClozeText(parsing: text)
        guard !parsed.numbers.isEmpty else {
            throw .invalidParameter(name: "text", reason: "no deletion {{c1::…}} in it")
        }
        let named = try level.map { (name) throws(BoxError) in try Box.level(named: name) }
        if let id { try CardID.validate(id) }
        for tag in tags { try CardTag.validate(tag) }
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
        try store.putNote(noteID, text: text, extra: extra, tags: tags)
        return try addClozeCards(cardIDs, of: noteID, level: named, tags: tags, moment)
    }

    /// Stages and commits the cards `cards` of note `note` in one journaled change.
    func addClozeCards(_ cards: [(id: String, number: Int)], of note: String, level: Level?, tags: [String],
                       _ moment: Moment) throws(BoxError) -> [Card] {
        var room = try admissionRoom(moment)
        var staged: [Store.StagedCard] = []
        var journal: [LogEntry] = []
        for (cardID, number) in cards {
            let (target, origin): (Level, LogOrigin?)
            if let level { (target, origin) = (level, nil) } else { (target, origin) = try newCardTarget(moment, room: &room) }
            do {
                staged.append(try store.stageLinkCard(cardID, file: (Store.clozeFileName, Store.clozeFileText(ClozeOf(note: note, number: number))),
                                                      level: target, tags: tags, synced: true))
            } catch {
                store.discardStaged(staged)
                throw error
            }
            journal.append(LogEntry(time: moment.now, event: .add, id: cardID, to: target, origin: origin))
        }
        try store.commitStagedCards(staged, journal: journal)
        if tracksMembership { for card in staged { daily.levelChanged(card.id, to: card.level) } }
        var added: [Card] = []
        for card in staged { added.append(try store.card(card.id, withText: true)) }
        return added
    }
}
