import LeitnerSystem

/// The notes in `notes/` (R30) → the deletion numbers of each one's text: what tells the box that
/// a note gained a number, whose card it then adds. A view of the store (docs/architecture.md):
///
/// - `notes/` and each note's directory are watched (inotify) before they are read, so that a
///   text written after the read — by hand, by an editor, by a sync tool's rename — is an event
///   (`ChangeFeed.Change.directory`) naming a watch the index knows;
/// - the box's own writes of a note are published at once (`ChangeFeed.Change.note`), so the
///   note's cards follow it in the same request;
/// - when the kernel dropped events, every note is read again;
/// - when the watches ran out (`Inotify.limit`), a note without one keeps a `CardStamp` of its
///   files, and `notes/` without one its `DirectoryStamp`, looked at again before each use.
///
/// Built from the open on by the notes' first look (`NoteLook`), on a thread of its own, and
/// installed by the first request (or built by it, when the look could not be made): a note left
/// without its cards by a crash, or put into `notes/` by hand while the daemon was down, gets them
/// then. A note whose text is as the daemon's last close recorded it (`NoteRecord`) is taken from
/// the record, not read.
///
/// A note renamed by hand (`mv notes/A notes/B`) is told by its directory: watching `notes/B`
/// gives the watch `notes/A` had, since inotify watches an inode once (`renames`).
struct NoteIndex {
    /// Each readable note's numbers; a note that cannot be read (no text, too large) has none.
    private(set) var numbersOf: [String: [Int]] = [:]
    /// The watch on `notes/`, -1 while it has none (there is no `notes/` yet).
    private var notesWatch: Int32 = -1
    /// The watch on each note's directory → the note.
    private var noteOfWatch: [Int32: String] = [:]
    /// Notes whose directory has no watch (the watches ran out) → their files as they were read.
    private var unwatched: [String: CardStamp] = [:]
    /// `notes/` as it was listed, while it has no watch: listed again when it changed.
    private var notesStamp: DirectoryStamp?
    /// Where the index is in the store's change feed.
    private(set) var cursor: ChangeFeed.Cursor
    /// Notes renamed by hand since the last `takeRenames`: the old id, the new.
    private var renames: [(from: String, to: String)] = []
    /// Notes that came into `notes/` since the last `takeArrivals` (not those the index was
    /// built with), each counted once it has numbers (a sync tool makes a note's directory
    /// before its text): in a synced store, a sync tool may still be delivering their cards.
    private var arrivals = Set<String>()

    /// The stamp of each note's directory and files as they were read (or found as `NoteRecord`
    /// recorded them); none for a note whose text or extra is a link (its target may change with
    /// no change of its own) or that could not be read.
    private(set) var stamps: [String: CardStamp] = [:]
    /// How many notes were read rather than taken from the record.
    private(set) var notesRead = 0
    /// The notes taken from the record rather than read → the cards of other names than `NOTE.cN`
    /// that held their numbers then; forgotten when the note is read again.
    private(set) var recordedHolders: [String: [Int: String]] = [:]
    /// The notes the first look found lacking a card for one of their numbers (`judgeHolders`, on
    /// its thread, against the store's index as the open left it), and those changed since; nil
    /// when not judged, or once a card has left the store since the look's cursor was opened
    /// (`update`): the first request then judges every note on the turn.
    private var judgedAtLook: Set<String>?
    /// The ids `judgeHolders` looks up, made before the record was given from the notes as read or
    /// taken from it then; nil when the judged record changed what was taken (`readAll`).
    private var holderChecks: HolderChecks?

    /// Reads every note, its cursor opened and `notes/` watched first; a note whose text is as
    /// `record` has it is known by its record, not read.
    /// - Returns: the index, and every note in it.
    static func build(store: Store, record: NoteRecord? = nil) -> (NoteIndex, Set<String>) {
        build(cursor: store.openCursor(), files: NoteFiles(store: store), stamps: record, record: { record })
    }

    /// Reads every note through `files`, `cursor` opened before: on the first look's thread
    /// (`NoteLook`), which tells the store of the watches once installed (`watchOfNote`). The
    /// record is asked for (`record`) once `notes/` and every note's directory are watched: the
    /// look starts before the store's scan, and the box judges the record against the log after
    /// it. Each note's files are compared with their stamp in `stamps` (the record as parsed,
    /// whose stamps the judged one keeps) right after the note's watch, so that the look's
    /// `stat`s run beside the scan too and the judged record is only looked up.
    static func build(cursor: ChangeFeed.Cursor, files: NoteFiles, stamps: NoteRecord?,
                      record: () -> NoteRecord?) -> (NoteIndex, Set<String>) {
        var index = NoteIndex(cursor: cursor)
        let notes = index.readAll(files: files, stamps: stamps, record: record)
        return (index, notes)
    }

