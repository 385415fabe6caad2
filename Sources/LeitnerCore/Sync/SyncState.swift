/// What the box keeps between requests about a store a sync tool changes (docs/sync.md): the
/// cards to settle once the store is quiet, the cards in transit, and how far each other
/// device's log has been read. Only the last is on disk (`PeerReadMarks`); an open finds the
/// rest again from the store.
struct SyncState {
    /// Cards that may need settling after a sync (`Box.settle`): found in two levels, or arrived
    /// or moved by hand, or deleted in another device's log.
    var settlePending = Set<String>()
    /// The last settling pass that left cards waiting: the store's last change then, and the
    /// cards. Nothing is read again until one of them differs.
    var lastSettlePass: (change: Int64, candidates: Set<String>)?
    /// Cards whose folder left its level in a synced store, not yet known deleted: the level
    /// each left and when it was first missed (docs/sync.md, "A store a sync tool is changing").
    var inTransit: [String: (level: Level, since: Int64)] = [:]
    /// How far each other device's log has been looked through for deleted cards.
    var peerScanOffsets: [String: Int] = [:]
    /// With `BoxOptions.looksApartFrom`: the looks through other devices' logs under way or done
    /// and not yet taken, by device (`PeerLook`); their lines are past `peerScanOffsets`.
    var peerLooks: [String: PeerLook] = [:]
    /// For each browser that sent kept grades (R35): the greatest sequence number this device's
    /// log took (`move origin=kept`) and the browser's log holds, and the browser log's last time, read from the logs at its
    /// first grade after an open.
    var keptTaken: [String: (own: Int, browser: Int, lastTime: Int64?)] = [:]
    /// What the kept grades read of every device's log, for the cards browsers grade (R35).
    var keptLines: SettleLines?
    /// The marks on disk, as loaded at open or last saved: where a log is read from after a
    /// start, and what need not be written again.
    var savedMarks = PeerReadMarks()
    /// Real time (ns) before which the cards waiting to settle cannot be quiet long enough: the
    /// last change seen among them plus `settleAfter`. Until then a request looks at none of
    /// their directories (a change can only make the wait longer).
    var quietNotBefore: Int64?
    /// With `BoxOptions.settlesApartFrom`: the reading of every device's log that the next settling
    /// pass takes its lines from, under way or done.
    var settleRead: SettleRead?
}
