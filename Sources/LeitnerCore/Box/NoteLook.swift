import Synchronization
import LeitnerSystem

/// The notes' first look (R30), made on a thread of its own from the open on, as the search
/// index's build is (docs/performance.md, "Cloze notes, media and the voice"): `notes/` listed
/// and watched, each note's directory watched, its files' `stat`s compared with what the daemon's
/// last close recorded (`NoteRecord`), and the notes that differ read — with nothing of the box
/// held, while the open and the first request go on.
///
/// Its cursor on the store's change feed is opened, under the turn, before the first watch: a note
/// changed after its look — by hand, by a sync tool, by the box itself — is an event of a watch the
/// look made, or a note the box published, and the first request takes both in (`NoteIndex.update`)
/// once it has installed the look's index (`take`). That request waits for the look when it is not
/// done, so it knows every note as the first look on the turn would have, and adds a number's card
/// or damages a card whose number is gone as that look did.
final class NoteLook: Sendable {
    private let reader: CardReader
    private let watcher: Inotify.Watcher
    private let cursor: ChangeFeed.Cursor
    private let record: NoteRecord?
    /// Rung once the look is done or given up.
    private let done: EventDescriptor
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
    }

    /// Opens the look's descriptors and cursor and starts its thread, under the box's turn.
    /// - Returns: nil when the store has no `notes/`, or a descriptor or the thread cannot be
    ///   had (no cursor is left open): the first request then looks on the turn, as before.
    static func start(store: Store, record: NoteRecord?) -> NoteLook? {
        // A store without notes has nothing to look at: the first request finds `notes/` missing.
        guard FileSystem.exists(Store.notesDirectoryName, in: store.rootFD), let reader = try? CardReader(notesOf: store) else { return nil }
        guard let done = try? EventDescriptor() else {
            reader.close()
            return nil
        }
        let look = NoteLook(reader: reader, watcher: store.watcher, cursor: store.openCursor(), record: record, done: done)
        if DetachedThread.start({ look.run() }) != nil {
            store.closeCursor(look.cursor)
            look.finish(nil)
            return nil
        }
        return look
    }

    private init(reader: CardReader, watcher: Inotify.Watcher, cursor: ChangeFeed.Cursor, record: NoteRecord?,
                 done: EventDescriptor) {
        self.reader = reader
        self.watcher = watcher
        self.cursor = cursor
        self.record = record
        self.done = done
    }

    deinit { done.close() }

    private func run() {
        let files = NoteFiles(reader: reader, watcher: watcher, stopped: { self.stopping.load(ordering: .relaxed) })
        let (index, notes) = NoteIndex.build(cursor: cursor, files: files, record: record)
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
        }
        done.signal()
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
        stopping.store(true, ordering: .relaxed)
        waitUntilDone()
        store.closeCursor(cursor)
    }
}