    private init(cursor: ChangeFeed.Cursor) {
        self.cursor = cursor
    }

    /// The watch of `notes/` (nil without one) and of each note's directory, for the store's
    /// `NoteReads` when the first look's index is installed.
    var watches: (notes: Int32?, ofNote: [Int32: String]) { (notesWatch < 0 ? nil : notesWatch, noteOfWatch) }

    /// Takes in what changed since the last use.
    /// - Returns: the notes read again: changed, come or gone.
    mutating func update(store: Store) -> Set<String> {
        guard let changes = store.changes(since: cursor) else {
            store.closeCursor(cursor)
            let (built, notes) = NoteIndex.build(store: store)
            let gone = Set(numbersOf.keys).subtracting(notes)
            let arrived = notes.filter { !hasNumbers($0) && built.hasNumbers($0) }.union(arrivals)
            self = built
            arrivals = arrived
            return notes.union(gone)
        }
        // `notes/` made after the index was (by the box's first note, by hand or a sync tool).
        if notesWatch < 0, notesStamp == nil, FileSystem.exists(Store.notesDirectoryName, in: store.rootFD) {
            judgedAtLook = nil
            let known = Set(numbersOf.keys)
            let read = readAll(files: NoteFiles(store: store))
            arrivals.formUnion(read.filter { hasNumbers($0) })
            return read.union(known)
        }
        var dirty = Set<String>()
        if notesWatch < 0, let stamp = notesStamp, !NoteIndex.holds(stamp, store: store) {
            // Listed again: the notes that came or went.
            let known = Set(numbersOf.keys)
            let listed = list(files: NoteFiles(store: store))
            dirty.formUnion(listed.symmetricDifference(known))
        }
        for (note, stamp) in unwatched where !stamp.holds(Store.notesDirectoryName + "/" + note, in: store.rootFD) {
            dirty.insert(note)
        }
        for change in changes {
            switch change {
            case .note(let id):
                dirty.insert(id)
            case .directory(let entry, let watch) where watch == notesWatch:
                // A note came, went or was renamed: its directory is the entry.
                if !entry.isEmpty { dirty.insert(entry) }
            case .directory(let entry, let watch):
                if let note = noteOfWatch[watch], entry.isEmpty || Store.noteTextNames.contains(entry) { dirty.insert(note) }
            case .level(id: _, from: _, to: nil):
                // A card left the store: a note the first look found holding every number may not now.
                judgedAtLook = nil
            case .level, .written:
                break
            }
        }
        let files = NoteFiles(store: store)
        for note in dirty {
            let known = hasNumbers(note)
            learn(note, files: files)
            if !known, hasNumbers(note) { arrivals.insert(note) }
        }
        judgedAtLook?.formUnion(dirty)
        return dirty
    }

    /// Judges, on the first look's thread, which notes lack a card for one of their numbers in
    /// `cards`: the store's index once the store was open and repaired, a copy whose storage the
    /// store shares until it changes it. The first request looks again only at those and at the
    /// notes changed since (`takeJudgedAtLook`), so that 10,000 cards are not looked up on the turn;
    /// a card added since is found then, and a card gone since makes it judge every note (`update`).
    mutating func judgeHolders(in cards: CardIndex) {
        if let checks = holderChecks {
            holderChecks = nil
            judgedAtLook = checks.lacking(in: cards)
            return
        }
        var lacking = Set<String>()
        for (note, numbers) in numbersOf {
            let recorded = recordedHolders[note]
            if numbers.contains(where: { NoteIndex.firstLookHolder(of: note, number: $0, recorded: recorded, level: { cards[$0] }) == nil }) {
                lacking.insert(note)
            }
        }
        judgedAtLook = lacking
    }

    /// The notes the first request must judge itself (`judgeHolders`): nil when the look's
    /// judgement does not hold, and it judges every note. Asked once.
    mutating func takeJudgedAtLook() -> Set<String>? {
        defer { judgedAtLook = nil }
        return judgedAtLook
    }

