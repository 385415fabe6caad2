import Glibc
import LeitnerSystem

/// Taking in what a sync tool does to the store as provisional (docs/sync.md, "A store a sync
/// tool is changing"): a card whose folder left its level is in transit, not deleted, until the
/// store is quiet; a hand move is logged at the time it was made.
extension Box {
    /// True when another machine's files are in the store: a sync tool may be at work in it. A
    /// browser device's (R35) are no sign of one: this daemon writes them.
    var isSynced: Bool { store.hasMachinePeers }

    /// True when nothing a sync tool touches (the level directories, the devices' files, the
    /// directories of the cards `ids`) changed for `BoxOptions.settleAfter`, by change times.
    func storeIsQuiet(_ ids: some Sequence<String>) -> Bool {
        let realNow = RealTime.nanoseconds
        return realNow - store.lastChange(of: ids) >= options.settleAfter * 1_000_000
    }

    /// True when neither `notes/`, the note's directory, nor the store's levels, devices' logs and
    /// the note's cards `cards` (`storeIsQuiet`) changed for `settleAfter`: a sync tool that
    /// delivered the note has delivered its cards too.
    func noteIsQuiet(_ note: String, cards: some Sequence<String>) -> Bool {
        storeIsQuiet(cards) && RealTime.nanoseconds - store.lastNoteChange(note) >= options.settleAfter * 1_000_000
    }

    /// How long a read waits for cards in transit (ms): a sync tool delivers a moved card's folder
    /// within moments of taking the old one away.
    static let transitWait: Int64 = 2_000

    /// A read (`Show`, `List`) while a sync tool is moving cards (docs/sync.md, "A store a sync
    /// tool is changing"): a card in transit is still the learner's card, so the read waits for
    /// it — taking in the store's changes every 50 ms, up to `transitWait` — until `done` says
    /// what it reads has arrived, rather than answer that the card does not exist, or leave it
    /// out. Only in a synced store; when the wait runs out, the read answers as the store is.
    /// A change of a card (`Grade`, `Move`) waits the same way, so that it acts on the card
    /// where it arrived, not on the folder the sync tool is emptying.
    /// - Returns: the moment of the last look (`begin`), for what the request logs.
    @discardableResult
    func awaitTransit(_ moment: Moment, until done: () -> Bool) throws(BoxError) -> Moment {
        guard isSynced else { return moment }
        var moment = moment
        let deadline = RealTime.nanoseconds + Box.transitWait * 1_000_000
        while !done() && RealTime.nanoseconds < deadline {
            usleep(50_000)
            moment = try begin()
        }
        return moment
    }

    /// True when card `id` can be read as it is, or is not a card in transit: not gone from its
    /// level, and not a part of a card while a sync tool is at work (`awaitTransit`).
    func hasArrived(_ id: String) -> Bool {
        if sync.inTransit[id] != nil { return false }
        guard store.level(of: id) != nil, !storeIsQuiet([id]) else { return true }
        return (try? store.card(id, withText: false)) != nil
    }

    /// True when card `id` of the open test cannot be shown now only because a sync tool is
    /// still at work: its folder is in transit, or holds a part of it while the store is not quiet.
    func isInTransit(_ id: String) -> Bool {
        if sync.inTransit[id] != nil { return true }
        return isSynced && store.level(of: id) != nil && !storeIsQuiet([id])
    }

    /// Takes in one hand change found in the store (R13). In a synced store a card gone from its
    /// level is in transit, and its coming back is one change from the level it left: nothing
    /// when it is the same. A copy found beside the card's other copy is a sync tool's delivery,
    /// not a person's move: said so (`origin=copy`), so that settling never ranks it.
    /// - Parameter atOpen: found at open, made while no daemon ran: logged at the open's time,
    ///   with when it was made (`made=`) however recent.
    func takeIn(_ change: HandChange, _ moment: Moment, atOpen: Bool = false) throws(BoxError) {
        var change = change
        if isSynced {
            switch change {
            case .disappeared(let id, let from):
                if sync.inTransit[id] == nil { sync.inTransit[id] = (from, moment.now) }
                if lastShown?.id == id { lastShown = nil }
                return
            case .appeared(let id, let to):
                if let left = sync.inTransit.removeValue(forKey: id) {
                    if left.level == to {
                        // Back where it was: nothing happened; only its damage is looked at again.
                        try apply(change, now: moment.now, log: false)
                        return
                    }
                    change = .moved(id: id, from: left.level, to: to)
                }
            case .moved(let id, _, _), .adopted(let id, _):
                sync.inTransit[id] = nil
            }
        }
        if let copies = store.duplicateLevels(of: change.id), case .moved(let id, let from, let to) = change, !copies.contains(from) {
            // The card left its level and is found in two others: a person's `mv` here while the
            // sync tool delivered another device's move. The copy that came whole is the
            // person's: logged as found by hand, then the change of the copy served.
            let whole = copies.filter { store.cameWhole(id, in: $0) }
            if whole.count == 1, let moved = whole.first {
                let person = HandChange.moved(id: id, from: from, to: moved)
                let times = handTime(of: person, now: moment.now)
                try apply(person, now: moment.now, log: true, origin: .hand, time: atOpen ? nil : times.logged, made: times.made)
                if moved != to { try apply(.moved(id: id, from: moved, to: to), now: moment.now, log: true, origin: .copy) }
                return
            }
        }
        // A copy line is logged now, and says when its copy was made: should the other copies go,
        // settling counts it as the change of the card's only folder (`SettlePlanner`).
        let origin: LogOrigin = !store.hasCopies(change.id) ? .hand : .copy
        let times = handTime(of: change, now: moment.now)
        try apply(change, now: moment.now, log: true, origin: origin, time: origin == .hand && !atOpen ? times.logged : nil,
                  made: times.made)
    }

    /// Once the store is quiet, a card still in transit was deleted: logged as found by hand, at
    /// the time it was first missed, and it leaves the test (R8).
    func finishTransit(_ moment: Moment) throws(BoxError) {
        guard !sync.inTransit.isEmpty, storeIsQuiet(sync.inTransit.keys) else { return }
        let gone = sync.inTransit.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        sync.inTransit.removeAll()
        for (id, left) in gone where store.level(of: id) == nil {
            try apply(.disappeared(id: id, from: left.level), now: moment.now, log: true,
                      time: max(left.since, store.log.latestTime ?? 0), made: left.since)
        }
    }

    /// The times of a card's arrival or move found by hand. `made`: the change time of its
    /// folder, which the `rename` of a person's `mv` set — or, for the copy a sync or a rename
    /// left behind when the card's other copy went, when that copy was made; nil when that is
    /// later than now (the daemon's clock may be another than the file system's: a test's).
    /// `logged`: the time of the line, `made` when that is recent, never earlier than the log's
    /// last line, so that the log stays in time order. Settling ranks the line by `made`, so
    /// that a change is ranked as it was made, however long after it was noticed (docs/sync.md).
    func handTime(of change: HandChange, now: Int64) -> (logged: Int64, made: Int64?) {
        let level: Level
        switch change {
        case .appeared(_, let to), .moved(_, _, let to): level = to
        case .disappeared, .adopted: return (now, nil)
        }
        guard let changed = store.changeTime(of: change.id, in: level), changed <= now else { return (now, nil) }
        guard now - changed <= max(60_000, 2 * options.settleAfter) else { return (now, changed) }
        return (max(changed, store.log.latestTime ?? changed), changed)
    }
}
