import Synchronization
import LeitnerSystem

/// The notes' first look (R30), made on a thread of its own from the open on, as the search
/// index's build is (docs/performance.md, "Cloze notes, media and the voice"): `notes/` listed
/// and watched, each note's directory watched, its files' `stat`s compared with what the daemon's
/// last close recorded (`NoteRecord`), and the notes that differ read — with nothing of the box
/// held, while the open and the first request go on. It starts before the store's scan of the
/// levels (`Store.init`'s `beforeScan`), and takes the watches while the scan runs; the record,
/// which the box judges against the log once the store is open and repaired, is parsed by the
/// look before its first watch (`parsedRecord`), judged by the box and given back (`give`). Each
/// note's files are compared with their stamp in the parsed record right after the note's watch,
/// beside the scan too (the judgement keeps every stamp, and drops only holders or the whole
/// record), and the look waits for the judged record only to take the notes that held from it.
///
/// Its cursor on the store's change feed is opened, under the turn, before the first watch: a note
/// changed after its look — by hand, by a sync tool, by the box itself — is an event of a watch the
/// look made, or a note the box published, and the first request takes both in (`NoteIndex.update`)
/// once it has installed the look's index (`take`). That request waits for the look when it is not
/// done, so it knows every note as the first look on the turn would have, and adds a number's card
/// or damages a card whose number is gone as that look did.
///
/// The box gives the look the store's index with the record (a copy sharing its storage), and the
/// look judges which notes lack a card for a number against it (`NoteIndex.judgeHolders`), so that
/// the first request looks up only those and the notes changed since, not every note's cards.
final class NoteLook: Sendable {
    private let reader: CardReader
    private let watcher: Inotify.Watcher
    private let cursor: ChangeFeed.Cursor
    /// The device's private state directory, where the record is (the store's own descriptor,
    /// open for the store's life).
    private let stateFD: FileDescriptor
    /// Rung once the look is done or given up.
    private let done: EventDescriptor
    /// Rung once the record is given, or the look is to give up.
    private let recordGiven: EventDescriptor
    /// Rung once the record's file is parsed.
    private let recordParsed: EventDescriptor
    private let state = Mutex(State())
    private let stopping = Atomic<Bool>(false)

    /// What the look found.
    struct Looked {
        var index: NoteIndex
        /// Every note in `notes/`.
        var notes: Set<String>
        /// Each watched note's watch, the other way round from the index's: made here, so that
        /// the store is told of 3,000 watches without 3,000 insertions on the turn.
        var watchOfNote: [String: Int32]
    }

    private struct State {
        /// Nil until done, or when the look gave up.
        var looked: Looked?
        var finished = false
        /// The record, once the box has read it (`give`): nil inside when there is none.
        var record: NoteRecord??
        /// The store's index as the open left it (`give`), until the look has judged the notes'
        /// cards against it: let go then, so that the store need not copy it when it changes.
        var cards: CardIndex?
        /// The record's file as the look parsed it, once parsed: nil inside when there is none.
        var parsed: (record: NoteRecord, check: UInt32)??
    }

    /// Opens the look's descriptors and cursor and starts its thread, under the box's turn, before
    /// the store's scan.
    /// - Returns: nil when the store has no `notes/`, or a descriptor or the thread cannot be
    ///   had (no cursor is left open): the first request then looks on the turn, as before.
    static func start(store: Store) -> NoteLook? {
        // A store without notes has nothing to look at: the first request finds `notes/` missing.
        guard FileSystem.exists(Store.notesDirectoryName, in: store.rootFD), let reader = try? CardReader(notesOf: store) else { return nil }
        guard let done = try? EventDescriptor() else {
            reader.close()
            return nil
        }
        guard let recordGiven = try? EventDescriptor() else {
            done.close()
            reader.close()
            return nil
        }
        guard let recordParsed = try? EventDescriptor() else {
            recordGiven.close()
            done.close()
            reader.close()
            return nil
        }
        let look = NoteLook(reader: reader, watcher: store.watcher, cursor: store.openCursor(), stateFD: store.stateFD, done: done,
                            recordGiven: recordGiven, recordParsed: recordParsed)
        if DetachedThread.start({ look.run() }) != nil {
            store.closeCursor(look.cursor)
            look.finish(nil)
            return nil
        }
        return look
    }

    private init(reader: CardReader, watcher: Inotify.Watcher, cursor: ChangeFeed.Cursor, stateFD: FileDescriptor,
                 done: EventDescriptor, recordGiven: EventDescriptor, recordParsed: EventDescriptor) {
        self.reader = reader
        self.watcher = watcher
        self.cursor = cursor
        self.stateFD = stateFD
        self.done = done
        self.recordGiven = recordGiven
        self.recordParsed = recordParsed
    }