    /// The card that holds number `number` of the note `note` at the first look after open, as far
    /// as is known without the link index: the one the record named (`recorded`, the note's
    /// `recordedHolders`), or the default `NOTE.cN`, when `level` finds it in the store.
    static func firstLookHolder(of note: String, number: Int, recorded: [Int: String]?, level: (String) -> Level?) -> String? {
        if let id = recorded?[number], level(id) != nil { return id }
        guard let id = Store.defaultClozeID(note: note, number: number), level(id) != nil else { return nil }
        return id
    }

    /// True when the note `note` was read with a deletion number.
    private func hasNumbers(_ note: String) -> Bool { !(numbersOf[note]?.isEmpty ?? true) }

    /// The notes renamed by hand since the last call, in the order they were seen.
    mutating func takeRenames() -> [(from: String, to: String)] {
        defer { renames = [] }
        return renames
    }

    /// The notes that came into `notes/` since the last call.
    mutating func takeArrivals() -> Set<String> {
        defer { arrivals = [] }
        return arrivals
    }

    /// Watches `notes/` and every note's directory, each compared with its stamp in `stamps` right
    /// after its watch, then reads each note whose files differ and takes the others from `stamps`,
    /// and only then asks for the record `record` gives (the box judges it against the log once
    /// the store is open): the judgement keeps every stamp, and leaves out only holders or the
    /// whole record, so what it changes is mended after — holders dropped, or every note taken
    /// from the record read after all. On the look's thread all of it runs beside the store's
    /// scan, and so do the ids its judgement of the notes' cards looks up (`HolderChecks`).
    /// - Returns: the notes in it.
    private mutating func readAll(files: NoteFiles, stamps recorded: NoteRecord? = nil, record: () -> NoteRecord? = { nil }) -> Set<String> {
        let path = files.source.root + "/" + Store.notesDirectoryName
        guard FileSystem.exists(Store.notesDirectoryName, in: files.source.rootFD) else { return [] }
        if let watch = try? files.watcher.watch(directory: path) {
            notesWatch = watch
            files.store?.notesDirectoryWatched(watch)
        }
        let names = list(files: files)
        // Each note with its watch, and its recorded entry when its files held as recorded.
        var watched: [(note: String, watch: Int32?, held: NoteRecord.Entry?)] = []
        watched.reserveCapacity(names.count)
        numbersOf.reserveCapacity(names.count)
        stamps.reserveCapacity(names.count)
        noteOfWatch.reserveCapacity(names.count)
        let notes = recorded == nil ? nil : try? FileDescriptor.openDirectory(Store.notesDirectoryName, relativeTo: files.source.rootFD)
        defer { notes?.close() }
        for name in names {
            if files.stopped() { break }
            let watch = watch(name, files: files)
            // Its `stat`s after its watch, as a read would be: a change after them is an event. A
            // note without a watch is read, and its stamp kept to be looked at again.
            var held: NoteRecord.Entry?
            if watch != nil, let notes, let entry = recorded?.entries[name], entry.stamp.holds(name, in: notes) { held = entry }
            watched.append((name, watch, held))
        }
        var recalled: [(note: String, watch: Int32?)] = []
        recalled.reserveCapacity(watched.count)
        for (name, watch, held) in watched {
            if files.stopped() { break }
            // A note renamed by hand onto a later name of the listing between their two watches:
            // the later watch was this one's, and forgot it (`watch`). Read again, the name would
            // stay as a note with no numbers and no watch.
            if let watch, noteOfWatch[watch] != name { continue }
            if let held {
                recall(name, held)
                recalled.append((name, watch))
                continue
            }
            read(name, watch: watch, files: files)
        }
        if recorded != nil, !files.stopped() { holderChecks = HolderChecks(numbersOf: numbersOf, recorded: recordedHolders) }
        let record = record()
        if let record, !record.leftOutHolders {
            // As parsed: what was taken from it stands.
        } else {
            holderChecks = nil
            for (name, watch) in recalled {
                if files.stopped() { break }
                if let entry = record?.entries[name] {
                    // The judgement left out holders a line of the log since names.
                    recordedHolders[name] = entry.holders.isEmpty ? nil : entry.holders
                } else {
                    // No record after all (of another log, or cut): read, as every note is then.
                    recordedHolders[name] = nil
                    read(name, watch: watch, files: files)
                }
            }
        }
        // Without the notes forgotten since the listing (renamed, or gone before their read).
        return names.filter { numbersOf[$0] != nil }
    }

