import Synchronization
import LeitnerSystem

/// Every card's tags (R25), for the filters of `List`, `Stats`, `Next` and practice and for
/// `Tags`, without the search index: building that reads every side of every card (seconds at
/// 100,000 cards), where the tags need one `openat` of `ID/tags` per card, which fails at once for
/// a card without tags (docs/performance.md, "Tags").
///
/// Built by the first request that needs tags, not at open: a daemon never asked pays nothing.
/// Kept current without rescans, as the search index is:
///
/// - it holds a cursor on the store's change feed (`ChangeFeed`), which has every card whose
///   level changes and every card the box edits or tags;
/// - each card directory is watched (inotify), and an event about its `tags` entry, or about the
///   directory itself, is a change of the card (R13: a `tags` file written by hand, by an editor
///   or a sync tool, is read again before the next request that needs it);
/// - when the kernel dropped events, every card is read again.
///
/// The daemon's build (`IndexBuild`) reads the tags without watching (100,000
/// `inotify_add_watch` calls cost twice the `openat`s, docs/performance.md, "The first search"),
/// in the order of a listing, a piece at a time (`read(_:from:stopped:pieceRead:)`), so that the
/// `List` by tag that began it gives each piece's cards while the next is read (docs/daemon.md).
/// The cards are installed unwatched, their `tags` read again at each use as past `WatchLimit=`,
/// while the build's thread adds their watches and reads each card's tags once more after its
/// watch (`watch`); the next use takes those watches in (`takeWatches`).
///
/// Small: only tagged cards have an entry of tags; every card has a number (`CardIndex`, only
/// added to, so a number is its for good) and a 4-byte watch.
struct TagTable {
    /// Tagged cards → their tags, in their file's order; a card without tags has no entry.
    /// Any change lets go of the last selection (`lastSelection`).
    private(set) var tagsOf: [String: [String]] = [:] {
        didSet { lastSelection = nil }
    }
    /// The entries of the store's index that the last filter selected (`Box.selectedEntries`),
    /// for the next listing by the same filter: a listing's selection looked up each tagged card
    /// in the store's index by its id before the first card went out (10,000 look-ups at 10,000
    /// tagged, most of the time to a warm `list --tag`'s first part). Kept while no card's tags
    /// change (`tagsOf`) and while the store holds the same cards: an entry number names one
    /// card until a card comes into the index or leaves it (`Store.cardSetVersion`).
    private var lastSelection: (filter: TagFilter, cards: Int, entries: [UInt32])?
    /// The ids seen, numbered for good.
    private var numbers = CardIndex()
    /// The watch on each numbered card's directory, by number; -1 for none.
    private var watchOf: [Int32] = []
    /// Cards whose directory has no watch (the limit was reached, or a build read them without
    /// and their watches are still being added): read again before each use.
    private(set) var unwatched = Set<String>()
    /// While a build's thread adds the watches of the cards read unwatched (`watch`), nil
    /// otherwise: the watches whose events an update took while no entry held them. Such a card's
    /// `tags` the thread read may be from before the event, so `takeWatches` reads them again
    /// (R13), as the search index does its card.
    private var eventsBeforeHandOver: Set<Int32>?
    /// While watches are handed over (`eventsBeforeHandOver` not nil): the entries of the cards
    /// whose tags this table set, under the turn, while they stayed unwatched, so that they may
    /// differ from those the build read, which the build's thread compared its own read with
    /// (`Watched.changed`): `takeWatches` reads them again.
    private var retold = Set<UInt32>()
    /// Which read of the store made this table (`read`, and the table installed from it): the
    /// entry numbers a build's thread hands over are this table's only if it read the same.
    private(set) var generation: UInt64
    private static let generations = Atomic<UInt64>(0)
    /// Where the table is in the store's change feed.
    private(set) var cursor = ChangeFeed.Cursor.none

    /// Reads every card's tags, its cursor opened first: at once, under the box's turn (the box's
    /// own callers, and a daemon whose build off the turn could not begin).
    init(store: Store) {
        let cursor = store.openCursor()
        self.init(installing: TagTable.read(store.cardLevels, from: store, watcher: store.watcher) ?? TagTable(),
                  cursor: cursor, store: store)
        // No thread adds watches after this read: a card without one is past the limit.
        eventsBeforeHandOver = nil
    }

    private init() {
        generation = TagTable.generations.add(1, ordering: .relaxed).newValue
    }

    /// Reads the tags of `cards` from `source`, watching each card's directory before reading
    /// it, so that a change after the read is an event. Runs on any thread when `source` is a
    /// `CardReader`, the build's cursor on the store's change feed opened at the snapshot (`IndexBuild`).
    /// - Parameter stopped: asked every 256 cards: true gives up (the box is closing).
    /// - Returns: nil when stopped.
    static func read(_ cards: CardIndex, from source: some CardSource, watcher: Inotify.Watcher,
                     stopped: () -> Bool = { false }) -> TagTable? {
        var table = TagTable()
        table.numbers = CardIndex(minimumCapacity: cards.count)
        table.watchOf.reserveCapacity(cards.count)
        var count = 0
        for (id, level) in cards {
            count += 1
            if count & 255 == 0, stopped() { return nil }
            IndexBuildProbe.reading(id, root: source.root)
            table.learn(id, in: level, from: source, watcher: watcher)
        }
        return table
    }

