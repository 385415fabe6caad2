/// A note renamed or deleted (R30), as a card and its reverse cards are (R28): `Rename` and
/// `Delete` of an id that names no card but a note in `notes/`.
extension Box {
    /// Renames the note `id` to `newID`: its cards keep their ids, levels and histories, and
    /// their `cloze-of` names `newID` from the same durable change on, each logged as an `edit`.
    /// - Returns: the note's first card (by number) that shows it, as it is now.
    /// - Throws: `invalidParameter` when a note `newID` exists; `storeFailure` when the note has
    ///   no card to answer with (its text unreadable, no card made yet) or cannot be renamed.
    func renameNote(_ id: String, to newID: String, _ moment: Moment) throws(BoxError) -> Card {
        let cards = noteCards(id)
        // The reply's card: the first that shows the note now, so shows it renamed too.
        guard case .success(let read) = store.readNote(id), let first = cards.first(where: { read.text.numbers.contains($0.number) }) else {
            throw .storeFailure(path: store.notePath(id),
                                reason: "the note has no card that shows it (its text unreadable, or no card made yet); rename its directory by hand")
        }
        guard newID != id else { return try store.card(first.id, withText: true) }
        try store.renameNote(id, to: newID, cards: cards, journal: cards.map {
            LogEntry(time: moment.now, event: .edit, id: $0.id, from: $0.level, to: $0.level)
        })
        for card in cards {
            searchIndexNeedsReading(card.id)
            if lastShown?.id == card.id { lastShown = nil }
        }
        frontIndex = nil
        followNotes(moment)
        return try store.card(first.id, withText: true)
    }

    /// Deletes the note `id` and, unless `keepCards`, its cards with it, in one durable change,
    /// each card logged as a `delete`. Kept cards are damaged from then on (their note is gone):
    /// out of the tests, reported by `doctor`.
    /// - Returns: the note's cards: deleted, or kept.
    func deleteNote(_ id: String, keepCards: Bool, _ moment: Moment) throws(BoxError) -> [String] {
        let cards = noteCards(id)
        let doomed: [(id: String, level: Level)] = keepCards ? [] : cards.map { ($0.id, $0.level) }
        try store.removeNote(id, cards: doomed, journal: doomed.map { LogEntry(time: moment.now, event: .delete, id: $0.id, from: $0.level) })
        for card in cards {
            if lastShown?.id == card.id { lastShown = nil }
            // Deleted, or damaged now (R21): out of the open test either way.
            if tracksMembership, daily.contains(card.id), store.level(of: card.id) == nil || store.damage(of: card.id) != nil {
                daily.levelChanged(card.id, to: nil)
            }
        }
        frontIndex = nil
        followNotes(moment)
        if daily.isDone { try complete(moment) }
        return cards.map(\.id)
    }

    /// The cards of the note `note` (R30) with their levels and numbers, in the order of their numbers.
    func noteCards(_ note: String) -> [(id: String, level: Level, number: Int)] {
        var found: [(id: String, level: Level, number: Int)] = []
        for (id, number) in currentLinkIndex().cards(ofNote: note, store: store) {
            if let level = store.level(of: id) { found.append((id, level, number)) }
        }
        return found.sorted { ($0.number, $0.id) < ($1.number, $1.id) }
    }

    /// Refuses to delete a cloze card whose number its note still holds: the next request would
    /// add it again (R30), with a fresh schedule. The note is what to edit, or to delete whole.
    func refuseDeletingHeldClozeCard(_ id: String, in level: Level) throws(BoxError) {
        guard case .cloze(let link)? = store.link(of: id, in: level),
              case .success(let note) = store.readNote(link.note), note.text.numbers.contains(link.number) else { return }
        // Another card of the same number (a copy a sync tool or a hand made) keeps it held.
        if currentLinkIndex().cards(ofNote: link.note, store: store).contains(where: { $0.id != id && $0.number == link.number }) { return }
        throw .storeFailure(path: store.path(of: id, in: level), reason:
            "'\(id)' is cloze \(link.number) of the note '\(link.note)', whose text still holds {{c\(link.number)::…}}: deleted, it would come back at the next request; "
            + "edit the note to take the deletion out (leitnerctl edit \(id)), or delete the whole note (leitnerctl delete \(link.note))")
    }
}