    /// Takes the note `note` (a valid id, listed, its directory watched and its files found as
    /// recorded after the watch) from the record: a change after the `stat`s is an event.
    private mutating func recall(_ note: String, _ entry: NoteRecord.Entry) {
        numbersOf[note] = entry.numbers
        stamps[note] = entry.stamp
        recordedHolders[note] = entry.holders.isEmpty ? nil : entry.holders
    }

    /// The notes in `notes/`; its stamp taken first when it has no watch.
    private mutating func list(files: NoteFiles) -> Set<String> {
        var names = Set<String>()
        guard let notes = try? FileDescriptor.openDirectory(Store.notesDirectoryName, relativeTo: files.source.rootFD) else {
            notesStamp = nil
            return names
        }
        defer { notes.close() }
        if notesWatch < 0 { notesStamp = DirectoryStamp(notes) }
        try? FileSystem.forEachEntry(notes) { name, kind in
            if kind == .directory, CardID.isValid(name) { names.insert(name) }
        }
        return names
    }

    /// True when `notes/` is as `stamp` says, and was long enough ago to be trusted.
    private static func holds(_ stamp: DirectoryStamp, store: Store) -> Bool {
        guard stamp.isSettled(), let notes = try? FileDescriptor.openDirectory(Store.notesDirectoryName, relativeTo: store.rootFD) else {
            return false
        }
        defer { notes.close() }
        return DirectoryStamp(notes) == stamp
    }

    /// Reads one note's numbers, its directory watched first (or its files' stamp taken, when the
    /// watches ran out); forgets a note that is gone.
    private mutating func learn(_ note: String, files: NoteFiles) {
        guard CardID.isValid(note) else {
            unwatched[note] = nil
            recordedHolders[note] = nil
            stamps[note] = nil
            numbersOf[note] = nil
            return
        }
        read(note, watch: watch(note, files: files), files: files)
    }

    /// Watches the directory of the note `note` (a valid id), what was known of it forgotten: a
    /// change after this is an event. A watch that was another note's is that note renamed.
    /// - Returns: the watch; nil when the watches ran out.
    private mutating func watch(_ note: String, files: NoteFiles) -> Int32? {
        // Each asked only when it holds something: the first look watches thousands of notes into
        // an index still empty, and a removal hashes the name even then.
        if !unwatched.isEmpty { unwatched[note] = nil }
        if !recordedHolders.isEmpty { recordedHolders[note] = nil }
        if !stamps.isEmpty { stamps[note] = nil }
        guard let watch = try? files.watcher.watch(directory: files.notesPrefix + note) else {
            return nil
        }
        if let previous = noteOfWatch[watch], previous != note,
           !FileSystem.exists(Store.notesDirectoryName + "/" + previous, in: files.source.rootFD) {
            renames.append((previous, note))
            forget(previous, files: files)
        }
        noteOfWatch[watch] = note
        files.store?.noteWatched(note, by: watch)
        return watch
    }

    /// Reads the numbers of the note `note`, its directory watched (`watch`, nil when the watches
    /// ran out: its files' stamp is then kept to be looked at again).
    private mutating func read(_ note: String, watch: Int32?, files: NoteFiles) {
        let relative = Store.notesDirectoryName + "/" + note
        // Taken after the watch and before the read: a change after it is an event, and differs.
        let stamp = CardStamp.take(relative, in: files.source.rootFD)
        if watch == nil {
            guard let stamp else {
                forget(note, files: files)
                return
            }
            unwatched[note] = stamp
            files.store?.noteWatched(note, by: nil)
        }
        notesRead += 1
        switch files.source.readNote(note) {
        case .success(let read):
            numbersOf[note] = read.text.numbers
            if read.isKeepable { stamps[note] = stamp }
        case .failure:
            numbersOf[note] = []
        }
    }

    /// Forgets a note that is gone.
    private mutating func forget(_ note: String, files: NoteFiles) {
        files.store?.noteWatched(note, by: nil)
        numbersOf[note] = nil
        stamps[note] = nil
        recordedHolders[note] = nil
    }
}

/// The cards that may hold each number of each note at the first look after open, as
/// `NoteIndex.firstLookHolder` names them — the card the record named, and `NOTE.cN` — as UTF-8
/// in one buffer: made on the look's thread beside the store's scan, so that once the store's index
/// is given only their look-ups in it remain before the first request may take the look.
struct HolderChecks {
    private var bytes: [UInt8] = []
    /// Four per number, in the notes' order: the recorded holder's start in `bytes` and length,
    /// then `NOTE.cN`'s; a length of -1 for none. A number with a recorded holder has its
    /// `NOTE.cN` made only when that holder is not found (`lacking`): its second pair is the
    /// number and `later`.
    private var spans: [Int32] = []
    private static let later: Int32 = -2
    /// Each note with numbers, and how many.
    private var notes: [(note: String, numbers: Int)] = []

