/// R11: a card and its siblings are not shown one right after the other while the queue holds
/// another card. Siblings ask one thing two ways: a card and its reverse cards (R28), two
/// reverses of one card, or two cards of one cloze note (R30). A reverse straight after its
/// card gives its answer away, and so does a note's card the sentence just shown whole.
extension Box {
    /// The card `Next` shows when `head` leads the queue: `head`, unless it is a sibling of the
    /// card graded last in this test; then the first card after it, in the queue's order, that
    /// is none and that `selects` takes (a part of the test, R26), when there is one. The queue
    /// keeps its order (the seed's, and the ends R8, R9 and R15 put cards at), so the card shown
    /// follows from the seed and the answers, after a restart too.
    func apart(_ head: Card, selecting selects: (String) -> Bool = { _ in true }) -> Card {
        guard let last = daily.test?.grades.last?.id, last != head.id else { return head }
        let (original, note) = kin(ofGraded: last)
        func isSibling(_ card: Card) -> Bool {
            card.reverseOf == last || (original != nil && (card.id == original || card.reverseOf == original))
                || (note != nil && card.clozeOf?.note == note)
        }
        guard isSibling(head) else { return head }
        var other: Card?
        _ = daily.test?.first { id in
            // A card that cannot be read now is skipped, not judged: `next()` finds it in turn.
            guard id != head.id, id != original, selects(id), !isInTransit(id),
                  let card = try? store.card(id, withText: true), !isSibling(card) else { return false }
            other = card
            return true
        }
        return other ?? head
    }

    /// The card that the card graded last, `id`, reverses and the note it is a card of (nil:
    /// none), from the grade when it was this box's last, else read from the store (after a
    /// restart, an undo).
    private func kin(ofGraded id: String) -> (reverseOf: String?, note: String?) {
        if let lastGraded, lastGraded.id == id { return (lastGraded.reverseOf, lastGraded.note) }
        let card = try? store.card(id, withText: false)
        lastGraded = (id, card?.reverseOf, card?.clozeOf?.note)
        return (card?.reverseOf, card?.clozeOf?.note)
    }
}
