import Glibc
import Synchronization
import LeitnerSystem

/// The search index or the tag table, read outside the box's turn (docs/daemon.md, "Indexes
/// built off the turn"): reading every card of 100,000 takes seconds, and while the box's one
/// owner held the turn for it, every other call waited. With `BoxOptions.buildsIndexesApart` the
/// box, under the turn, only takes a snapshot — every card's level, descriptors of the build's
/// own (`CardReader`) — and opens a cursor on the store's change feed (`ChangeFeed`); a thread reads the
/// cards with no turn held (`run`); the next call that needs the index, under the turn again,
/// installs it and reads again what changed since the cursor (`SearchIndex.init(installing:)`,
/// `TagTable.init(installing:)`). Only the calls that need it wait for it, and all of them for
/// the one build: the first to `join` runs it, the others are rung when it is done.
///
/// The search index's build begins from its file (`SearchIndexFile`): the cards whose stamps
/// hold are taken from it unread, each watched first, and once the waiting calls are rung, a
/// thread of the build's own writes the file again when that spares the next start reads.
public final class IndexBuild: Sendable {
    enum Kind: Sendable {
        case search
        case tags
    }

    /// What the build read; `stopped` when it gave up (the box closing).
    enum Outcome: Sendable {
        case search(SearchIndex.Built)
        case tags(TagTable)
        case stopped
    }

    /// What the caller of `join` is to do.
    public enum Part: Sendable {
        /// Run the build (`run`): nobody has.
        case build
        /// Wait: another thread runs it, and calls the `ring` given to `join` when it is done.
        case wait
        /// Nothing: it is done.
        case done
    }

    private struct State {
        var claimed = false
        var outcome: Outcome?
        var waiters: [@Sendable () -> Void] = []
        /// The cards the tag table's build read unwatched, watched since (`TagTable.watch`).
        var tagsWatched: [TagTable.Watched] = []
        /// True once the work after the build (the file, the watches) is done or given up.
        var finished = false
        /// When the build began asking the cards' stamps.
        var began: MonotonicTime?
        /// The level of each piece of the search index read so far (`SearchIndex.PieceRead`),
        /// in order, and where its slots are in the whole index.
        var pieceSlots: [(level: Level, slots: Range<Int>)] = []
        /// The pieces not yet taken by the search that began the build (`takePiece`), by
        /// number; let go once the build is done, its `outcome` holding them all.
        var pieces: [Int: SearchIndex] = [:]
        /// The pieces of the tag table's build not yet taken by the listing that began it
        /// (`takeTagPiece`), by number, and how many were read; kept only for a build run apart,
        /// which a listing began (`runApart`), since none else takes them.
        var apart = false
        var tagPieces: [Int: TagTable.Piece] = [:]
        var tagPiecesRead = 0
        /// True once the build is installed: the pieces not taken by then were let go
        /// (`dropTagPieces`).
        var tagPiecesDropped = false
        /// True once a search took this build's pieces (`joinPieces`): they are taken once.
        var piecesJoined = false
        /// The search index's file as the build read it before its first card (nil when there
        /// is none, or it is not one this build can use), once `savedRead`; let go once the
        /// build is done. A search answers from it first (`savedFile`).
        var saved: SearchIndex?
        var savedRead = false
    }

    let kind: Kind
    /// True for the search index's build the daemon begins as it opens a store searched before
    /// (`Box.buildSearchIndexAhead`): no search began it, so one that finds it reading takes its
    /// pieces only on the terms of `SearchScan`'s joining.
    let ahead: Bool
    /// The store's changes since the snapshot: the installed view takes them, and keeps the cursor.
    let cursor: ChangeFeed.Cursor
    private let reader: CardReader
    private let watcher: Inotify.Watcher
    /// The device's private directory, where the search index's file is; nil when it could not
    /// be opened (the build then reads every card, and writes nothing).
    private let stateDirectory: FileDescriptor?
    private let state = Mutex(State())
    private let stopping = Atomic<Bool>(false)

