/// What a `List` without text shows of each card — its sides' files, its tags, the card or note
/// it shows the sides of (R28, R30) — or that it is damaged (R21), so that such a listing reads
/// only the card directories that changed since they were last listed: reading every directory
/// of a level of 14,000 cards took 250 ms of the box's turn each time (docs/performance.md,
/// "A listing without text").
///
/// A view of the store (docs/architecture.md), kept as the tag table is, but learned a card at a
/// time, when a listing first reaches it: a daemon that never lists without text pays nothing,
/// and the first listing of a level costs what every listing cost before.
///
/// - A card is learned by watching its directory (inotify), then reading it by the same code and
///   the same rules as `Show` (`Store.cardRead`: R21, R22; its damage recorded as any read
///   records it), so that a change after the read is an event.
/// - The cursor on the store's change feed names every card whose level changed (the box's
///   changes and a hand's, R13) or that the box rewrote, and the watches every card whose
///   directory had an event — any entry of it: a side removed, added, renamed or written, its
///   mode changed. Such a card is forgotten, and read again when a listing next reaches it.
/// - A reverse card is forgotten with the card it reverses, whose files are its sides; a cloze
///   card when its note changes (`Box.followNotes` publishes the note's cards as written).
/// - A card without a watch (the limit was reached), or with a side that may be a link (R22: one
///   inside the store, whose target no watch of the card's follows), is read at every listing.
/// - When the feed lost changes (the kernel dropped events), every card is forgotten.
///
/// Small: 8 bytes a card learned, its id in a `CardIndex`; the sides' file names (`front.txt`)
/// are kept once each, tags only for tagged cards, whole cards only for reverse and cloze ones.
struct OutlineTable {
    /// A card's sides by their file names' numbers in `names`, or one of the marks below.
    private struct Outline {
        var front: UInt16
        var back: UInt16

        /// Not known: never read, or changed since.
        static let unknown = Outline(front: .max, back: 0)
        /// Damaged when last read (R21): left out.
        static let damaged = Outline(front: .max - 1, back: 0)
        /// Its sides are another's files, or its names too many to number: in `linked`.
        static let linked = Outline(front: .max - 2, back: 0)
        /// The most file names numbered.
        static let maxNames = Int(UInt16.max - 2)
    }

    /// The ids learned, numbered for good.
    private var numbers = CardIndex()
    /// By number: the card's outline and the watch on its directory (-1 for none).
    private var outlines: [Outline] = []
    private var watchOf: [Int32] = []
    /// The tags of plain cards that have some, by number.
    private var tagsOf: [UInt32: [String]] = [:]
    /// Reverse and cloze cards (R28, R30) as read, without text, by number: their sides' paths
    /// are their original's or their note's, so kept whole; they are few.
    private var linked: [UInt32: Card] = [:]
    /// The card each learned reverse card names, by number, and the reverse cards naming each
    /// card: when a card changes, so do the sides of its reverses.
    private var originalOf: [UInt32: String] = [:]
    private var reversesOf: [String: Set<String>] = [:]
    /// Side file names and their media types, each kept once, and their numbers.
    private(set) var names: [(name: String, mediaType: String)] = []
    private var nameNumbers: [String: UInt16] = [:]
    /// Cards read at every listing: no watch, or a side that may be a link.
    private var unwatched = Set<String>()
    /// Where the table is in the store's change feed.
    private(set) var cursor: ChangeFeed.Cursor
    /// Each level's directory and a slash (`/box/2/`), by `Level.rawValue - 1`: the head of its
    /// cards' paths.
    let levelDirectories: [String]

    /// An empty table, its cursor opened now: every card learned after this is kept current.
    init(store: Store) {
        cursor = store.openCursor()
        levelDirectories = Level.allCases.map { store.path(of: $0) + "/" }
    }

    /// Forgets every card that changed since the last use: those the feed names, those whose
    /// directories had events, the reverses of either, and those read at every listing. When the
    /// feed lost changes, every card.
    mutating func update(store: Store) {
        guard let changed = store.changedCards(since: cursor, pending: unwatched) else {
            // The cursor is closed: a table anew, with one of its own.
            self = OutlineTable(store: store)
            return
        }
        unwatched.removeAll()
        var dirty = changed.cards
        if !changed.watches.isEmpty {
            for (number, watch) in watchOf.enumerated() where watch >= 0 && changed.watches.contains(watch) {
                dirty.insert(numbers.id(ofEntry: UInt32(number)))
            }
        }
        var reverses: [String] = []
        for id in dirty { if let named = reversesOf[id] { reverses += named } }
        for id in dirty { forget(id) }
        for id in reverses { forget(id) }
    }

