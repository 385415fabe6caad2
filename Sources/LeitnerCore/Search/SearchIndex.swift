import LeitnerSystem

/// The text of every card, case-folded, for `Search`: reading 200,000 side files per search
/// costs seconds (as `grep -r` does), scanning them in memory milliseconds.
///
/// Compact: one byte arena holds each card's id (and its folded form when that differs), its
/// folded front and its folded back; a slot of 24 bytes per card, with no reference in it, says
/// where, and in which level the card is; its tags (R25) follow its back. It is built on the first search, not at open, and kept
/// current without rescans:
///
/// - it holds a cursor on the store's change feed (`ChangeFeed`), which has every card whose level
///   changes — the box's adds, grades, moves, renames and deletes, and a hand's (R13) — and
///   every card the box rewrites;
/// - each card directory is watched (inotify), so that a side edited in place by hand — any
///   editor, rewriting the file or renaming a new one over it — is a change of its card too
///   (R13: the next search finds the new text); when the watches ran out (`Inotify.limit`), a
///   card without one keeps a `CardStamp` of its files instead, asked again before each search;
/// - before a search the changed cards are read again; when the kernel dropped events, all are.
///
/// Only the first 64 KiB of a side are indexed (what a `Side` carries).
struct SearchIndex {
    struct Slot {
        /// Where the card's bytes start in the arena: id, folded id, front, back.
        var offset: UInt32
        var idLength: UInt16
        /// 0 when the id folds to itself (the usual case: ids are mostly lower-case).
        var foldedIDLength: UInt16
        var frontLength: UInt32
        var backLength: UInt32
        /// The card directory's inotify watch; -1 when it has none (the limit was reached):
        /// such a card's files are looked at again before every search (`unwatched`).
        var watch: Int32
        var level: UInt8
        /// The card's tags (R25) after its back, joined by newlines: kept here so that a filter
        /// by tag and `Tags` read no `tags` file, and are kept current as the text is.
        var tagsLength: UInt16

        var size: Int { Int(idLength) + Int(foldedIDLength) + Int(frontLength) + Int(backLength) + Int(tagsLength) }

        /// The `level` of a slot whose card was read again into a new slot (or is gone): its
        /// bytes are garbage until the next compaction, and `forEach` passes it by.
        static let dead: UInt8 = .max
    }

    /// One card's parts, as `forEach` hands them out.
    struct Parts {
        var slot: Slot
        var id: UnsafeBufferPointer<UInt8>
        var foldedID: UnsafeBufferPointer<UInt8>
        var front: UnsafeBufferPointer<UInt8>
        var back: UnsafeBufferPointer<UInt8>
        /// The tags, joined by newlines.
        var tags: UnsafeBufferPointer<UInt8>

        /// Each tag's bytes.
        var eachTag: [Slice<UnsafeBufferPointer<UInt8>>] {
            tags.isEmpty ? [] : tags.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        }
    }

    private(set) var slots: [Slot] = []
    private(set) var arena: [UInt8] = []
    /// Arena bytes no slot uses any more; compacted when they are half of it.
    private var garbage = 0
    /// Cards read again at the next update: those a build could not read.
    private var pending = Set<String>()
    /// Cards without a watch (the watches ran out) → their files as they were read: looked at
    /// again before each search, a `stat` a file, and read again when they changed.
    private var unwatched: [String: CardStamp] = [:]
    /// Where the index is in the store's change feed.
    private(set) var cursor: ChangeFeed.Cursor
    /// Slot numbers by a hash of their id (open addressing, linear probing, -1 for empty), so
    /// that `update` finds the slots of the few cards that changed without walking every slot:
    /// walking and hashing 100,000 ids before each search took a third of the daemon's time with
    /// 50 clients grading and searching (docs/performance.md, "Many clients"). An entry of a
    /// dead slot stays until the table is made again; lookups pass it by.
    private var table: [Int32] = []
    /// Entries in `table`, live and dead: the table is made again, twice as large as the live
    /// slots need, when they fill half of it.
    private var tableEntries = 0

    /// Reads every card of the store, its cursor opened first: at once, under the box's turn (the
    /// box's own callers, and a daemon whose build off the turn could not begin).
    init(store: Store) {
        let cursor = store.openCursor()
        // Read through the store itself: nothing else runs meanwhile.
        self.init(installing: SearchIndex.read(store.cardLevels, from: store, watcher: store.watcher) ?? Built(),
                  cursor: cursor, store: store)
    }

    /// What reading every card gave, to be installed under the box's turn (`init(installing:)`).
    struct Built: Sendable {
        /// Its cursor is a placeholder until it is installed with the build's.
        var index = SearchIndex(cursor: ChangeFeed.Cursor.none)
        /// The cards read.
        var cards = CardIndex()
        /// Cards that could not be read soundly — damaged, gone or moved since the snapshot —
        /// read again under the turn, where a damaged one is recorded (R21).
        var unread: [String] = []
        /// What the reads found that the store keeps (`Store.noteConflicts`), for the cards
        /// where they found something.
        var notes: [String: Note] = [:]
    }

