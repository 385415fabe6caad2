import LeitnerSystem

/// Practice outside the schedule (R27): `PracticeCards` picks cards by tag, level, text and
/// recent wrong answers; `Practice` records an answer, which moves nothing and is no part of
/// any test, its completion or its undo: one `practice` line in the review log (R16).
extension Box {
    /// The cards of a practice session, with their text: found in the tag table and the store's
    /// index (tags, level), the search index when text is asked for, and the review log's totals
    /// (wrong answers), never by reading every card. Damaged
    /// cards are left out (R21).
    /// - Throws: `invalidParameter` for a limit or a window out of range; `storeFailure` when the
    ///   log cannot be read.
    public func practiceCards(_ selection: PracticeSelection) throws(BoxError) -> [Card] {
        let limit = selection.limit ?? PracticeSelection.defaultLimit
        guard (1...PracticeSelection.maxLimit).contains(limit) else {
            throw .invalidParameter(name: "limit", reason: "must be 1 to \(PracticeSelection.maxLimit)")
        }
        if let days = selection.wrongDays, !(1...PracticeSelection.maxWrongDays).contains(days) {
            throw .invalidParameter(name: "wrongDays", reason: "must be 1 to \(PracticeSelection.maxWrongDays)")
        }
        let moment = try begin()
        var wrong: Set<String>?
        if let days = selection.wrongDays {
            try updateTally()
            try updatePeerTotals(tallies: true, graded: false)
            let first = Int32(truncatingIfNeeded: moment.today.ordinal - days + 1)
            var ids = Set<String>()
            for tally in [statistics.tally] + Array(statistics.peerTallies.values) {
                for (id, dates) in tally.failures where dates.contains(where: { $0 >= first }) { ids.insert(id) }
                for (id, dates) in tally.practiceFailures where dates.contains(where: { $0 >= first }) { ids.insert(id) }
            }
            wrong = ids
        }
        let levels = Set((selection.levels ?? []).map { UInt8($0.rawValue) })
        var found: [(level: UInt8, id: String)] = []
        if let pattern = selection.pattern {
            // Text to match: the search index holds every card's folded text (and its tags).
            try currentSearchIndex().forEach { parts in
                guard levels.isEmpty || levels.contains(parts.slot.level) else { return }
                guard selection.filter.isEmpty || selection.filter.selects(parts.eachTag) else { return }
                if !pattern.matches(folded: parts.foldedID), !pattern.matches(folded: parts.front), !pattern.matches(folded: parts.back) {
                    return
                }
                let id = String(decoding: parts.id, as: UTF8.self)
                if let wrong, !wrong.contains(id) { return }
                if !store.isDamaged(id) { found.append((parts.slot.level, id)) }
            }
        } else {
            // No text: the tag table and the store's index answer, with no side read.
            let selected = selection.filter.isEmpty ? nil : try selectedIDs(selection.filter)
            for (id, level) in store.cardLevels {
                let raw = UInt8(level.rawValue)
                guard levels.isEmpty || levels.contains(raw), selected?.contains(id) != false,
                      wrong?.contains(id) != false, !store.isDamaged(id) else { continue }
                found.append((raw, id))
            }
        }
        if selection.shuffle {
            var generator = SeededGenerator(seed: UInt64(bitPattern: RealTime.nanoseconds))
            found.shuffle(using: &generator)
        } else {
            found.sort { $0.level != $1.level ? $0.level < $1.level : $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        }
        var cards: [Card] = []
        for hit in found {
            guard cards.count < limit else { break }
            if let card = try? store.card(hit.id, withText: true) { cards.append(card) }
        }
        return cards
    }

    /// Records a practice answer (R27): the card stays where it is, the open test is untouched,
    /// and one `practice` line is logged, durable before the reply. `answerMs` is bounded as a
    /// grade's is.
    /// - Throws: `invalidCardId`, `noSuchCard`, `storeFailure` for a damaged card or a log that
    ///   cannot be written.
    public func practice(id: String, correct: Bool, answerMs: Int?) throws(BoxError) -> Card {
        try CardID.validate(id)
        let moment = try begin()
        guard let level = store.level(of: id) else { throw .noSuchCard(id: id) }
        // A damaged card is refused (R21): practice of a card that cannot be shown is no answer.
        let card = try store.card(id, withText: true)
        try store.appendToLog([LogEntry(time: moment.now, event: .practice, id: id, from: level, to: level, correct: correct,
                                        answerMs: answerMs.map { min(max(0, $0), Box.maxAnswerMs) })], durable: true)
        return card
    }
}
