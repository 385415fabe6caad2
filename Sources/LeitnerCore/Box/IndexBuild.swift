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
    }

    let kind: Kind
    /// The store's changes since the snapshot: the installed view takes them, and keeps the cursor.
    let cursor: ChangeFeed.Cursor
    private let reader: CardReader
    private let watcher: Inotify.Watcher
    private let state = Mutex(State())
    private let stopping = Atomic<Bool>(false)

    /// Takes the snapshot and opens its cursor, under the box's turn.
    /// - Throws: `storeFailure` when the build's descriptors cannot be opened; no cursor is
    ///   opened then.
    init(_ kind: Kind, store: Store) throws(BoxError) {
        self.kind = kind
        reader = try CardReader(store: store)
        watcher = store.watcher
        cursor = store.openCursor()
    }

    deinit {
        // A build nobody ran (its box closed first) still holds its descriptors.
        if !state.withLock({ $0.claimed }) { reader.close() }
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
        let stopped = { self.stopping.load(ordering: .relaxed) }
        let outcome: Outcome = switch kind {
        case .search: SearchIndex.read(reader.cards, from: reader, watcher: watcher, stopped: stopped).map { .search($0) } ?? .stopped
        case .tags: TagTable.read(reader.cards, from: reader, watcher: watcher, stopped: stopped).map { .tags($0) } ?? .stopped
        }
        reader.close()
        // The build's buffers are freed on this thread: give them back.
        MemoryTrim.releaseFreedMemory()
        let waiters = state.withLock { state -> [@Sendable () -> Void] in
            state.outcome = outcome
            defer { state.waiters = [] }
            return state.waiters
        }
        for ring in waiters { ring() }
    }

    /// Asks the build to give up soon (within 256 cards): its box is closing, or the daemon
    /// stopping.
    public func stop() { stopping.store(true, ordering: .relaxed) }

    /// What the build read, once done; nil while it runs.
    var outcome: Outcome? { state.withLock { $0.outcome } }
}

#if LEITNER_TEST_HOOKS
/// The tests' hold on a build: a function called on the reading thread before each card is read,
/// for the builds of one store (and before each card the outline table learns, `OutlineTable`) (tests of several suites build at once, each in a store of its
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