    init(numbersOf: [String: [Int]], recorded: [String: [Int: String]]) {
        notes.reserveCapacity(numbersOf.count)
        for (note, numbers) in numbersOf where !numbers.isEmpty {
            notes.append((note, numbers.count))
            let holders = recorded[note]
            for number in numbers {
                let holder = holders?[number]
                add(holder)
                // A recorded holder is almost always still there: its `NOTE.cN` is made only if not.
                if holder != nil, let small = Int32(exactly: number) {
                    spans.append(small)
                    spans.append(HolderChecks.later)
                } else {
                    addDefault(of: note, number: number)
                }
            }
        }
    }

    /// `NOTE.cN` made in place: an ASCII one is decided on its bytes (the common case, made
    /// without a string), any other as `Store.defaultClozeID` decides.
    private mutating func addDefault(of note: String, number: Int) {
        let start = bytes.count
        bytes.append(contentsOf: note.utf8)
        bytes.append(UInt8(ascii: "."))
        bytes.append(UInt8(ascii: "c"))
        bytes.append(contentsOf: String(number).utf8)
        if CardID.isValidASCII(bytes[start...]) {
            spans.append(Int32(start))
            spans.append(Int32(bytes.count - start))
        } else {
            bytes.removeSubrange(start...)
            add(Store.defaultClozeID(note: note, number: number))
        }
    }

    private mutating func add(_ id: String?) {
        guard let id else {
            spans.append(0)
            spans.append(-1)
            return
        }
        spans.append(Int32(bytes.count))
        bytes.append(contentsOf: id.utf8)
        spans.append(Int32(id.utf8.count))
    }

    /// The notes with a number neither of whose cards `cards` holds.
    func lacking(in cards: CardIndex) -> Set<String> {
        var lacking = Set<String>()
        bytes.withUnsafeBufferPointer { base in
            func holds(_ span: Int) -> Bool {
                let start = Int(spans[span]), length = Int(spans[span + 1])
                return length >= 0 && cards.level(ofBytes: UnsafeBufferPointer(rebasing: base[start..<start + length])) != nil
            }
            // `NOTE.cN` of a number whose recorded holder is gone, made now.
            func holdsDefault(_ span: Int, of note: String) -> Bool {
                guard spans[span + 1] == HolderChecks.later else { return holds(span) }
                guard let id = Store.defaultClozeID(note: note, number: Int(spans[span])) else { return false }
                return cards[id] != nil
            }
            var span = 0
            for (note, numbers) in notes {
                let end = span + 4 * numbers
                while span < end {
                    if !holds(span), !holdsDefault(span + 2, of: note) {
                        lacking.insert(note)
                        break
                    }
                    span += 4
                }
                span = end
            }
        }
        return lacking
    }
}

/// What the notes' index reads through: the store itself under the box's turn, or the first
/// look's own descriptors on its thread (`NoteLook`), which must not touch the store.
struct NoteFiles {
    let source: any CardSource
    let watcher: Inotify.Watcher
    /// The store to tell of each note's watch as it is made (`Store.noteWatched`); nil on the
    /// first look's thread, whose watches the store is told of when its index is installed.
    let store: Store?
    /// True once the look is to give up (its box closing): the index is then left unfinished,
    /// and dropped.
    let stopped: () -> Bool
    /// What a note's name is put after to watch its directory: `ROOT/notes/`, or nothing on a
    /// thread whose own working directory is `notes/` (`inNotes`).
    let notesPrefix: String

    init(store: Store) {
        source = store
        watcher = store.watcher
        self.store = store
        stopped = { false }
        notesPrefix = store.root + "/" + Store.notesDirectoryName + "/"
    }

    /// - Parameter inNotes: true when the calling thread's own working directory is the store's
    ///   `notes/` (`DetachedThread.enterOwnDirectory`): each note's watch is asked by its name,
    ///   a walk of one directory where the whole path walks every directory above the store too.
    init(reader: CardReader, watcher: Inotify.Watcher, inNotes: Bool = false, stopped: @escaping () -> Bool) {
        source = reader
        self.watcher = watcher
        store = nil
        self.stopped = stopped
        notesPrefix = inNotes ? "" : reader.root + "/" + Store.notesDirectoryName + "/"
    }
}
