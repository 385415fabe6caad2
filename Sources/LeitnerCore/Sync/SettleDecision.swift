/// What to do with a card after a sync, as `SettlePlanner.decide` finds it (docs/sync.md).
enum SettleDecision: Sendable, Hashable {
    /// Leave the card as it is: one copy, and no device deleted it after its last move.
    case nothing
    /// Leave every copy where it is: the logs do not yet say which one is right (the reason says
    /// why). A card in two levels stays reported as a duplicate by `doctor` meanwhile.
    case wait(String)
    /// Keep the copy in this level and remove the others.
    case keep(Level)
    /// Remove the card's only copy: a device deleted it after its last move anywhere.
    case remove
    /// Move the card's only copy to this level: a device's own event put it there after the move
    /// that brought the copy where it is.
    case move(Level)
}
