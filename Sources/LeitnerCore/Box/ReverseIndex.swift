/// Reverse cards (R28) → the card each one's `reverse-of` names, to find a card's reverses at a
/// rename or a delete of it. The scan at open reads names only, so building it looks into every
/// card directory (a `stat` of `ID/reverse-of` each): done by the first rename or delete, not at
/// open. Kept current after as the tag table is (`TagTable`): from the store's change feed (a card
/// that came or moved is looked at where it is then, one that went is forgotten, one whose files
/// the box rewrote — a rename rewrites its reverses' `reverse-of` — is looked at again), and from
/// the watch on each card's directory, so that a `reverse-of` written by hand in place, the card
/// not moved, is read again before the next request that asks (R13).
struct ReverseIndex {
    private var originalOf: [String: String] = [:]
    /// The watch on each card's directory → the card: the tag table's and the search index's
    /// watch on the same directory is the same descriptor, so the watches cost nothing more.
    private var cardOfWatch: [Int32: String] = [:]
    /// Cards whose directory has no watch (the limit was reached): looked at again before each use.
    private var unwatched = Set<String>()
    /// Where the index is in the store's change feed.
    private(set) var cursor: ChangeFeed.Cursor

    /// Looks into every card directory, under the box's turn, its cursor opened first.
    init(store: Store) {
        cursor = store.openCursor()
        for (id, level) in store.cardLevels { look(at: id, in: level, store: store) }
    }

    /// Takes in what changed since the last use; reads every card directory again when the
    /// feed lost changes.
    mutating func update(store: Store) {
        // Only its own file's events and the directory's own (no name) can change what it names.
        guard let changed = store.changedCards(since: cursor, pending: unwatched,
                                               entry: { $0 == Store.reverseFileName || $0.isEmpty }) else {
            self = ReverseIndex(store: store)
            return
        }
        var dirty = changed.cards
        for watch in changed.watches { if let id = cardOfWatch[watch] { dirty.insert(id) } }
        unwatched.removeAll()
        for id in dirty {
            if let level = store.level(of: id) {
                look(at: id, in: level, store: store)
            } else {
                originalOf[id] = nil
            }
        }
    }

    /// Watches a card's directory, then reads what its `reverse-of` names: the watch first, so
    /// that a change after the read is an event.
    private mutating func look(at id: String, in level: Level, store: Store) {
        if let watch = try? store.watcher.watch(directory: store.path(of: id, in: level)) {
            cardOfWatch[watch] = id
        } else {
            unwatched.insert(id)
        }
        originalOf[id] = store.reverseOriginal(id, in: level)
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
