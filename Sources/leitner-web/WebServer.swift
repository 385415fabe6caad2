import Glibc
import LeitnerSystem
import LeitnerWeb
import Synchronization

/// The accepting loop, on the main thread: one `poll` on the listener and the signals (an
/// `AcceptLoop`, as the daemon's, which pauses accepting when out of descriptors); each
/// connection is served on a thread of its own (`HTTPConnection`), at most `maxConnections` at
/// once, counted in a `ConnectionTable` as the daemon counts its own: when all are open, the
/// idlest or slowest closes to make room for the new one, so that silent or dribbling
/// connections cannot keep a learner out. One client address holds at most `addressShare` of
/// them: past it, a new connection from that address takes the place of that address's own
/// idlest, or waits in a `WaitingLine` while all of those are busy, so that a stranger on the
/// network cannot hold every place while the learner's phone, from another address, still gets
/// in, and a burst of page loads from one address is served in turn. When none may make room yet, the new ones wait in the
/// kernel's listen backlog, unaccepted, until one does or a connection ends: a burst of page
/// loads is served in turn, not refused. On SIGTERM or SIGINT it stops accepting, the idle
/// connections close, and the busy ones get `stopLimit` to finish their response.
///
/// The AnkiConnect door (`[Web] AnkiConnect=`) is a second server of this kind with a listener,
/// a responder and a table of its own, its loop on a thread of its own: the signals are the main
/// server's, which stops it with `requestStop` when it stops itself.
final class WebServer: Sendable {
    static let stopLimit: Duration = .seconds(3)
    /// While every connection is busy, how often the loop looks whether one has become idle.
    static let fullRecheck: Duration = .milliseconds(50)
    /// The connections; nothing is known of a browser's end but its socket.
    typealias Table = ConnectionTable<Void>

    let listener: ServiceListener
    let responder: any HTTPResponder
    let limits: HTTPLimits
    let maxConnections: Int
    /// How many connections one client address may hold: a browser opens six to a server at
    /// most, and a stranger gets a quarter of the places when there are more than 24.
    let addressShare: Int
    let signals: SignalDescriptor
    /// The accept loop's doorbell, rung when a connection ends.
    private let doorbell: Wake
    private let table: Table
    /// Set by another thread's `requestStop`, which then rings the doorbell.
    private let stopRequested = Atomic(false)
    /// Set when `run` has returned: its connections are closed or past `stopLimit`.
    private let finished = Atomic(false)

    init(listener: ServiceListener, responder: any HTTPResponder, limits: HTTPLimits, maxConnections: Int, signals: SignalDescriptor) throws(Errno) {
        self.listener = listener
        self.responder = responder
        self.limits = limits
        self.maxConnections = maxConnections
        addressShare = min(maxConnections, max(6, maxConnections / 4))
        self.signals = signals
        doorbell = try Wake()
        table = Table(listenerWake: doorbell)
    }