    /// What a read of one card found that the store keeps: a sync tool's conflict copies and
    /// markers (docs/sync.md).
    struct Note: Sendable {
        var conflictCopies: [String]
        var markedSides: [String]
    }

    private init(cursor: ChangeFeed.Cursor) {
        self.cursor = cursor
    }

    /// Reads `cards` — their text folded, their tags — from `source`, watching each card's
    /// directory before reading it, so that a change after the read is an event. Runs on any
    /// thread when `source` is a `CardReader`, the build's cursor on the store's change feed
    /// opened at the snapshot (`IndexBuild`).
    /// - Parameter stopped: asked every 256 cards: true gives up (the box is closing).
    /// - Returns: nil when stopped.
    static func read(_ cards: CardIndex, from source: some CardSource, watcher: Inotify.Watcher,
                     stopped: () -> Bool = { false }) -> Built? {
        var built = Built()
        built.cards = cards
        built.index.slots.reserveCapacity(cards.count)
        var count = 0
        for (id, level) in cards {
            count += 1
            if count & 255 == 0, stopped() { return nil }
            IndexBuildProbe.reading(id, root: source.root)
            let watch = (try? watcher.watch(directory: source.path(of: id, in: level))) ?? -1
            // Without a watch, the files' stamp, taken before the read as the watch is added.
            let stamp = watch < 0 ? CardStamp.take(id, in: level, from: source) : nil
            let read = source.readSides(id, in: level, withText: true)
            guard case .success(let (front, back)) = read.sides else {
                built.unread.append(id)
                continue
            }
            if watch < 0 {
                if let stamp { built.index.unwatched[id] = stamp } else { built.index.pending.insert(id) }
            }
            if !read.conflictCopies.isEmpty || !(read.markedSides ?? []).isEmpty {
                built.notes[id] = Note(conflictCopies: read.conflictCopies, markedSides: read.markedSides ?? [])
            }
            built.index.append(id, level: level, front: front.text, back: back.text, ownText: read.reverseOf == nil,
                               tags: read.tags.tags, watch: watch)
        }
        built.index.shrink()
        return built
    }

    /// Installs what a build read, under the box's turn, with the cursor opened at the build's
    /// snapshot, and brings it up to date with the changes since: the cards whose level changed
    /// or that the box edited, those whose directory had an event after its watch was added, and
    /// those the build could not read. What the reads found for the store is taken in first; the
    /// changed cards' reads again replace it.
    init(installing built: Built, cursor: ChangeFeed.Cursor, store: Store) {
        self = built.index
        self.cursor = cursor
        store.takeNotes(built.notes, of: built.cards, unread: Set(built.unread))
        pending.formUnion(built.unread)
        update(store: store)
    }

    /// Takes in what changed since the last search: the cards the feed names and those whose
    /// directories had events.
    mutating func update(store: Store) {
        guard let changed = store.changedCards(since: cursor, pending: pending) else {
            self = SearchIndex(store: store)
            return
        }
        var dirty = changed.cards
        let touched = changed.watches
        if !touched.isEmpty {
            forEach { parts in
                if touched.contains(parts.slot.watch) { dirty.insert(String(decoding: parts.id, as: UTF8.self)) }
            }
        }
        for (id, stamp) in unwatched where !dirty.contains(id) {
            guard let level = store.level(of: id), stamp.holds(id, in: level, from: store) else {
                dirty.insert(id)
                continue
            }
        }
        guard !dirty.isEmpty else { return }
        for id in dirty {
            unwatched[id] = nil
            while let number = slotNumber(of: id) {
                garbage += slots[number].size
                slots[number].level = Slot.dead
            }
        }
        pending.removeAll()
        for id in dirty where store.level(of: id) != nil { index(id, store: store) }
        if garbage > arena.count / 2 {
            compact()
            MemoryTrim.releaseFreedMemory()
        }
    }

    /// The number of the live slot holding `id`, if any.
    private func slotNumber(of id: String) -> Int? {
        guard !table.isEmpty else { return nil }
        var id = id
        return id.withUTF8 { bytes -> Int? in
            arena.withUnsafeBufferPointer { all -> Int? in
                let mask = table.count - 1
                var position = SearchIndex.hash(bytes) & mask
                while table[position] >= 0 {
                    let number = Int(table[position])
                    let slot = slots[number]
                    if slot.level != Slot.dead, Int(slot.idLength) == bytes.count,
                       bytes.elementsEqual(all[Int(slot.offset)..<Int(slot.offset) + bytes.count]) {
                        return number
                    }
                    position = (position + 1) & mask
                }
                return nil
            }
        }
    }

    /// Enters slot `number` in the table, making the table again when it is half full.
    private mutating func enter(_ number: Int) {
        if (tableEntries + 1) * 2 > table.count {
            makeTable()
            return
        }
        enterUnchecked(number)
    }

    private mutating func enterUnchecked(_ number: Int) {
        let slot = slots[number]
        let mask = table.count - 1
        var position = arena.withUnsafeBufferPointer { all in
            SearchIndex.hash(UnsafeBufferPointer(rebasing: all[Int(slot.offset)..<Int(slot.offset) + Int(slot.idLength)]))
        } & mask
        while table[position] >= 0 { position = (position + 1) & mask }
        table[position] = Int32(number)
        tableEntries += 1
    }

