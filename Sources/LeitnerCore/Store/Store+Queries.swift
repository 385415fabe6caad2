import LeitnerSystem

/// What `Box` asks the store about one card, so that it reaches the store's indexes only through
/// methods: how they are kept (a packed index, dictionaries by id) stays the store's own.
extension Store {
    /// The card's level, nil when the box has no such card.
    func level(of id: String) -> Level? { levelOf[id] }

    /// True when the card was found damaged (R21) and not mended since.
    func isDamaged(_ id: String) -> Bool { damaged[id] != nil }

    /// True when the card's directory is in more than one level (a sync tool's copy, R13).
    func hasCopies(_ id: String) -> Bool { copies[id] != nil }

    /// Every card's level: a snapshot to walk (the index's storage is shared until the store
    /// changes it).
    var cardLevels: CardIndex { levelOf }

    /// Watches card directories for the views that follow their cards' files.
    var watcher: Inotify.Watcher { inotify.watcher }
}
