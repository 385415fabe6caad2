/// Sync tools' conflicts (docs/sync.md): `ResolveConflict` keeps one side of a card's conflict.
extension Box {
    /// Keeps one side of card `id`'s sync conflict (`Store.resolveConflict`): `mine`, `theirs`,
    /// or the file name of one conflict copy in the card's directory. The daemon does it, so that
    /// it stays the store's one writer; nothing else of the card changes. The review log has no
    /// event for an edited side, so the change is not logged (docs/sync.md).
    /// - Returns: the card as it is now, the files kept in its sides' places and those removed.
    /// - Throws: `noSuchCard`; `cannotResolve` when the card has no conflict or `keep` fits none;
    ///   `storeFailure` naming the file that could not be changed.
    public func resolveConflict(id: String, keep: ConflictResolution) throws(BoxError) -> (card: Card, kept: [String], removed: [String]) {
        try CardID.validate(id)
        let moment = try begin()
        let wasDamaged = store.isDamaged(id)
        let (kept, removed) = try store.resolveConflict(id, keep: keep)
        if lastShown?.id == id { lastShown = nil }
        frontIndex = nil
        let card = try store.card(id, withText: true)
        // A card that was damaged by its conflict (its only back a copy) is whole again: R8.
        if wasDamaged, let level = store.level(of: id) { try apply(.appeared(id: id, level: level), now: moment.now, log: false) }
        return (card, kept, removed)
    }
}