    /// Makes the table anew from the live slots, at least 2.5 times as large as they need, so
    /// that a quarter as many again can be entered before it is made again.
    private mutating func makeTable() {
        let live = slots.reduce(0) { $0 + ($1.level == Slot.dead ? 0 : 1) }
        var size = 16
        while size * 2 < live * 5 { size *= 2 }
        table = [Int32](repeating: -1, count: size)
        tableEntries = 0
        for number in slots.indices where slots[number].level != Slot.dead { enterUnchecked(number) }
    }

    /// The store index's hash of an id's bytes, as an `Int` for masking.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        Int(truncatingIfNeeded: CardIndex.hash(bytes))
    }

    /// Reads one card under the box's turn and appends it, with a watch on its directory (or,
    /// when the watches ran out, its files' stamp), the watch first, as a build does. A damaged
    /// card (R21) is left out.
    private mutating func index(_ id: String, store: Store) {
        guard let level = store.level(of: id) else { return }
        let watch = (try? store.watcher.watch(directory: store.path(of: id, in: level))) ?? -1
        let stamp = watch < 0 ? CardStamp.take(id, in: level, from: store) : nil
        guard let card = try? store.card(id, withText: true) else { return }
        if watch < 0 {
            if let stamp { unwatched[id] = stamp } else { pending.insert(id) }
        }
        append(id, level: level, front: card.front.text, back: card.back.text, ownText: card.reverseOf == nil,
               tags: card.tags, watch: watch)
    }

    /// Appends one card: its id, folded id, folded text sides (a side of other media is empty
    /// here) and tags.
    private mutating func append(_ id: String, level: Level, front: String?, back: String?, ownText: Bool,
                                 tags cardTags: [String], watch: Int32) {
        let folded = CaseFolding.fold(id)
        // A reverse card's text is the card's it reverses (R28), found there: indexed by its id
        // alone, it never shows the same lines twice, nor stale ones when only that card's
        // directory is watched and changes. Its tags are its own, from its own directory.
        let front = ownText ? Array(CaseFolding.fold(front ?? "").utf8) : []
        let back = ownText ? Array(CaseFolding.fold(back ?? "").utf8) : []
        // Valid tags are at most 128 bytes each and come from at most 64 KiB: the joined bytes
        // fit, and are cut at a whole tag should they not.
        var tags = Array(cardTags.joined(separator: "\n").utf8)
        while tags.count > Int(UInt16.max), let cut = tags.lastIndex(of: UInt8(ascii: "\n")) { tags.removeSubrange(cut...) }
        let offset = UInt32(arena.count)
        arena.append(contentsOf: id.utf8)
        if folded != id { arena.append(contentsOf: folded.utf8) }
        arena.append(contentsOf: front)
        arena.append(contentsOf: back)
        arena.append(contentsOf: tags)
        slots.append(Slot(offset: offset, idLength: UInt16(id.utf8.count),
                          foldedIDLength: folded == id ? 0 : UInt16(folded.utf8.count),
                          frontLength: UInt32(front.count), backLength: UInt32(back.count),
                          watch: watch, level: UInt8(level.rawValue), tagsLength: UInt16(tags.count)))
        enter(slots.count - 1)
    }

    private mutating func compact() {
        var packed: [UInt8] = []
        packed.reserveCapacity(arena.count - garbage)
        var live: [Slot] = []
        live.reserveCapacity(slots.count)
        for var slot in slots where slot.level != Slot.dead {
            let start = Int(slot.offset)
            slot.offset = UInt32(packed.count)
            packed.append(contentsOf: arena[start..<start + slot.size])
            live.append(slot)
        }
        arena = packed
        slots = live
        garbage = 0
        makeTable()
    }

    /// Gives back what growing the arrays left unused.
    private mutating func shrink() {
        arena = arena.withUnsafeBufferPointer { Array($0) }
        slots = slots.withUnsafeBufferPointer { Array($0) }
        MemoryTrim.releaseFreedMemory()
    }

    /// Calls `body` with each card's parts.
    func forEach(_ body: (Parts) -> Void) {
        arena.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            for slot in slots where slot.level != Slot.dead {
                let id = base + Int(slot.offset)
                let foldedID = id + Int(slot.idLength)
                let front = foldedID + Int(slot.foldedIDLength)
                let back = front + Int(slot.frontLength)
                let tags = back + Int(slot.backLength)
                body(Parts(slot: slot, id: UnsafeBufferPointer(start: id, count: Int(slot.idLength)),
                           foldedID: slot.foldedIDLength == 0 ? UnsafeBufferPointer(start: id, count: Int(slot.idLength))
                                                              : UnsafeBufferPointer(start: foldedID, count: Int(slot.foldedIDLength)),
                           front: UnsafeBufferPointer(start: front, count: Int(slot.frontLength)),
                           back: UnsafeBufferPointer(start: back, count: Int(slot.backLength)),
                           tags: UnsafeBufferPointer(start: tags, count: Int(slot.tagsLength))))
            }
        }
    }
}