    /// Asks the server's loop, running on another thread, to stop as a signal would.
    func requestStop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        doorbell.ring()
    }

    /// Whether `run` has returned.
    var hasFinished: Bool { finished.load(ordering: .sequentiallyConsistent) }

    /// Serves until a stop signal, or `requestStop`. - Returns: the exit status.
    func run() -> Int32 {
        defer { finished.store(true, ordering: .sequentiallyConsistent) }
        let loop = AcceptLoop(listener: listener.descriptor, signals: signals, doorbell: doorbell, log: WebLog)
        var line = WaitingLine()
        while true {
            let woken: [AcceptLoop.WakeUpSource]
            // While every place is busy they wait on, as the listen backlog does.
            line.serve(admit: { waiting in
                guard table.room(limit: maxConnections) == .now else { return false }
                guard let wake = try? Wake() else {
                    refuseBusy(waiting.socket, "no descriptor is left for this connection")
                    return true
                }
                return admit(waiting.socket, wake: wake, share: waiting.share) != .waits
            }, expire: {
                refuseBusy($0.socket, "\(addressShare) connections from \($0.share.address) stayed busy for \(WaitingLine.patience.logDescription)")
            })
            // A connection parking is not rung: while none is idle, look again in a while.
            var (accepting, until): (Bool, MonotonicTime?) = switch table.room(limit: maxConnections) {
            case .now: (true, nil)
            case .at(let time): (false, time)
            case .none: (false, .now + Self.fullRecheck)
            }
            if !line.isEmpty { until = .earliest(until, .now + Self.fullRecheck) }
            do {
                woken = try loop.wait(until: until, accepting: accepting)
            } catch {
                WebLog.error("cannot wait for connections: \(error), stopping")
                return finish(1, loop, &line)
            }
            for source in woken {
                switch source {
                case .doorbell:
                    if stopRequested.load(ordering: .sequentiallyConsistent) { return finish(0, loop, &line) }
                case .signal:
                    if shouldStop(loop) { return finish(0, loop, &line) }
                case .newConnection:
                    // Non-blocking sockets: `HTTPConnection` sends each response by its deadline.
                    loop.acceptPending(nonBlocking: true, while: { table.room(limit: maxConnections) == .now }) { socket, wake in
                        serve(socket, wake: wake, line: &line)
                    }
                }
            }
        }
    }

    private func shouldStop(_ loop: AcceptLoop) -> Bool {
        while let signal = try? loop.nextSignal() {
            if signal == SIGTERM || signal == SIGINT { return true }
        }
        return false
    }

    /// Serves a new connection on a thread of its own; or puts it in the waiting `line` while its
    /// address holds its share, all busy (503 when too many of that address wait already); or
    /// answers 503 when no thread can be started, or when the connection that was to make room
    /// became busy since the loop looked.
    /// - Returns: true when it keeps `wake` (served).
    private func serve(_ socket: FileDescriptor, wake: Wake, line: inout WaitingLine) -> Bool {
        // A peer gone already (ENOTCONN) has no address, and its first read ends it.
        guard let address = (try? Socket.peerHost(socket)).flatMap({ $0 }) else {
            return admit(socket, wake: wake, share: nil) == .served
        }
        let share = Table.Share(address: address, limit: addressShare)
        if !line.holds(address) {
            switch admit(socket, wake: wake, share: share) {
            case .served: return true
            case .refused: return false
            case .waits: break
            }
        }
        if !line.add(socket, share: share) {
            refuseBusy(socket, "\(addressShare) connections from \(address) are busy, and \(WaitingLine.perAddress) more wait")
        }
        return false
    }

    /// What `admit` did with a connection.
    private enum Admitted { case served, refused, waits }

    /// Serves `socket` on a thread of its own when the table admits it; refuses it with 503 when
    /// the table is full or no thread starts; leaves it to wait, untouched, when its address is
    /// over its share.
    private func admit(_ socket: FileDescriptor, wake: Wake, share: Table.Share?) -> Admitted {
        let entry: Table.Entry
        switch table.admit(peer: (), limit: maxConnections, share: share, wake: wake) {
        case .full:
            refuseBusy(socket)
            return .refused
        case .overShare:
            return .waits
        case .admitted(let admitted, _):
            entry = admitted
        }
        let connection = HTTPConnection(socket: socket, entry: entry, table: table, responder: responder, limits: limits)
        if let failure = DetachedThread.start({ connection.serve() }) {
            table.remove(entry)
            refuseBusy(socket, "no thread could be started for this connection")
            WebLog.warning("cannot start a thread for a connection: \(Errno(rawValue: failure))")
            return .refused
        }
        return .served
    }

    /// 503 to one connection too many, saying why, without waiting for it to read: its request
    /// is not read.
    private func refuseBusy(_ socket: FileDescriptor, _ reason: String? = nil) {
        let why = reason ?? "\(maxConnections) connections are busy (MaxConnections=)"
        var response = HTTPResponse(status: 503, headers: SecurityHeaders.headers() + [("Content-Type", "text/plain; charset=utf-8"), ("Retry-After", "1")],
                                    body: Array("503 Service Unavailable: \(why)\n".utf8))
        response.closes = true
        try? socket.setNonBlocking()
        _ = try? Socket.sendSome(socket, response.bytes(keepAlive: false), from: 0)
        socket.close()
    }

    /// Stops accepting, closes the idle connections and waits (at most `stopLimit`) for the busy
    /// ones, woken each time one ends.
    private func finish(_ status: Int32, _ loop: AcceptLoop, _ line: inout WaitingLine) -> Int32 {
        listener.descriptor.close()
        line.empty { $0.socket.close() }
        let deadline = MonotonicTime.now + Self.stopLimit
        table.stop(deadline: deadline)
        while table.count > 0 && MonotonicTime.now < deadline {
            // The doorbell (a connection ended) and the signals only: nothing more is accepted,
            // and a second SIGTERM is read and changes nothing.
            guard let woken = try? loop.wait(until: deadline, accepting: false) else { break }
            if woken.contains(.signal) { _ = shouldStop(loop) }
        }
        return status
    }
}