    /// Takes the snapshot and opens its cursor, under the box's turn.
    /// - Throws: `storeFailure` when the build's descriptors cannot be opened; no cursor is
    ///   opened then.
    init(_ kind: Kind, store: Store, ahead: Bool = false) throws(BoxError) {
        self.kind = kind
        self.ahead = ahead
        reader = try CardReader(store: store)
        watcher = store.watcher
        stateDirectory = kind == .search ? try? FileDescriptor.openDirectory(".", relativeTo: store.stateFD) : nil
        cursor = store.openCursor()
    }

    deinit {
        // A build nobody ran (its box closed first) still holds its descriptors.
        if !state.withLock({ $0.claimed }) { closeDescriptors() }
    }

    private func closeDescriptors() {
        reader.close()
        stateDirectory?.close()
    }

    /// Says what the caller is to do: run the build, wait to be rung, or nothing.
    /// - Parameter ring: called, on the building thread, once the build is done, when the
    ///   answer is `wait`.
    public func join(ring: @escaping @Sendable () -> Void) -> Part {
        state.withLock { state in
            if state.outcome != nil { return .done }
            if !state.claimed {
                state.claimed = true
                return .build
            }
            state.waiters.append(ring)
            return .wait
        }
    }

    /// True once the build has read every card, or given up.
    public var isDone: Bool { state.withLock { $0.outcome != nil } }

    /// Reads every card of the snapshot, on the calling thread, holding nothing of the box;
    /// then rings those waiting. Called once, by the thread `join` told to.
    public func run() {
        // Claimed here too, for the callers that run it without `join` (the bench, the tests):
        // the descriptors are then closed by the run, never again by `deinit`.
        state.withLock { state in
            state.claimed = true
            state.began = .now
        }
        let stopped = { @Sendable in self.stopping.load(ordering: .relaxed) }
        let outcome: Outcome = switch kind {
        case .search:
            readSearchIndex(stopped: stopped)
        case .tags:
            TagTable.read(reader.cards, from: reader, stopped: stopped) { piece in
                state.withLock { state in
                    guard state.apart else { return }
                    state.tagPieces[state.tagPiecesRead] = piece
                    state.tagPiecesRead += 1
                }
            }.map { .tags($0) } ?? .stopped
        }
        let waiters = state.withLock { state -> [@Sendable () -> Void] in
            state.outcome = outcome
            state.pieces = [:]
            state.saved = nil
            defer { state.waiters = [] }
            return state.waiters
        }
        for ring in waiters { ring() }
        switch outcome {
        case .search(let built) where built.needsSaving:
            // The caller goes on with its call: the file is this thread's.
            if DetachedThread.start({ self.afterwards(built) }) != nil { afterwards(built) }
        case .tags(let table) where !table.unwatched.isEmpty:
            if DetachedThread.start({ self.afterwards(table) }) != nil { afterwards(table) }
        default:
            finish()
        }
    }

    /// The search index's build: its file read first, and kept for the searches that answer
    /// from it while the cards are asked (`savedFile`), then every card, a piece at a time.
    private func readSearchIndex(stopped: @escaping @Sendable () -> Bool) -> Outcome {
        let saved = stateDirectory.flatMap { SearchIndexFile.load(in: $0) }
        state.withLock { state in
            state.saved = saved
            state.savedRead = true
        }
        return SearchIndex.read(reader.cards, from: reader, watcher: watcher, saved: saved, stopped: stopped) { read in
            state.withLock { state in
                state.pieces[state.pieceSlots.count] = read.piece
                state.pieceSlots.append((read.level, read.slots))
            }
        }.map { .search($0) } ?? .stopped
    }

    /// Runs the build on a thread of its own, claimed here so that no call runs it too: for a
    /// search that gives each level's lines once the build has read that level (`SearchScan`),
    /// or a listing by tag its cards (`CardListing`).
    /// When no thread can be made it runs on this one, under the box's turn, as a build did
    /// before builds ran apart.
    func runApart() {
        state.withLock { state in
            state.claimed = true
            state.apart = true
        }
        if DetachedThread.start({ self.run() }) != nil { run() }
    }

