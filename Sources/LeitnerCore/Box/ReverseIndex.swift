/// Reverse cards (R28) → the card each one's `reverse-of` names, to find a card's reverses at a
/// rename or a delete of it. The scan at open reads names only, so building it looks into every
/// card directory (a `stat` of `ID/reverse-of` each): done by the first rename or delete, not at
/// open. Kept current after from the store's change feed (`ChangeFeed`): a card that came is
/// looked at where it is then, one that went is forgotten, and one whose files the box rewrote
/// (a rename rewrites its reverses' `reverse-of`) is looked at again. A move changes nothing.
struct ReverseIndex {
    private var originalOf: [String: String] = [:]
    /// Where the index is in the store's change feed.
    private(set) var cursor: ChangeFeed.Cursor

    /// Looks into every card directory, under the box's turn, its cursor opened first.
    init(store: Store) {
        cursor = store.openCursor()
        for (id, level) in store.cardLevels {
            if let named = store.reverseOriginal(id, in: level) { originalOf[id] = named }
        }
    }

    /// Takes in what changed since the last use; reads every card directory again when the
    /// feed lost changes.
    mutating func update(store: Store) {
        guard let changes = store.changes(since: cursor) else {
            store.closeCursor(cursor)
            self = ReverseIndex(store: store)
            return
        }
        for change in changes {
            switch change {
            case .level(let id, nil, _), .level(let id, _, nil), .written(let id):
                originalOf[id] = store.level(of: id).flatMap { store.reverseOriginal(id, in: $0) }
            case .level, .directory:
                break
            }
        }
    }

    /// The reverse cards whose `reverse-of` names `original`, sorted.
    func reverses(of original: String, store: Store) -> [String] {
        var found: [String] = []
        for (id, named) in originalOf where named == original && id != original && store.level(of: id) != nil {
            found.append(id)
        }
        return found.sorted()
    }
}