    deinit {
        done.close()
        recordGiven.close()
        recordParsed.close()
    }

    private func run() {
        // First, so that the box, which judges it once the store is open, need not parse it.
        let parsed = NoteRecord.load(in: stateFD)
        state.withLock { $0.parsed = .some(parsed) }
        recordParsed.signal()
        // The thread's own working directory made `notes/`, so that its thousands of watches are
        // asked by name (docs/performance.md, "Cloze notes, media and the voice").
        let notesFD = try? FileDescriptor.openDirectory(Store.notesDirectoryName, relativeTo: reader.rootFD)
        let inNotes = notesFD.map { DetachedThread.enterOwnDirectory($0) } ?? false
        notesFD?.close()
        let files = NoteFiles(reader: reader, watcher: watcher, inNotes: inNotes, stopped: { self.stopping.load(ordering: .relaxed) })
        var (index, notes) = NoteIndex.build(cursor: cursor, files: files, stamps: parsed?.record, record: { self.waitForRecord() })
        if let cards = state.withLock({ state in defer { state.cards = nil }; return state.cards }), !stopping.load(ordering: .relaxed) {
            index.judgeHolders(in: cards)
        }
        var watchOfNote: [String: Int32] = [:]
        watchOfNote.reserveCapacity(index.watches.ofNote.count)
        for (watch, note) in index.watches.ofNote { watchOfNote[note] = watch }
        finish(stopping.load(ordering: .relaxed) ? nil : Looked(index: index, notes: notes, watchOfNote: watchOfNote))
    }

    private func finish(_ looked: Looked?) {
        reader.close()
        state.withLock { state in
            state.looked = looked
            state.finished = true
            state.cards = nil
        }
        done.signal()
    }

    /// Gives the look the record the box read once the store was open (nil: there is none, or it
    /// is of another log), which the look waits for before comparing the notes with it, and the
    /// store's index then (`cards`), which it judges the notes' cards against.
    func give(record: NoteRecord?, cards: CardIndex) {
        state.withLock { state in
            state.record = .some(record)
            // A look already finished (given up) keeps no copy.
            if !state.finished { state.cards = cards }
        }
        recordGiven.signal()
    }

    /// The record's file as the look parsed it (`NoteRecord.load`), waited for: the box judges it
    /// against the log (`NoteRecord.read(store:parsed:)`) and gives the look the result.
    func parsedRecord() -> (record: NoteRecord, check: UInt32)? {
        while true {
            if let parsed = state.withLock({ $0.parsed }) { return parsed }
            // Interrupted by a signal: asked again.
            _ = try? Poll.readable([recordParsed.descriptor], milliseconds: nil)
        }
    }

    /// The record, once given; nil at once when the look is to give up.
    private func waitForRecord() -> NoteRecord? {
        while true {
            if let record = state.withLock({ $0.record }) { return record }
            if stopping.load(ordering: .relaxed) { return nil }
            // Interrupted by a signal: asked again.
            _ = try? Poll.readable([recordGiven.descriptor], milliseconds: nil)
        }
    }

    /// Waits until the look is done.
    func waitUntilDone() {
        while !state.withLock({ $0.finished }) {
            // Interrupted by a signal: asked again.
            _ = try? Poll.readable([done.descriptor], milliseconds: nil)
        }
    }

    /// What the look found, once done (waited for), the store told of its watches; nil when it
    /// gave up, its cursor closed then: the caller looks on the turn.
    func take(store: Store) -> Looked? {
        waitUntilDone()
        guard let looked = state.withLock({ state in defer { state.looked = nil }; return state.looked }) else {
            store.closeCursor(cursor)
            return nil
        }
        let watches = looked.index.watches
        store.notesWatched(notes: watches.notes, noteOfWatch: watches.ofNote, watchOfNote: looked.watchOfNote)
        return looked
    }

    /// Asks the look to give up soon (within a note) and waits for it: its box is closing, and
    /// its thread must add no watch to a watcher the store is about to close.
    func stop(store: Store) {
        abandon()
        store.closeCursor(cursor)
    }

    /// Asks the look to give up and waits for it, its cursor left to the store: the store's open
    /// failed after the look started, and is about to close the watcher.
    func abandon() {
        stopping.store(true, ordering: .relaxed)
        recordGiven.signal()
        waitUntilDone()
    }
}
