import Glibc
import Synchronization
import LeitnerSystem

/// The text of every card, case-folded, for `Search`: reading 200,000 side files per search
/// costs seconds (as `grep -r` does), scanning them in memory milliseconds.
///
/// Compact: a byte arena holds each card's id (and its folded form when that differs), its
/// folded front and its folded back; a slot of 24 bytes per card, with no reference in it, says
/// where, and in which level the card is; its tags (R25) follow its back, and its files' stamp
/// (`CardStamp`, taken before the read) follows them. Slots and arena are in pieces of
/// `pieceSize` cards (`SlotPiece`), shared between the index and the copies searches in flight
/// keep: an update copies only the pieces it changes. It is built on the first search, not at
/// open, and kept current without rescans:
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
/// It is kept on disk between daemons (`SearchIndexFile`, `.leitner/local.DEVICE/search-index`):
/// a build reads it first and takes a card from it, unread, when the card's stamp still holds —
/// a `stat` of its directory and of each of its files instead of reading them (docs/performance.md,
/// "The first search"). What the file says is never trusted beyond its stamps: an edit by any
/// editor, a hand `mv`, a sync tool's delivery or a copy of the store changes a time, a size or
/// an inode, and the card is read again.
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
        /// such a card's files are looked at again before every search (`unwatchedCount`).
        var watch: Int32
        var level: UInt8
        /// The bytes of the card's stamp after its tags: a byte saying whether it may be kept on
        /// disk (`keptStamp`), then `CardStamp.encoded`; 0 when the card has no stamp it may
        /// be trusted by (its newest change too recent, its directory unreadable).
        var stampLength: UInt8
        /// The card's tags (R25) after its back, joined by newlines: kept here so that a filter
        /// by tag and `Tags` read no `tags` file, and are kept current as the text is.
        var tagsLength: UInt16

        var size: Int { Int(idLength) + Int(foldedIDLength) + Int(frontLength) + Int(backLength) + Int(tagsLength) + Int(stampLength) }

        /// Where the stamp's bytes start in the arena.
        var stampOffset: Int { Int(offset) + size - Int(stampLength) }

        /// The `level` of a slot whose card was read again into a new slot (or is gone): its
        /// bytes are garbage until the next compaction, and `forEach` passes it by.
        static let dead: UInt8 = .max
    }

    /// The first byte of a stamp that may be kept on disk: the card's text and tags are its own
    /// directory's, so that its stamp tells every change of them. A cloze card's text is its
    /// note's, another directory; a side read through a link is its target's; a card with a sync
    /// tool's conflict copies is read again for the store's count of them: such stamps serve
    /// while the box runs (`liveStamp`), and the file leaves those cards out.
    static let keptStamp: UInt8 = 1
    static let liveStamp: UInt8 = 0

    /// One card's parts, as `forEach` hands them out.
    struct Parts {
        var slot: Slot
        /// The slot's number, for `id(at:)` and `idPrecedes` once `forEach` is done.
        var number: Int
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

    /// `pieceSize` slots (the last one fewer) and the bytes they point at, a slot's `offset`
    /// being in its piece's arena. A search in flight keeps the index as it began (`SearchScan`)
    /// until it has found its cards, off the turn: the box's next update marks the cards graded
    /// since dead, takes in watches and appends what it reads again, and in pieces copies only
    /// the pieces it touches (some 60 KiB each), where one arena and one array of slots were
    /// copied whole, about 6 MiB at 100,000 cards, for each search still holding them.
    struct SlotPiece {
        var slots: [Slot] = []
        var arena: [UInt8] = []
    }

    private var slotPieces: [SlotPiece] = []
    /// Slots in every piece, live and dead: slot `number` is in piece `number / pieceSize`.
    private(set) var slotCount = 0
    /// Bytes in every piece's arena.
    private var arenaCount = 0
    /// Arena bytes no slot uses any more; compacted when they are half of them.
    private var garbage = 0
    /// Cards read again at the next update: those a build could not read.
    private var pending = Set<String>()
    /// Live slots without a watch (the watches ran out): their stamps are looked at again
    /// before each search, a `stat` a file, and the card read again when they do not hold.
    private(set) var unwatchedCount = 0
    /// Cards read since the index was last written to its file (or read from it), at least 1
    /// when the box's own build read cards the file lacks: the box writes it again when it
    /// closes (`SearchIndexFile`).
    private(set) var readSinceSaved = 0
    /// Where the index is in the store's change feed.
    private(set) var cursor: ChangeFeed.Cursor
    /// Slot numbers by a hash of their id (open addressing, linear probing, -1 for empty), so
    /// that `update` finds the slots of the few cards that changed without walking every slot:
    /// walking and hashing 100,000 ids before each search took a third of the daemon's time with
    /// 50 clients grading and searching (docs/performance.md, "Many clients"). An entry of a
    /// dead slot stays until the table is made again; lookups pass it by. In pieces of
    /// `tablePiece` entries, shared with the copies searches keep, as the slots are.
    private var table: [[Int32]] = []
    /// Positions in `table`: a power of two, 0 before it is made.
    private var tableSize = 0
    /// Entries in `table`, live and dead: the table is made again, twice as large as the live
    /// slots need, when they fill half of it.
    private var tableEntries = 0
    /// 4,096 entries (16 KiB) a piece of the table.
    private static let tableShift = 12
    private static let tablePiece = 1 << tableShift

    /// Reads every card of the store, its cursor opened first: at once, under the box's turn (the
    /// box's own callers, and a daemon whose build off the turn could not begin).
    init(store: Store) {
        let cursor = store.openCursor()
        let saved = SearchIndexFile.load(in: store.stateFD)
        // Read through the store itself: nothing else runs meanwhile. A card taken from the file
        // is watched before its stamp is asked, as a read is.
        let built = SearchIndex.read(store.cardLevels, from: store, watcher: store.watcher, saved: saved) ?? Built()
        self.init(installing: built, cursor: cursor, store: store)
        // Written when the box closes (`Box.close`), as for the cards read again since, not by
        // the search that waits for this build: encoding and syncing megabytes only serve the
        // next start (the daemon's build writes it from a thread of its own).
        if built.needsSaving { readSinceSaved = max(readSinceSaved, 1) }
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
        /// True when the file is to be written again: cards were read, or it had other cards.
        var needsSaving = false
        /// How many cards were taken from the file, unread.
        var taken = 0
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

    /// An index of `slots` over `arena`, unwatched, as its file gives it (`SearchIndexFile`):
    /// only looked up by id, by a build.
    init(slots: [Slot], arena: [UInt8]) {
        self.cursor = .none
        for slot in slots { appendSlot(slot, bytes: arena[Int(slot.offset)..<Int(slot.offset) + slot.size]) }
        makeTable()
    }

    /// Slot `number`.
    func slot(_ number: Int) -> Slot {
        slotPieces[number / SearchIndex.pieceSize].slots[number % SearchIndex.pieceSize]
    }

    /// The bytes of slot `number`: its id, folded id, front, back, tags and stamp.
    func bytes(_ number: Int) -> ArraySlice<UInt8> {
        let slot = slot(number)
        return slotPieces[number / SearchIndex.pieceSize].arena[Int(slot.offset)..<Int(slot.offset) + slot.size]
    }

    /// The id of slot `number`.
    func id(at number: Int) -> String {
        let slot = slot(number)
        return slotPieces[number / SearchIndex.pieceSize].arena.withUnsafeBufferPointer { arena in
            String(decoding: UnsafeBufferPointer(rebasing: arena[Int(slot.offset)..<Int(slot.offset) + Int(slot.idLength)]), as: UTF8.self)
        }
    }

    /// Whether the id of slot `a` sorts before that of slot `b` as their Strings do (`<`), from
    /// the arena's bytes, so that a search orders its matches without a String of each id
    /// (`SearchScan`). Every indexed id is in normal form C (R20: the store's scan indexes no
    /// other name), and Strings compare their NFC scalars, whose order is their UTF-8 bytes'
    /// order: so where both bytes at the first difference are ASCII (or one id ends and the other
    /// goes on in ASCII), those bytes decide. An ASCII byte alone would not be enough for ids
    /// that are not NFC (`cafe` + U+0301 sorts after `caff` as a String, though `e` < `f`).
    /// Otherwise the Strings are made and compared.
    func idPrecedes(_ a: Int, _ b: Int) -> Bool {
        let (first, second) = (slot(a), slot(b))
        return slotPieces[a / SearchIndex.pieceSize].arena.withUnsafeBufferPointer { arenaA in
            slotPieces[b / SearchIndex.pieceSize].arena.withUnsafeBufferPointer { arenaB in
                let x = UnsafeBufferPointer(rebasing: arenaA[Int(first.offset)..<Int(first.offset) + Int(first.idLength)])
                let y = UnsafeBufferPointer(rebasing: arenaB[Int(second.offset)..<Int(second.offset) + Int(second.idLength)])
                let common = min(x.count, y.count)
                var index = 0
                while index < common, x[index] == y[index] { index += 1 }
                let next = (index < x.count ? x[index] : 0, index < y.count ? y[index] : 0)
                if next.0 < 0x80, next.1 < 0x80 { return next.0 < next.1 }
                return String(decoding: x, as: UTF8.self) < String(decoding: y, as: UTF8.self)
            }
        }
    }

    /// Changes slot `number` in place: its piece's slots are copied if a search holds them.
    private mutating func change(_ number: Int, _ body: (inout Slot) -> Void) {
        body(&slotPieces[number / SearchIndex.pieceSize].slots[number % SearchIndex.pieceSize])
    }

    /// Appends `slot` with its `bytes`, in a new piece when the last is full: its offset is set
    /// to where they go in the piece's arena.
    private mutating func appendSlot(_ slot: Slot, bytes: some Collection<UInt8>) {
        if slotCount % SearchIndex.pieceSize == 0 { slotPieces.append(SlotPiece()) }
        var slot = slot
        let last = slotPieces.count - 1
        slot.offset = UInt32(slotPieces[last].arena.count)
        slotPieces[last].arena.append(contentsOf: bytes)
        slotPieces[last].slots.append(slot)
        slotCount += 1
        arenaCount += slot.size
    }

    /// The stamp of the live slot holding `id`, kept or not, and the slot's number; nil when
    /// the card has none.
    func stamp(of id: String) -> (number: Int, stamp: CardStamp, kept: Bool)? {
        guard let number = slotNumber(of: id), let found = stamp(at: number) else { return nil }
        return (number, found.stamp, found.kept)
    }

    /// The stamp of slot `number`, and whether it may be kept on disk; nil when it has none.
    func stamp(at number: Int) -> (stamp: CardStamp, kept: Bool)? {
        let slot = slot(number)
        guard slot.stampLength > 0 else { return nil }
        let arena = slotPieces[number / SearchIndex.pieceSize].arena
        let start = slot.stampOffset
        guard let stamp = CardStamp(encoded: arena[start + 1..<start + Int(slot.stampLength)]) else { return nil }
        return (stamp, arena[start] == SearchIndex.keptStamp)
    }

    /// Reads `cards` — their text folded, their tags — from `source`, watching each card's
    /// directory before reading it, so that a change after the read is an event. Runs on any
    /// thread when `source` is a `CardReader`, the build's cursor on the store's change feed
    /// opened at the snapshot (`IndexBuild`).
    ///
    /// A card `saved` (the index's file) holds with a stamp that still holds is taken from it
    /// unread, its directory watched before its stamp is asked, as for a read.
    /// - Parameter stopped: asked every 256 cards: true gives up (the box is closing).
    /// - Returns: nil when stopped.
    static func read(_ cards: CardIndex, from source: some CardSource, watcher: Inotify.Watcher,
                     saved: SearchIndex? = nil, stopped: () -> Bool = { false }) -> Built? {
        var reading = Reading(cards: cards, saved: saved)
        guard reading.read(cards, from: source, watcher: watcher, asked: [], stopped: stopped) else { return nil }
        return reading.finish()
    }

    /// Cards read by the daemon's build, handed on before the next are read: their slots and
    /// bytes alone, copied (`piece`), all of one level, in the order of their ids.
    struct PieceRead: Sendable {
        let level: Level
        let piece: SearchIndex
        /// Where the piece's slots are in the whole index.
        let slots: Range<Int>
    }

    /// The cards of a `PieceRead`: about 15 ms of reading on a quiet machine, under 2 ms when
    /// the file's stamps hold; the first piece's lines are what a search waits for.
    static let pieceSize = 1024

    /// `read` as the daemon's build makes it, in the order a search gives its lines — level,
    /// then id — a piece at a time: the piece's cards watched and their stamps in the file asked
    /// on two threads (each a wait on the kernel), then its cards read, then
    /// `pieceRead` told, so that a search waiting for the build can give that piece's lines while
    /// the next is read (`SearchScan`).
    static func read(_ cards: CardIndex, from source: CardReader, watcher: Inotify.Watcher, saved: SearchIndex?,
                     stopped: @escaping @Sendable () -> Bool, pieceRead: (PieceRead) -> Void = { _ in }) -> Built? {
        // By `Level.rawValue - 1`, which is `Level.allCases`'s order.
        var byLevel = [[(key: String, value: Level)]](repeating: [], count: Level.allCases.count)
        for entry in cards { byLevel[entry.value.rawValue - 1].append(entry) }
        var reading = Reading(cards: cards, saved: saved)
        for (level, var entries) in zip(Level.allCases, byLevel) {
            // As `SearchScan.find` orders its hits.
            entries.sort { $0.key < $1.key }
            var start = 0
            while start < entries.count {
                let part = entries[start..<min(start + pieceSize, entries.count)]
                start += pieceSize
                let asked = saved.map { askStamps(Array(part), in: $0, from: source, watcher: watcher, stopped: stopped) } ?? []
                let first = reading.built.index.slotCount
                guard reading.read(part, from: source, watcher: watcher, asked: asked, stopped: stopped) else { return nil }
                // Every piece is handed on, empty ones too, so that its number is `pieces(of:in:)`'s.
                let slots = first..<reading.built.index.slotCount
                pieceRead(PieceRead(level: level, piece: reading.built.index.piece(slots), slots: slots))
            }
        }
        return reading.finish()
    }

    /// The numbers of the pieces the daemon's build hands `level`'s cards of `cards` on in.
    static func pieces(of level: Level, in cards: CardIndex) -> Range<Int> {
        let pieces = pieceCounts(in: cards)
        let before = pieces[..<(level.rawValue - 1)].reduce(0, +)
        return before..<before + pieces[level.rawValue - 1]
    }

    /// How many pieces the daemon's build hands each level's cards of `cards` on in, in
    /// `Level.allCases`'s order.
    static func pieceCounts(in cards: CardIndex) -> [Int] {
        var counts = [Int](repeating: 0, count: Level.allCases.count)
        cards.forEachEntry { _, level in counts[level.rawValue - 1] += 1 }
        return counts.map { ($0 + pieceSize - 1) / pieceSize }
    }

    /// A copy of slots `range` and of their bytes, with no table: for `forEach` alone.
    private func piece(_ range: Range<Int>) -> SearchIndex {
        var piece = SearchIndex(cursor: .none)
        for number in range { piece.appendSlot(slot(number), bytes: bytes(number)) }
        return piece
    }

    /// Asks the stamps `saved` holds for `entries` on two threads, in their order, each card's
    /// directory watched first, so that a change after its stamp is asked is an event; a card
    /// past the answers' end (one half cut short by `stopped`) is asked by the reading.
    private static func askStamps(_ entries: [(key: String, value: Level)], in saved: SearchIndex, from source: CardReader,
                                  watcher: Inotify.Watcher, stopped: @escaping @Sendable () -> Bool) -> [Asked] {
        let ask = { @Sendable (part: ArraySlice<(key: String, value: Level)>) -> [Asked] in
            var answers: [Asked] = []
            answers.reserveCapacity(part.count)
            for (count, (id, level)) in part.enumerated() {
                if count & 255 == 255, stopped() { break }
                guard let found = saved.stamp(of: id), found.kept else {
                    answers.append(.notAsked)
                    continue
                }
                let watch = (try? watcher.watch(directory: source.path(of: id, in: level))) ?? -1
                answers.append(found.stamp.holds(id, in: level, from: source) ? .holds(found.number, watch: watch) : .changed(watch: watch))
            }
            return answers
        }
        // A second thread is worth its start for a few hundred cards and more.
        guard entries.count >= 512 else { return ask(entries[...]) }
        let half = entries.count / 2
        let second = Mutex<[Asked]?>(nil)
        if DetachedThread.start({ let part = ask(entries[half...]); second.withLock { $0 = part } }) != nil {
            second.withLock { $0 = ask(entries[half...]) }
        }
        var asked = ask(entries[..<half])
        // The other half's thread runs as long as this one's, give or take: a short wait.
        while true {
            if let part = second.withLock({ $0 }) {
                // A half cut short by `stopped` is shorter: the read gives up anyway.
                if asked.count == half { asked += part }
                return asked
            }
            usleep(200)
        }
    }

    /// What asking a card's stamp in the file gave, before the reading, with the card's watch
    /// (-1 when the watches ran out).
    enum Asked: Sendable {
        case notAsked
        /// The stamp of the file's slot of this number holds: the reading copies it, unlooked-up.
        case holds(Int, watch: Int32)
        case changed(watch: Int32)
    }

    /// A build's reading, in one part or a level at a time.
    private struct Reading {
        var built = Built()
        let saved: SearchIndex?
        /// Cards looked at, over all parts: `stopped` is asked every 256.
        var count = 0
        var taken = 0
        var readKept = 0

        init(cards: CardIndex, saved: SearchIndex?) {
            self.saved = saved
            built.cards = cards
            built.index.slotPieces.reserveCapacity(cards.count / SearchIndex.pieceSize + 1)
        }

        /// Reads `entries` into `built`, each card's directory watched before its stamp is asked
        /// or it is read, so that the index is installed watched: a watch added after, off the
        /// turn, left every search until then to ask the stamps of the cards not yet watched
        /// under the turn, 0.5 s at 100,000 cards for the search after the first.
        /// - Parameter asked: what each card's stamp in `saved` gave, with its watch, by its
        ///   place in `entries`, when asked already (past the end: asked here).
        /// - Returns: false when stopped.
        mutating func read(_ entries: some Sequence<(key: String, value: Level)>, from source: some CardSource,
                           watcher: Inotify.Watcher, asked: [Asked], stopped: () -> Bool) -> Bool {
            for (place, (id, level)) in entries.enumerated() {
                count += 1
                if count & 255 == 0, stopped() { return false }
                IndexBuildProbe.reading(id, root: source.root)
                var watch: Int32?
                if let saved {
                    var holding: Int?
                    switch place < asked.count ? asked[place] : .notAsked {
                    case .holds(let number, let watched):
                        holding = number
                        watch = watched
                    case .changed(let watched): watch = watched
                    case .notAsked:
                        if let found = saved.stamp(of: id), found.kept {
                            watch = (try? watcher.watch(directory: source.path(of: id, in: level))) ?? -1
                            if found.stamp.holds(id, in: level, from: source) { holding = found.number }
                        }
                    }
                    if let holding {
                        // Its level is the store's: a card moved by hand keeps its directory.
                        built.index.copy(holding, from: saved, level: level, watch: watch ?? -1)
                        taken += 1
                        continue
                    }
                }
                // The files' stamp, taken with the read (each status before what it stands for is
                // read): what tells a change of a card past the watches' limit, and of any card
                // while no daemon runs.
                let watched = watch ?? (try? watcher.watch(directory: source.path(of: id, in: level))) ?? -1
                let read = source.readSides(id, in: level, withText: true, stamping: true)
                let stamp = read.stamp?.encoded
                guard case .success(let (front, back)) = read.sides else {
                    built.unread.append(id)
                    continue
                }
                let conflicted = !read.conflictCopies.isEmpty || !(read.markedSides ?? []).isEmpty
                if conflicted {
                    built.notes[id] = Note(conflictCopies: read.conflictCopies, markedSides: read.markedSides ?? [])
                }
                let kept = !conflicted && !read.followsLink && read.clozeOf == nil
                if kept, stamp != nil { readKept += 1 }
                built.index.append(id, level: level, front: front.text, back: back.text, ownText: read.reverseOf == nil,
                                   tags: read.tags.tags, watch: watched, stamp: stamp, kept: kept)
            }
            return true
        }

        /// What was read, once every part is.
        mutating func finish() -> Built {
            // Written again when it would spare the next start reads: cards read it can keep, or
            // cards it holds that are gone.
            built.needsSaving = saved == nil || readKept > 0 || taken < saved?.slotCount ?? 0
            built.taken = taken
            built.index.shrink()
            return built
        }
    }

    /// Installs what a build read, under the box's turn, with the cursor opened at the build's
    /// snapshot, and brings it up to date with the changes since: the cards whose level changed
    /// or that the box edited, those whose directory had an event after its watch was added, and
    /// those the build could not read. What the reads found for the store is taken in first; the
    /// changed cards' reads again replace it.
    /// - Parameter stampsAsked: the stamps of the cards left unwatched (past the watches'
    ///   limit) were asked after the calling request began: this update does not ask them
    ///   again, the next one does.
    init(installing built: Built, cursor: ChangeFeed.Cursor, store: Store, stampsAsked: Bool = false) {
        self = built.index
        self.cursor = cursor
        store.takeNotes(built.notes, of: built.cards, unread: Set(built.unread))
        pending.formUnion(built.unread)
        update(store: store, askingStamps: !stampsAsked)
    }

    /// Takes in what changed since the last search: the cards the feed names and those whose
    /// directories had events.
    mutating func update(store: Store, askingStamps: Bool = true) {
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
        if unwatchedCount > 0, askingStamps {
            for number in 0..<slotCount where slot(number).watch < 0 && slot(number).level != Slot.dead {
                let id = String(decoding: bytes(number).prefix(Int(slot(number).idLength)), as: UTF8.self)
                if dirty.contains(id) { continue }
                IndexBuildProbe.reading(id, root: store.root)
                guard let level = store.level(of: id), let found = stamp(at: number), found.stamp.holds(id, in: level, from: store) else {
                    dirty.insert(id)
                    continue
                }
            }
        }
        guard !dirty.isEmpty else { return }
        for id in dirty {
            while let number = slotNumber(of: id) {
                garbage += slot(number).size
                if slot(number).watch < 0 { unwatchedCount -= 1 }
                change(number) { $0.level = Slot.dead }
            }
        }
        pending.removeAll()
        for id in dirty where store.level(of: id) != nil {
            index(id, store: store)
            readSinceSaved += 1
        }
        if garbage > arenaCount / 2 {
            compact()
            MemoryTrim.releaseFreedMemory()
        }
    }

    /// The number of the live slot holding `id`, if any.
    private func slotNumber(of id: String) -> Int? {
        guard tableSize > 0 else { return nil }
        var id = id
        return id.withUTF8 { bytes -> Int? in
            let mask = tableSize - 1
            var position = SearchIndex.hash(bytes) & mask
            while true {
                let entry = table[position >> SearchIndex.tableShift][position & (SearchIndex.tablePiece - 1)]
                guard entry >= 0 else { return nil }
                let number = Int(entry)
                let slot = slot(number)
                if slot.level != Slot.dead, Int(slot.idLength) == bytes.count,
                   slotPieces[number / SearchIndex.pieceSize].arena.withUnsafeBufferPointer({ all in
                       memcmp(all.baseAddress! + Int(slot.offset), bytes.baseAddress!, bytes.count) == 0
                   }) {
                    return number
                }
                position = (position + 1) & mask
            }
        }
    }

    /// Enters slot `number` in the table, making the table again when it is half full.
    private mutating func enter(_ number: Int) {
        if (tableEntries + 1) * 2 > tableSize {
            makeTable()
            return
        }
        enterUnchecked(number)
    }

    private mutating func enterUnchecked(_ number: Int) {
        let slot = slot(number)
        let mask = tableSize - 1
        var position = slotPieces[number / SearchIndex.pieceSize].arena.withUnsafeBufferPointer { all in
            SearchIndex.hash(UnsafeBufferPointer(rebasing: all[Int(slot.offset)..<Int(slot.offset) + Int(slot.idLength)]))
        } & mask
        let low = SearchIndex.tablePiece - 1
        while table[position >> SearchIndex.tableShift][position & low] >= 0 { position = (position + 1) & mask }
        table[position >> SearchIndex.tableShift][position & low] = Int32(number)
        tableEntries += 1
    }

    /// Makes the table anew from the live slots, at least 2.5 times as large as they need, so
    /// that a quarter as many again can be entered before it is made again.
    private mutating func makeTable() {
        let live = slotPieces.reduce(0) { count, piece in count + piece.slots.reduce(0) { $0 + ($1.level == Slot.dead ? 0 : 1) } }
        var size = 16
        while size * 2 < live * 5 { size *= 2 }
        tableSize = size
        table = [[Int32]](repeating: [Int32](repeating: -1, count: min(size, SearchIndex.tablePiece)),
                          count: max(1, size >> SearchIndex.tableShift))
        tableEntries = 0
        for number in 0..<slotCount where slot(number).level != Slot.dead { enterUnchecked(number) }
    }

    /// The store index's hash of an id's bytes, as an `Int` for masking.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        Int(truncatingIfNeeded: CardIndex.hash(bytes))
    }

    /// Reads one card under the box's turn and appends it, with a watch on its directory and
    /// its files' stamp, the watch first, as a build does. A damaged card (R21) is left out.
    private mutating func index(_ id: String, store: Store) {
        guard let level = store.level(of: id) else { return }
        let watch = (try? store.watcher.watch(directory: store.path(of: id, in: level))) ?? -1
        let (card, read) = store.cardRead(id, in: level, withText: true, stamping: true)
        guard case .success(let card) = card else { return }
        let front = card.front, back = card.back
        let kept = read.conflictCopies.isEmpty && (read.markedSides ?? []).isEmpty && !read.followsLink && read.clozeOf == nil
        append(id, level: level, front: front.text, back: back.text, ownText: read.reverseOf == nil,
               tags: read.tags.tags, watch: watch, stamp: read.stamp?.encoded, kept: kept)
    }

    /// Appends one card: its id, folded id, folded text sides (a side of other media is empty
    /// here) and tags.
    private mutating func append(_ id: String, level: Level, front: String?, back: String?, ownText: Bool,
                                 tags cardTags: [String], watch: Int32, stamp: [UInt8]?, kept: Bool) {
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
        var bytes = Array(id.utf8)
        if folded != id { bytes.append(contentsOf: folded.utf8) }
        bytes.append(contentsOf: front)
        bytes.append(contentsOf: back)
        bytes.append(contentsOf: tags)
        if let stamp {
            bytes.append(kept ? SearchIndex.keptStamp : SearchIndex.liveStamp)
            bytes.append(contentsOf: stamp)
        }
        appendSlot(Slot(offset: 0, idLength: UInt16(id.utf8.count),
                        foldedIDLength: folded == id ? 0 : UInt16(folded.utf8.count),
                        frontLength: UInt32(front.count), backLength: UInt32(back.count),
                        watch: watch, level: UInt8(level.rawValue), stampLength: stamp.map { UInt8($0.count + 1) } ?? 0,
                        tagsLength: UInt16(tags.count)), bytes: bytes)
        if watch < 0 { unwatchedCount += 1 }
        enter(slotCount - 1)
    }

    /// Appends slot `number` of `other` (the index's file), its bytes copied, in `level`.
    private mutating func copy(_ number: Int, from other: SearchIndex, level: Level, watch: Int32) {
        var copied = other.slot(number)
        copied.level = UInt8(level.rawValue)
        copied.watch = watch
        appendSlot(copied, bytes: other.bytes(number))
        if watch < 0 { unwatchedCount += 1 }
        enter(slotCount - 1)
    }

    /// Packs the live slots into new pieces, renumbered in their order.
    private mutating func compact() {
        var packed = SearchIndex(cursor: cursor)
        packed.slotPieces.reserveCapacity(slotPieces.count)
        for number in 0..<slotCount where slot(number).level != Slot.dead {
            packed.appendSlot(slot(number), bytes: bytes(number))
        }
        slotPieces = packed.slotPieces
        slotCount = packed.slotCount
        arenaCount = packed.arenaCount
        garbage = 0
        makeTable()
    }

    /// Gives back what growing the arrays left unused.
    private mutating func shrink() {
        for number in slotPieces.indices {
            slotPieces[number].arena = slotPieces[number].arena.withUnsafeBufferPointer { Array($0) }
            slotPieces[number].slots = slotPieces[number].slots.withUnsafeBufferPointer { Array($0) }
        }
        MemoryTrim.releaseFreedMemory()
    }

    /// Calls `body` with the slot and the bytes of each live card whose stamp may be kept on disk.
    func forEachKept(_ body: (Slot, ArraySlice<UInt8>) -> Void) {
        for piece in slotPieces {
            for slot in piece.slots where slot.level != Slot.dead && slot.stampLength > 0
                && piece.arena[slot.stampOffset] == SearchIndex.keptStamp {
                body(slot, piece.arena[Int(slot.offset)..<Int(slot.offset) + slot.size])
            }
        }
    }

    /// Calls `body` with each card's parts: of every slot, or of those in `range`.
    func forEach(in range: Range<Int>? = nil, _ body: (Parts) -> Void) {
        let range = range ?? 0..<slotCount
        var first = range.lowerBound
        while first < range.upperBound {
            let number = first / SearchIndex.pieceSize
            let start = number * SearchIndex.pieceSize
            let end = min(range.upperBound, start + SearchIndex.pieceSize)
            SearchIndex.forEach(in: slotPieces[number], numbered: start, slots: first - start..<end - start, body)
            first = end
        }
    }

    /// Calls `body` with the parts of `piece`'s slots `range`, the piece's first slot being
    /// number `start`.
    private static func forEach(in piece: SlotPiece, numbered start: Int, slots range: Range<Int>, _ body: (Parts) -> Void) {
        piece.arena.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            for (offset, slot) in zip(range, piece.slots[range]) where slot.level != Slot.dead {
                let id = base + Int(slot.offset)
                let foldedID = id + Int(slot.idLength)
                let front = foldedID + Int(slot.foldedIDLength)
                let back = front + Int(slot.frontLength)
                let tags = back + Int(slot.backLength)
                body(Parts(slot: slot, number: start + offset, id: UnsafeBufferPointer(start: id, count: Int(slot.idLength)),
                           foldedID: slot.foldedIDLength == 0 ? UnsafeBufferPointer(start: id, count: Int(slot.idLength))
                                                              : UnsafeBufferPointer(start: foldedID, count: Int(slot.foldedIDLength)),
                           front: UnsafeBufferPointer(start: front, count: Int(slot.frontLength)),
                           back: UnsafeBufferPointer(start: back, count: Int(slot.backLength)),
                           tags: UnsafeBufferPointer(start: tags, count: Int(slot.tagsLength))))
            }
        }
    }
}
