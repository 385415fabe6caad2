/// The cards that name another → what each names: reverse cards (R28) the card they reverse,
/// cloze cards (R30) their note and number. It finds a card's reverses at a rename or a delete
/// of it, and a note's cards when the note changes. The scan at open reads names only, so
/// building it looks into every card directory (`Store.link`, the one reader of both link
/// files: two `stat`s a card): done by the first request that needs it, not at open. Kept
/// current after as the tag table is (`TagTable`): from the store's change feed (a card that came
/// or moved is looked at where it is then, one that went is forgotten, one whose files the box
/// rewrote — a rename rewrites its reverses' `reverse-of` — is looked at again), and from the
/// watch on each card's directory, so that a link file written by hand in place, the card not
/// moved, is read again before the next request that asks (R13).
struct LinkIndex {
    private var linkOf: [String: CardLink] = [:]
    /// Each note → the cards whose `cloze-of` names it: a note's cards found without walking every
    /// link (the first look after open asks for each of thousands of notes).
    private var cardsOfNote: [String: Set<String>] = [:]
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
        // Only the link files' events and the directory's own (no name) can change what it names.
        guard let changed = store.changedCards(since: cursor, pending: [], entry: {
            $0 == Store.reverseFileName || $0 == Store.clozeFileName || $0.isEmpty
        }) else {
            self = LinkIndex(store: store)
            return
        }
        var dirty = changed.cards
        for watch in changed.watches.all { if let id = cardOfWatch[watch] { dirty.insert(id) } }
        // A card without a watch is looked at again each time (its link files' two `stat`s); its
        // watch is asked for again only when it changed.
        for id in unwatched where !dirty.contains(id) {
            if let level = store.level(of: id) {
                setLink(store.link(of: id, in: level), of: id)
            } else {
                unwatched.remove(id)
                setLink(nil, of: id)
            }
        }
        for id in dirty {
            unwatched.remove(id)
            if let level = store.level(of: id) {
                look(at: id, in: level, store: store)
            } else {
                setLink(nil, of: id)
            }
        }
    }

    /// Records what card `id` names, nil for nothing.
    private mutating func setLink(_ link: CardLink?, of id: String) {
        if case .cloze(let old)? = linkOf[id] {
            cardsOfNote[old.note]?.remove(id)
            if cardsOfNote[old.note]?.isEmpty == true { cardsOfNote[old.note] = nil }
        }
        linkOf[id] = link
        if case .cloze(let new)? = link { cardsOfNote[new.note, default: []].insert(id) }
    }

    /// Watches a card's directory, then reads what it names: the watch first, so that a change
    /// after the read is an event.
    private mutating func look(at id: String, in level: Level, store: Store) {
        if let watch = try? store.watcher.watch(directory: store.path(of: id, in: level)) {
            cardOfWatch[watch] = id
        } else {
            unwatched.insert(id)
        }
        setLink(store.link(of: id, in: level), of: id)
    }

    /// The reverse cards whose `reverse-of` names `original`, sorted.
    func reverses(of original: String, store: Store) -> [String] {
        var found: [String] = []
        for (id, link) in linkOf where link == .reverse(of: original) && id != original && store.level(of: id) != nil {
            found.append(id)
        }
        return found.sorted()
    }

    /// The cloze cards whose `cloze-of` names the note `note`, with their numbers, sorted by id.
    func cards(ofNote note: String, store: Store) -> [(id: String, number: Int)] {
        var found: [(id: String, number: Int)] = []
        for id in cardsOfNote[note] ?? [] {
            if case .cloze(let named)? = linkOf[id], store.level(of: id) != nil { found.append((id, named.number)) }
        }
        return found.sorted { $0.id < $1.id }
    }

    /// Every cloze card (R30) and what its `cloze-of` names.
    func clozeLinks(store: Store) -> [(id: String, link: ClozeOf)] {
        var found: [(id: String, link: ClozeOf)] = []
        for (id, link) in linkOf {
            if case .cloze(let named) = link, store.level(of: id) != nil { found.append((id, named)) }
        }
        return found
    }
}