    /// Claims the search index's pieces for the one search that takes them, as they are read
    /// (`takePiece` lets each go): true for the first to ask, while the build reads.
    func joinPieces() -> Bool {
        state.withLock { state in
            guard !state.piecesJoined, state.outcome == nil else { return false }
            state.piecesJoined = true
            return true
        }
    }

    /// The numbers of the pieces either build reads `level` in (`takePiece`, `takeTagPiece`).
    func pieces(of level: Level) -> Range<Int> { SearchIndex.pieces(of: level, in: reader.cards) }

    /// Every card's level when the build began: the index its pieces' entries are of.
    var cards: CardIndex { reader.cards }

    /// The level of the cards of piece `number` (`takePiece`), nil past the last.
    func level(ofPiece number: Int) -> Level? {
        var before = 0
        for (level, count) in zip(Level.allCases, SearchIndex.pieceCounts(in: reader.cards)) {
            before += count
            if number < before { return level }
        }
        return nil
    }

    /// True when `takePiece(number)` would not wait: the piece is read, or the build is done.
    func hasRead(piece number: Int) -> Bool {
        state.withLock { number < $0.pieceSlots.count || $0.outcome != nil }
    }

    /// The search index's file as the build read it before its first card, for a search that
    /// answers from it while the build asks the cards' stamps (`SearchScan`): waits until the
    /// build has read it; nil when there is none (or not one it can use), or the build is done.
    func savedFile() -> SearchIndex? {
        while true {
            let now = state.withLock { state -> SearchIndex?? in
                if state.outcome != nil { return .some(nil) }
                return state.savedRead ? .some(state.saved) : nil
            }
            if let now { return now }
            // Read before the first piece: some milliseconds at most.
            usleep(500)
        }
    }

    /// What the search index's build gave for a piece (`takePiece`).
    enum Piece {
        /// Read: the cards of `level` that are `slots` of `index` (all its slots when nil).
        case read(Level, index: SearchIndex, slots: Range<Int>?)
        /// The build is done, with fewer pieces. `unread`: the cards it did not find where its
        /// snapshot had them (moved while it read, or damaged).
        case done(unread: [String])
        /// The build gave up (its box closing).
        case stopped
    }

    /// Waits until the search index's build has read piece `number` (from 0, in the order of
    /// level and id), or is done, or gave up. Taken: the piece is let go here.
    func takePiece(_ number: Int) -> Piece {
        while true {
            let now = state.withLock { state -> Piece? in
                if number < state.pieceSlots.count {
                    let (level, slots) = state.pieceSlots[number]
                    if let piece = state.pieces.removeValue(forKey: number) { return .read(level, index: piece, slots: nil) }
                    if case .search(let built) = state.outcome { return .read(level, index: built.index, slots: slots) }
                    return .stopped
                }
                guard let outcome = state.outcome else { return nil }
                if case .search(let built) = outcome { return .done(unread: built.unread) }
                return .stopped
            }
            if let now { return now }
            // A piece takes milliseconds: a short sleep costs the search less than a wake-up
            // the build would make for each piece.
            usleep(500)
        }
    }

    /// What the tag table's build gave for a piece (`takeTagPiece`).
    enum TagPiece {
        case read(TagTable.Piece)
        /// The build is done, with fewer pieces.
        case done
        /// The build gave up (its box closing).
        case stopped
    }

    /// Waits until the tag table's build has read piece `number` (from 0, in the order of level
    /// and id: the search index's pieces, `pieces(of:)`), or is done, or gave up. Taken: the
    /// piece is let go here. A piece let go by the install (`dropTagPieces`) is as one the build
    /// gave up before reading: the listing takes the rest from the installed table.
    func takeTagPiece(_ number: Int) -> TagPiece {
        while true {
            let now = state.withLock { state -> TagPiece? in
                if let piece = state.tagPieces.removeValue(forKey: number) { return .read(piece) }
                guard let outcome = state.outcome else { return nil }
                if case .tags = outcome, !state.tagPiecesDropped || number >= state.tagPiecesRead { return .done }
                return .stopped
            }
            if let now { return now }
            // As `takePiece`: a piece takes milliseconds.
            usleep(500)
        }
    }