    /// Cards whose tags the daemon's build read, handed on before the next are read, for a
    /// `List` by tag that streams while the build goes (`CardListing`): all of one level, in the
    /// order of their ids, in the same pieces as the search index's build (`SearchIndex.pieceSize`).
    struct Piece: Sendable {
        let level: Level
        /// The cards, as entries of the build's snapshot of the store's index.
        let entries: [UInt32]
        /// The tags of each card of `entries`, in the same order; empty for none.
        let tags: [[String]]
    }

    /// `read` as the daemon's build makes it, unwatched, in the order a listing gives its cards
    /// — level, then id (`CardListing.sorted`) — a piece at a time, `pieceRead` told after each,
    /// so that a listing waiting for the build can give that piece's cards while the next is read.
    /// - Parameter stopped: asked every 256 cards: true gives up (the box is closing).
    /// - Returns: nil when stopped.
    static func read(_ cards: CardIndex, from source: CardReader, stopped: () -> Bool,
                     pieceRead: (Piece) -> Void) -> TagTable? {
        var byLevel = [[UInt32]](repeating: [], count: Level.allCases.count)
        cards.forEachEntry { number, level in byLevel[level.rawValue - 1].append(number) }
        var table = TagTable()
        table.numbers = CardIndex(minimumCapacity: cards.count)
        table.watchOf.reserveCapacity(cards.count)
        var count = 0
        for (level, entries) in zip(Level.allCases, byLevel) {
            let sorted = CardListing.sorted(entries, in: cards)
            var start = 0
            while start < sorted.count {
                let part = sorted[start..<min(start + SearchIndex.pieceSize, sorted.count)]
                start += SearchIndex.pieceSize
                var tags: [[String]] = []
                tags.reserveCapacity(part.count)
                for number in part {
                    count += 1
                    if count & 255 == 0, stopped() { return nil }
                    let id = cards.id(ofEntry: number)
                    IndexBuildProbe.reading(id, root: source.root)
                    table.learn(id, in: level, from: source, watcher: nil)
                    tags.append(table.tags(of: id))
                }
                pieceRead(Piece(level: level, entries: Array(part), tags: tags))
            }
        }
        return table
    }

    /// What adding a card's watch after the build found (`watch`).
    struct Watched: Sendable {
        var id: String
        /// The card's entry in the table the build read (`numbers`), found on the thread: the
        /// hand-over under the turn looks up no id for it.
        var number: UInt32
        var watch: Int32
        /// True when the card's tags read once the watch was there are not those the build read.
        var changed: Bool
    }

    /// Adds the watch of each card `table` holds unwatched, then reads its tags again: changes
    /// after the read are events of the watch. Runs off the turn, after the table is installed.
    /// The cards watched are handed over (`publish`) `publishEvery` at a time: until a card's
    /// watch is taken in, each use reads its `tags` again under the turn, and 100,000 watches take
    /// the thread a second or so.
    /// - Parameter stopped: asked every 256 cards: true gives up (the cards left stay unwatched).
    static func watch(_ table: TagTable, cards: CardIndex, from source: some CardSource, watcher: Inotify.Watcher,
                      stopped: () -> Bool = { false }, publish: ([Watched]) -> Void) {
        var watched: [Watched] = []
        watched.reserveCapacity(min(table.unwatched.count, publishEvery))
        for (count, id) in table.unwatched.enumerated() {
            if count & 255 == 255, stopped() { break }
            if watched.count == publishEvery {
                publish(watched)
                watched.removeAll(keepingCapacity: true)
            }
            IndexBuildProbe.reading(id, root: source.root)
            guard let level = cards[id], let number = table.numbers.entryNumber(of: id),
                  let watch = try? watcher.watch(directory: source.path(of: id, in: level)) else { continue }
            watched.append(Watched(id: id, number: number, watch: watch,
                                   changed: source.tagsOnly(of: id, in: level) != table.tags(of: id)))
        }
        publish(watched)
    }

    static let publishEvery = 2048

