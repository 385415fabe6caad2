/// What `Box` asks the store, so that it reaches the store's state only through methods: how it
/// is kept (a packed index, dictionaries by id) stays the store's own, and the box changes it
/// only through the store's changes (adding, moving, editing, deleting, `refresh`).
extension Store {
    /// The card's level, nil when the box has no such card.
    func level(of id: String) -> Level? { levelOf[id] }

    /// Every card's level: a snapshot to walk (the index's storage is shared until the store
    /// changes it).
    var cardLevels: CardIndex { levelOf }

    /// True when the card was found damaged (R21) and not mended since.
    func isDamaged(_ id: String) -> Bool { damaged[id] != nil }

    /// The cards found damaged (R21) → the reason.
    var damagedCards: [String: String] { damaged }

    /// True when the card's directory is in more than one level (a sync tool's copy, R13).
    func hasCopies(_ id: String) -> Bool { copies[id] != nil }

    /// The levels the card's directory is in, the served one included, when it is in more than
    /// one; nil otherwise (R13).
    func duplicateLevels(of id: String) -> Set<Level>? { copies[id] }

    /// The cards whose directory is in more than one level.
    var cardsWithCopies: some Collection<String> { copies.keys }

    /// The entries of the level directories that are neither cards nor loose files, and the
    /// duplicate card directories, by path.
    var strayProblems: [StoreProblem] { strays.values.sorted { $0.path < $1.path } }

    /// The level directories that are unusable now, by path.
    var unusableLevels: [StoreProblem] { levelProblems.values.sorted { $0.path < $1.path } }

    /// True when another device has written to the store: it is synced (docs/sync.md).
    var hasPeers: Bool { !peers.isEmpty }

    /// The size of the device `name`'s review log as last looked at, nil when unknown.
    func peerLogSize(_ name: String) -> Int? { peers[name]?.logSignature?.size }
}