    /// What the table knows of a card.
    enum Known {
        /// A plain card: its sides' file names by number in `names`, and its tags.
        case sides(front: UInt16, back: UInt16, tags: [String])
        /// A card kept whole: a reverse or cloze card, or one whose names cannot be numbered.
        case card(Card)
        /// Damaged (R21): left out.
        case damaged
    }

    /// The card of entry `entry` of `index` (a listing's), in `level` where the store has it
    /// now, without its text. A card not known is learned: `reads` counts the directories read.
    /// Its id is looked up by the index's bytes: no string is made unless the card is read.
    mutating func outline(ofEntry entry: UInt32, in index: CardIndex, at level: Level, store: Store,
                          reads: inout Int) -> Known {
        let number = index.withBytes(ofEntry: entry) { numbers.intern(bytes: $0) }
        if Int(number) == outlines.count {
            outlines.append(.unknown)
            watchOf.append(-1)
        }
        let outline = outlines[Int(number)]
        switch outline.front {
        case Outline.unknown.front:
            reads += 1
            return learn(index.id(ofEntry: entry), number: number, at: level, store: store)
        case Outline.damaged.front:
            return .damaged
        case Outline.linked.front:
            return linked[number].map(Known.card) ?? .damaged
        default:
            return .sides(front: outline.front, back: outline.back, tags: tagsOf.isEmpty ? [] : tagsOf[number] ?? [])
        }
    }

    /// Watches the card's directory, then reads it: the watch first, so that a change after the
    /// read is an event.
    private mutating func learn(_ id: String, number: UInt32, at level: Level, store: Store) -> Known {
        let directory = store.path(of: id, in: level)
        IndexBuildProbe.reading(id, root: store.root)
        var watched = watch(number, directory: directory, store: store)
        var (result, read) = store.cardRead(id, in: level, withText: false)
        if let original = read.reverseOf {
            originalOf[number] = original
            reversesOf[original, default: []].insert(id)
            // Its sides are the original's files: that directory is watched too, and the card
            // read again, so that a change of the original after this read is an event.
            if let at = store.level(of: original) {
                watched = watched && watch(numbers.intern(original), directory: store.path(of: original, in: at), store: store)
                (result, read) = store.cardRead(id, in: level, withText: false)
            }
        }
        if !watched || read.followsLink { unwatched.insert(id) }
        guard case .success(let card) = result else {
            outlines[Int(number)] = .damaged
            return .damaged
        }
        if card.reverseOf == nil, card.clozeOf == nil,
           let front = nameNumber(of: card.front.path, in: directory + "/"), let back = nameNumber(of: card.back.path, in: directory + "/") {
            outlines[Int(number)] = Outline(front: front, back: back)
            if !card.tags.isEmpty { tagsOf[number] = card.tags }
            return .sides(front: front, back: back, tags: card.tags)
        }
        outlines[Int(number)] = .linked
        linked[number] = card
        return .card(card)
    }

    /// Watches the directory of the card numbered `number` (the same watch when it is watched
    /// already); false when it cannot be.
    private mutating func watch(_ number: UInt32, directory: String, store: Store) -> Bool {
        if Int(number) == outlines.count {
            outlines.append(.unknown)
            watchOf.append(-1)
        }
        let watch = (try? store.watcher.watch(directory: directory)) ?? -1
        watchOf[Int(number)] = watch
        return watch >= 0
    }

    /// The number of a side's file name, the side's path being in `directory`; nil when it is
    /// not, or the names are too many to number.
    private mutating func nameNumber(of path: String, in directory: String) -> UInt16? {
        guard path.hasPrefix(directory) else { return nil }
        let name = String(path.dropFirst(directory.count))
        if let number = nameNumbers[name] { return number }
        guard names.count < Outline.maxNames else { return nil }
        names.append((name, MediaType.of(fileName: name)))
        nameNumbers[name] = UInt16(names.count - 1)
        return UInt16(names.count - 1)
    }

    /// Forgets what was learned of a card: it is read again when next listed.
    private mutating func forget(_ id: String) {
        guard let number = numbers.entryNumber(of: id), Int(number) < outlines.count else { return }
        outlines[Int(number)] = .unknown
        tagsOf[number] = nil
        linked[number] = nil
        if let original = originalOf.removeValue(forKey: number) {
            reversesOf[original]?.remove(id)
            if reversesOf[original]?.isEmpty == true { reversesOf[original] = nil }
        }
    }
}