    /// Gives the cards `watch` watched their watches. A card whose tags the thread read are not
    /// those the table holds changed between the two reads, and the event of that change may
    /// have gone by before its watch was the table's: its tags are read once more here, after
    /// the watch was added, so that any change after this read is an event of the watch. The
    /// thread compared its read with the build's (`Watched.changed`); a card whose tags this
    /// table set since (`retold`) is read again too. Under the turn, a card costs one look-up of
    /// its id (its removal from `unwatched`): its entry comes with it, where the hand-over of
    /// 60,000 cards looked up each id four times, 76 ms of the call that took them, loaded
    /// (docs/performance.md, "The second listing by tag after a start").
    /// - Parameters:
    ///   - generation: the `generation` of the table the thread watched: another's entry
    ///     numbers are not this one's (the table was read again under the turn, every card
    ///     watched then but those past the limit, which stay unwatched).
    ///   - last: no watches follow: the events before a hand-over are no longer kept.
    mutating func takeWatches(_ watched: [Watched], of generation: UInt64, store: Store, last: Bool) {
        if generation == self.generation {
            for card in watched where unwatched.remove(card.id) != nil {
                if card.changed || retold.contains(card.number) || eventsBeforeHandOver?.contains(card.watch) == true {
                    guard let level = store.level(of: card.id) else {
                        // Gone: as the next update would have it.
                        tagsOf[card.id] = nil
                        continue
                    }
                    let tags = store.tagsOnly(of: card.id, in: level)
                    tagsOf[card.id] = tags.isEmpty ? nil : tags
                }
                watchOf[Int(card.number)] = card.watch
            }
        }
        if last {
            eventsBeforeHandOver = nil
            retold = []
        }
    }

    /// Installs a table a build read, under the box's turn, with the cursor opened at the build's
    /// snapshot, and brings it up to date with the changes since (`update`).
    /// - Parameter readAfterCall: the build read the tags after the calling request began: this
    ///   update does not read the unwatched cards' again (the first call would pay twice); the
    ///   next one does.
    init(installing built: TagTable, cursor: ChangeFeed.Cursor, store: Store, readAfterCall: Bool = false) {
        self = built
        self.cursor = cursor
        if !built.unwatched.isEmpty { eventsBeforeHandOver = [] }
        update(store: store, readingUnwatched: !readAfterCall)
    }

    /// The tags of the card `id`; none when it has none (or is not in the box).
    func tags(of id: String) -> [String] { tagsOf[id] ?? [] }

    /// The entries `filter` selected last, when no card's tags changed since and the store's
    /// cards are those of `cards` (`Store.cardSetVersion`); nil otherwise.
    func selection(_ filter: TagFilter, cards: Int) -> [UInt32]? {
        guard let kept = lastSelection, kept.cards == cards, kept.filter == filter else { return nil }
        return kept.entries
    }

    /// Keeps `entries` as what `filter` selects among the store's cards of `cards`, in place of
    /// the last selection kept.
    mutating func keepSelection(_ entries: [UInt32], of filter: TagFilter, cards: Int) {
        lastSelection = (filter, cards, entries)
    }

    /// Takes in what changed since the last use: the cards the feed names and those whose `tags`
    /// had events.
    mutating func update(store: Store, readingUnwatched: Bool = true) {
        // Only its own file's events and the directory's own (no name) can change the tags.
        guard let changed = store.changedCards(since: cursor, pending: [], entry: { $0 == CardTag.fileName || $0.isEmpty }) else {
            self = TagTable(store: store)
            return
        }
        var dirty = changed.cards
        let touched = changed.watches
        if !touched.isEmpty {
            var placed = Set<Int32>()
            for (number, watch) in watchOf.enumerated() where watch >= 0 && touched.contains(watch) {
                dirty.insert(numbers.id(ofEntry: UInt32(number)))
                placed.insert(watch)
            }
            eventsBeforeHandOver?.formUnion(touched.all.subtracting(placed))
        }
        // A card without a watch has its `tags` read again each time: one `openat`, the
        // stamp's `stat`'s price; its watch is asked for again only when it changed.
        for id in unwatched where readingUnwatched && !dirty.contains(id) {
            if let level = store.level(of: id) {
                IndexBuildProbe.reading(id, root: store.root)
                let tags = store.tagsOnly(of: id, in: level)
                // Set only when they changed: setting lets go of the last selection, which a
                // card past the watches' limit would do at every use.
                if self.tags(of: id) != tags {
                    tagsOf[id] = tags.isEmpty ? nil : tags
                    if eventsBeforeHandOver != nil, let number = numbers.entryNumber(of: id) { retold.insert(number) }
                }
            } else {
                unwatched.remove(id)
                tagsOf[id] = nil
            }
        }
        for id in dirty {
            unwatched.remove(id)
            if let level = store.level(of: id) {
                learn(id, in: level, from: store, watcher: store.watcher)
            } else {
                tagsOf[id] = nil
            }
        }
    }

    /// Reads one card's tags and watches its directory (the same watch when it is watched
    /// already): the watch first, so that a change after the read is an event.
    private mutating func learn(_ id: String, in level: Level, from source: some CardSource, watcher: Inotify.Watcher?) {
        let number = Int(numbers.intern(id))
        if number == watchOf.count { watchOf.append(-1) }
        let watch = watcher.flatMap { try? $0.watch(directory: source.path(of: id, in: level)) } ?? -1
        watchOf[number] = watch
        if watch < 0 {
            unwatched.insert(id)
            if eventsBeforeHandOver != nil { retold.insert(UInt32(number)) }
        }
        let tags = source.tagsOnly(of: id, in: level)
        tagsOf[id] = tags.isEmpty ? nil : tags
    }
}
