import Synchronization

/// The connections being served, shared by a server's accept loop and its connections' threads
/// (docs/daemon.md, "Connections"; leitner-web's are counted the same way, docs/web.md): for
/// `MaxConnections=` and the daemon's `ExitIdleAfter=`, to choose which idle connection makes
/// room for a new one, and to stop them all at shutdown. `Peer` is what a program knows of the
/// other end: the daemon its credentials, for its log and its methods.
///
/// A connection is idle while its thread waits for a new message with nothing buffered: nothing
/// of it is in flight. Only then may it be asked to close, and its thread checks for that
/// request, by the same exchange on its entry that marks it busy, before it reads anything more,
/// so that a connection closed to make room never had a call read, let alone carried out.
package final class ConnectionTable<Peer: Sendable>: Sendable {
    /// One connection, as its thread and the listener both see it.
    package final class Entry: Sendable {
        /// Its number, for the log.
        package let number: Int
        package let peer: Peer
        /// Its thread's doorbell.
        package let wake: Wake
        /// Since when it has waited with nothing in flight (`MonotonicTime.nanoseconds`), or
        /// `busy`, or `leaving` once asked to make room. Its own thread changes it at every
        /// message (`park`, `unpark`) and the listener only to make it leave, each by one
        /// compare-and-exchange, so that 50 busy connections do not queue on the table's lock
        /// twice a message (a profile of 50 clients: half the daemon's time waiting for it).
        fileprivate let idle = Atomic<Int64>(Entry.busy)

        fileprivate static var busy: Int64 { .min }
        fileprivate static var leaving: Int64 { .min + 1 }

        init(number: Int, peer: Peer, wake: Wake) {
            self.number = number
            self.peer = peer
            self.wake = wake
        }

        /// Since when it is idle; nil while busy or leaving.
        fileprivate var idleSince: MonotonicTime? {
            let value = idle.load(ordering: .acquiring)
            return value == Entry.busy || value == Entry.leaving ? nil : MonotonicTime(nanoseconds: value)
        }

        fileprivate var isLeaving: Bool { idle.load(ordering: .acquiring) == Entry.leaving }

        /// Sets its state to `value` unless it was asked to leave. - Returns: false if it was.
        fileprivate func mark(_ value: Int64) -> Bool {
            var current = idle.load(ordering: .acquiring)
            while current != Entry.leaving {
                let (exchanged, original) = idle.compareExchange(expected: current, desired: value,
                                                                 ordering: .acquiringAndReleasing)
                if exchanged { return true }
                current = original
            }
            return false
        }
    }

    /// What a connection is asked to do when it is about to wait, or has waited, while idle.
    package enum Request: Equatable, Sendable {
        /// Go on serving.
        case serve
        /// Close: it was the longest idle when a new connection needed its place.
        case makeRoom
        /// Close: the daemon is stopping.
        case stop
    }

    /// What became of a new connection.
    package enum Admission {
        /// Served, as the connection `Entry`; `replacing` names the idle one asked to make room.
        case admitted(Entry, replacing: Entry?)
        /// `MaxConnections=` are open and none is idle: refused.
        case full
        /// Its address holds its share already, and none of those is idle: refused, so that one
        /// address cannot hold every place (leitner-web's cap per client address).
        case overShare
    }

    /// How many connections one client address may hold (leitner-web's peers on the network;
    /// the daemon's local peers have none): past it, a new one from that address takes the
    /// place of that address's own idlest, never another address's.
    package struct Share: Sendable {
        /// The client's address, numeric.
        package var address: String
        package var limit: Int

        package init(address: String, limit: Int) {
            self.address = address
            self.limit = limit
        }
    }

    private struct Slot {
        let entry: Entry
        /// Its client's address, when the connection has a share.
        let address: String?
        /// Since when it has waited with nothing in flight; nil while busy or leaving.
        var idleSince: MonotonicTime? { entry.idleSince }
        /// Asked to make room: no longer counted, closing.
        var leaving: Bool { entry.isLeaving }
    }

    private struct State {
        var slots: [Int: Slot] = [:]
        /// Slots that are not leaving.
        var serving = 0
        var total = 0
        /// When the last connection ended (or the daemon started), for `ExitIdleAfter=`.
        var emptySince: MonotonicTime? = .now
        /// Set at shutdown: idle connections close, busy ones finish their reply by then.
        var stopDeadline: MonotonicTime?
    }

    private let state = Mutex(State())
    /// Whether `stop` was called: read by every connection after every message, so kept apart
    /// from `state`, whose lock 50 busy connections would otherwise take once more per message
    /// (a profile of 50 clients calling GetInfo showed them queueing on it). Set under the lock,
    /// before the connections are rung, so that a woken connection sees it.
    private let stopping = Atomic<Bool>(false)
    /// The listener's doorbell: rung when a connection ends.
    private let listenerWake: Wake

    package init(listenerWake: Wake) {
        self.listenerWake = listenerWake
    }

    /// When a new connection can be admitted.
    package enum Room: Equatable, Sendable {
        /// Now: a place is free, or an idle connection can make room.
        case now
        /// At this time, when the first idle connection may make room (`park`'s `since`).
        case at(MonotonicTime)
        /// When a connection ends or parks: none is idle now.
        case none
    }

    /// Whether `admit` would admit a new connection now, and else when it could.
    package func room(limit: Int) -> Room {
        state.withLock { state in
            guard state.serving >= limit else { return .now }
            guard let since = state.slots.values.compactMap({ $0.leaving ? nil : $0.idleSince }).min() else { return .none }
            return since <= .now ? .now : .at(since)
        }
    }

    /// Registers a new connection. When its address holds its `share`, that address's idlest
    /// connection is asked to make room, and when none of those is idle (or none yet may make
    /// room) the new one is refused; else when `limit` are served, the one idle the longest is
    /// asked to make room, and when none is idle (or none yet may make room) the new one is refused.
    package func admit(peer: Peer, limit: Int, share: Share? = nil, wake: Wake) -> Admission {
        state.withLock { state in
            var replaced: Entry?
            let now = MonotonicTime.now
            let serving = state.slots.values.filter { !$0.leaving }
            let own = share.map { share in serving.filter { $0.address == share.address } } ?? []
            if let share, own.count >= share.limit {
                guard let oldest = Self.makeRoom(from: own, at: now, in: &state) else { return .overShare }
                replaced = oldest
            } else if state.serving >= limit {
                guard let oldest = Self.makeRoom(from: serving, at: now, in: &state) else { return .full }
                replaced = oldest
            }
            state.total += 1
            let entry = Entry(number: state.total, peer: peer, wake: wake)
            state.slots[entry.number] = Slot(entry: entry, address: share?.address)
            state.serving += 1
            state.emptySince = nil
            return .admitted(entry, replacing: replaced)
        }
    }

    /// Asks the one of `slots` idle the longest that may make room at `now` to close, no longer
    /// counted. - Returns: its entry; nil when none is idle.
    private static func makeRoom(from slots: [Slot], at now: MonotonicTime, in state: inout State) -> Entry? {
        var candidates = slots.compactMap { slot in slot.idleSince.flatMap { $0 <= now ? (slot.entry, $0) : nil } }
        candidates.sort { $0.1 < $1.1 }
        for (entry, since) in candidates {
            // Only if it is still idle since then: its thread marks itself busy by the same
            // exchange before it reads anything more (`unpark`), so that exactly one of the two
            // wins, and a connection asked to leave never had a call read.
            let (left, _) = entry.idle.compareExchange(expected: since.nanoseconds, desired: Entry.leaving,
                                                       ordering: .acquiringAndReleasing)
            guard left else { continue }
            state.serving -= 1
            entry.wake.ring()
            return entry
        }
        return nil
    }

    /// Marks `entry` idle, about to wait for its next message with nothing buffered, unless it
    /// is to close.
    /// - Parameter since: from when it may make room, the older the sooner: now for a daemon's
    ///   connection; a web connection's is later while it may be about to send its first request,
    ///   and earlier while it dribbles a request head, so that the slowest head makes room as the
    ///   idlest connection does (nothing of a head has been acted on; docs/web.md).
    package func park(_ entry: Entry, since: MonotonicTime = .now) -> Request {
        guard entry.mark(max(since.nanoseconds, Entry.leaving + 1)) else { return .makeRoom }
        // `stop` sets this before it rings every connection: one parked before it is rung.
        return isStopping ? .stop : .serve
    }

    /// Marks `entry` busy again, before it reads what arrived, unless it was asked meanwhile to
    /// close (then it reads nothing more).
    package func unpark(_ entry: Entry) -> Request {
        guard entry.mark(Entry.busy) else { return .makeRoom }
        return isStopping ? .stop : .serve
    }

    /// Forgets an ended connection and wakes the listener (for `ExitIdleAfter=` and shutdown).
    package func remove(_ entry: Entry) {
        state.withLock { state in
            guard let slot = state.slots.removeValue(forKey: entry.number) else { return }
            if !slot.leaving { state.serving -= 1 }
            if state.slots.isEmpty { state.emptySince = .now }
        }
        listenerWake.ring()
    }

    /// Asks every connection to stop: idle ones close now, busy ones once their reply is sent
    /// or `deadline` has passed.
    package func stop(deadline: MonotonicTime) {
        state.withLock { state in
            state.stopDeadline = deadline
            stopping.store(true, ordering: .releasing)
            for slot in state.slots.values { slot.entry.wake.ring() }
        }
    }

    /// The shutdown's deadline, once the daemon is stopping.
    package var stopDeadline: MonotonicTime? { state.withLock { $0.stopDeadline } }

    package var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// The connections whose threads have not ended, leaving ones included.
    package var count: Int { state.withLock { $0.slots.count } }

    /// How long no connection has been open; nil while one is.
    package var emptyFor: Duration? {
        state.withLock { $0.emptySince }.map { MonotonicTime.now - $0 }
    }
}
