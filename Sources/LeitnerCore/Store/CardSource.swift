import LeitnerSystem

/// Where a card's files are read from: the store itself, or a `CardReader`, which an index built
/// outside the box's turn reads through while other threads change the store. The reading
/// (`readSides`, `openSide`, `tagsOnly`) is written once, against this, so that both read by
/// the same rules (R21, R22).
protocol CardSource {
    /// The store's canonical absolute path: a link's target is judged against it (R22).
    var root: String { get }
    /// The store's root, from which a link inside the store is followed one component at a time.
    var rootFD: FileDescriptor { get }
    /// A level's directory.
    /// - Throws: `storeFailure` when the level has none.
    func fd(_ level: Level) throws(BoxError) -> FileDescriptor
    /// A level's directory, nil when it has none.
    func openFD(_ level: Level) -> FileDescriptor?
    /// The level a card is in, nil for no such card: where a reverse card's original is read.
    func level(of id: String) -> Level?
    /// The absolute path of a card directory, for messages and watches.
    func path(of id: String, in level: Level) -> String
    /// The note `note` for its cloze cards' sides (`readNote`); the store keeps what it read while
    /// nothing of the note changes (`NoteReads`).
    func noteForCards(_ note: String) -> Result<NoteRead, CardDamage>
    /// Keeps the sides of the cloze card `link` with its note's read while the store keeps that
    /// (`NoteReads`), so that the next `Show` of it renders nothing.
    func keepShown(_ sides: (front: Side, back: Side), of link: ClozeOf)
}

extension Store: CardSource {}

/// Descriptors of its own on the store's root and level directories, and a snapshot of every
/// card's level: what an index build reads through outside the box's turn, never touching the
/// store's mutable state (its level descriptors are closed and reopened, its index changed, by
/// whichever thread holds the box). Each directory is opened anew from the store's (`openat`
/// of `.`, `O_NOFOLLOW`): the same directories, with no descriptor shared with the store, so that
/// the store closing its own (the daemon stopping) never closes one being read. A card's level
/// in the snapshot may be stale by the time it is read; the build's cursor on the store's change
/// feed (`ChangeFeed`) has every card whose level changes, and those are read again under the turn.
struct CardReader: CardSource, Sendable {
    let root: String
    let rootFD: FileDescriptor
    /// By `Level.rawValue - 1`; nil where the store had none or it could not be opened.
    private let levelFDs: [FileDescriptor?]
    /// Every card's level when the build began.
    let cards: CardIndex

    /// Opens the descriptors from the store's: done under the box's turn.
    /// - Throws: `storeFailure` naming the store's root when its own cannot be opened (no
    ///   descriptor left): the caller then builds under the turn, the old way.
    init(store: Store) throws(BoxError) {
        root = store.root
        rootFD = try Store.failing(.open, store.root, doing: "cannot open the store for the index build") { () throws(Errno) in
            try FileDescriptor.openDirectory(".", relativeTo: store.rootFD)
        }
        // A level the store cannot open now is read by nobody: its cards are read under the turn
        // once it is back (its rescan marks them).
        levelFDs = Level.allCases.map { level in
            store.openFD(level).flatMap { try? FileDescriptor.openDirectory(".", relativeTo: $0) }
        }
        cards = store.cardLevels
    }

    /// The root's descriptor alone, no level and no card: what the notes' first look reads notes
    /// through (`NoteLook`), which would otherwise hold the store's index and make its first
    /// change copy it whole.
    init(notesOf store: Store) throws(BoxError) {
        root = store.root
        rootFD = try Store.failing(.open, store.root, doing: "cannot open the store for the notes' first look") { () throws(Errno) in
            try FileDescriptor.openDirectory(".", relativeTo: store.rootFD)
        }
        levelFDs = Level.allCases.map { _ in nil }
        cards = CardIndex()
    }

    func fd(_ level: Level) throws(BoxError) -> FileDescriptor {
        guard let fd = openFD(level) else { throw .storeFailure(path: root + "/" + level.name, reason: "not open") }
        return fd
    }

    func openFD(_ level: Level) -> FileDescriptor? { levelFDs[level.rawValue - 1] }

    func level(of id: String) -> Level? { cards[id] }

    func path(of id: String, in level: Level) -> String { root + "/" + level.name + "/" + id }

    func noteForCards(_ note: String) -> Result<NoteRead, CardDamage> { readNote(note) }

    /// An index build keeps no note: it reads each once.
    func keepShown(_ sides: (front: Side, back: Side), of link: ClozeOf) {}

    /// Closes the descriptors, once the build is done.
    func close() {
        for case let fd? in levelFDs { fd.close() }
        rootFD.close()
    }
}
