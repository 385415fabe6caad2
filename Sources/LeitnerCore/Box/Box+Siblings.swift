/// R11: a card and its siblings are not shown one right after the other while the queue holds
/// another card. Siblings ask one thing two ways: a card and its reverse cards (R28), or two
/// reverses of one card; the cards of one note will be siblings too. A reverse straight after
/// its card gives its answer away.
extension Box {
    /// The card `Next` shows when `head` leads the queue: `head`, unless it is a sibling of the
    /// card graded last in this test; then the first card after it, in the queue's order, that
    /// is none and that `selects` takes (a part of the test, R26), when there is one. The queue
    /// keeps its order (the seed's, and the ends R8, R9 and R15 put cards at), so the card shown
    /// follows from the seed and the answers, after a restart too.
    func apart(_ head: Card, selecting selects: (String) -> Bool = { _ in true }) -> Card {
        guard let last = daily.test?.grades.last?.id, last != head.id else { return head }
        let original = reversed(byGraded: last)
        func isSibling(_ card: Card) -> Bool {
            card.reverseOf == last || (original != nil && (card.id == original || card.reverseOf == original))
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

    /// The card that the card graded last, `id`, reverses (nil: it reverses none), from the
    /// grade when it was this box's last, else read from the store (after a restart, an undo).
    private func reversed(byGraded id: String) -> String? {
        if let lastGraded, lastGraded.id == id { return lastGraded.reverseOf }
        let reverseOf = (try? store.card(id, withText: false))?.reverseOf
        lastGraded = (id, reverseOf)
        return reverseOf
    }
}