    /// Lets go of the tag pieces not taken, once the build is installed: a listing of one level
    /// never takes the others', one that stopped at its limit or whose client left takes no more,
    /// and each held a second copy of its cards' tags until the build was freed.
    func dropTagPieces() {
        state.withLock { state in
            state.tagPieces = [:]
            state.tagPiecesDropped = true
        }
    }

    /// The tag pieces read and not yet taken nor let go.
    var tagPiecesHeld: Int { state.withLock { $0.tagPieces.count } }

    /// Watches the cards the tag table's build read unwatched, and reads their tags again.
    private func afterwards(_ table: TagTable) {
        TagTable.watch(table, cards: reader.cards, from: reader, watcher: watcher,
                       stopped: { self.stopping.load(ordering: .relaxed) }) { watched in
            state.withLock { $0.tagsWatched += watched }
        }
        finish()
    }

    /// Writes the index's file, the build having read cards it may keep: off the box's turn and
    /// after the waiting calls are rung, since it serves only the next start.
    private func afterwards(_ built: SearchIndex.Built) {
        if let stateDirectory { try? SearchIndexFile.save(built.index, in: stateDirectory) }
        finish()
    }

    private func finish() {
        closeDescriptors()
        // The build's buffers are freed on this thread: give them back.
        MemoryTrim.releaseFreedMemory()
        state.withLock { $0.finished = true }
    }

    /// When the build began reading; nil before.
    var began: MonotonicTime? { state.withLock { $0.began } }

    /// True once the build and what follows it (the file written, the watches added) are done.
    public var isFinished: Bool { state.withLock { $0.finished } }

    /// The cards the tag table's build read unwatched, watched since the last ask (taken: a
    /// second ask gives the ones watched after it), and whether that was the last of them:
    /// every card watched, or the watching given up.
    /// - Returns: also the `generation` of the table the build read, whose entries they name.
    func takeTagsWatched() -> (cards: [TagTable.Watched], generation: UInt64?, last: Bool) {
        state.withLock { state in
            defer { state.tagsWatched = [] }
            guard case .tags(let table) = state.outcome else { return (state.tagsWatched, nil, state.finished) }
            return (state.tagsWatched, table.generation, state.finished)
        }
    }

    /// Asks the build to give up soon (within 256 cards): its box is closing, or the daemon
    /// stopping.
    public func stop() { stopping.store(true, ordering: .relaxed) }

    /// What the build read, once done; nil while it runs.
    var outcome: Outcome? { state.withLock { $0.outcome } }
}

#if LEITNER_TEST_HOOKS
/// The tests' hold on a build: a function called on the reading thread before each card is read,
/// for the builds of one store (and before each card the tag table's build watches after it,
/// `TagTable.watch`, each unwatched card whose `tags` the tag table reads
/// again, `TagTable.update`, or whose stamp the search index asks again, `SearchIndex.update`,
/// and each card the outline table learns, `OutlineTable`) (tests of several suites build at once, each in a store of its
/// own). It may change the store, or wait, as another thread would meanwhile.
public enum IndexBuildProbe {
    private static let observers = Mutex<[String: @Sendable (String) -> Void]>([:])

    /// Calls `body` with each card's id before the card is read by a build of the store at
    /// `root` (its canonical path); nil stops.
    public static func observe(storeRoot root: String, _ body: (@Sendable (String) -> Void)?) {
        observers.withLock { $0[root] = body }
    }

    static func reading(_ id: String, root: String) {
        observers.withLock { $0[root] }?(id)
    }
}
#else
/// Without the `TestHooks` trait the probe is compiled away.
enum IndexBuildProbe {
    @inline(__always)
    static func reading(_ id: String, root: String) {}
}
#endif
