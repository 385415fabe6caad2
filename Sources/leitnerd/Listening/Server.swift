import Glibc
import Synchronization
import LeitnerSystem

/// The Varlink server (docs/daemon.md, "Concurrency"). `run()` is the listener: it runs on the
/// main thread, waits in its `AcceptLoop`'s one `poll` for a new connection, a signal and its
/// doorbell, accepts, starts one thread per connection, and returns only at shutdown. On
/// SIGTERM or SIGINT it stops accepting, asks every connection to stop (idle ones close, busy
/// ones send the reply in hand), and gives them `stopLimit`; then it closes the box and returns.
/// A reload (SIGHUP) that must reopen the box runs on a thread of its own, so that the listener
/// never waits for the box.
final class Server: Sendable {
    /// How long the daemon may take to stop, from SIGTERM to exit, whatever its clients or a
    /// call stuck in the kernel do.
    static let stopLimit: Duration = .seconds(5)
    /// How long past the stop's deadline the listener waits for connection threads that gave up
    /// a reply at that same deadline to log why and close: both wake at the deadline, and the
    /// listener must not exit first.
    static let endGrace: Duration = .milliseconds(500)

    private let box: BoxOwner
    private let dispatcher: Dispatcher
    private let settings: Mutex<DaemonSettings>
    /// Reads the configuration again (SIGHUP).
    private let loadSettings: @Sendable () throws -> DaemonSettings
    private let wake: Wake
    private let listener: ServiceListener
    private let signals: SignalDescriptor
    private let table: ConnectionTable<Socket.PeerCredentials>
    private let budget = MessageBudget()
    /// A stop asked for by another thread: a client's `Stop()`, or a reload that lost the box.
    private let stopRequest: StopRequest
    /// Whether a reload thread runs, and whether another SIGHUP came meanwhile.
    private let reloads = Mutex((running: false, again: false))

    /// - Parameter wake: the listener's doorbell (the main thread's).
    init(listener: ServiceListener, box: BoxOwner, settings: DaemonSettings, wake: Wake, signals: SignalDescriptor,
         loadSettings: @escaping @Sendable () throws -> DaemonSettings) {
        self.listener = listener
        self.signals = signals
        self.box = box
        stopRequest = StopRequest(listenerWake: wake)
        dispatcher = Dispatcher(box: box, stop: stopRequest)
        self.settings = Mutex(settings)
        self.loadSettings = loadSettings
        self.wake = wake
        table = ConnectionTable(listenerWake: wake)
    }

    /// Serves until a stop signal, `Stop()`, `ExitIdleAfter=`, or a reload that lost the box; then stops
    /// the connections and closes the box, each within `stopLimit` of the stop.
    /// - Returns: the exit status: 0, or 1 when the box was lost or could not be closed in time.
    func run() -> Int32 {
        // Carried from one pass to the next: each pass first does what time says is due (a
        // tick, `ExitIdleAfter=`, the end of an accept pause or of the stop), then sleeps until
        // a source wakes it or the next of those times, and attends to the sources that woke it.
        /// Once a stop has begun: by when it must end, and the exit status.
        var stop: (deadline: MonotonicTime, status: Int32)?
        let loop = AcceptLoop(listener: listener.descriptor, signals: signals, doorbell: wake, log: Log)
        let tickInterval = Duration.milliseconds(box.tickInterval)
        var nextTick = MonotonicTime.now + tickInterval
        while true {
            let now = MonotonicTime.now
            if stop == nil, now >= nextTick {
                box.tick(wake: wake)
                nextTick = .now + tickInterval
            }
            var deadline: MonotonicTime?
            if let stop {
                if table.count == 0 { break }
                if now >= stop.deadline + Self.endGrace {
                    Log.warning("\(table.count) connections still busy \(Self.stopLimit.logDescription) after the stop, closed unanswered")
                    break
                }
                deadline = stop.deadline + Self.endGrace
            } else if let exitIdleAfter = settings.withLock({ $0.exitIdleAfter }), let empty = table.emptyFor {
                if empty >= exitIdleAfter {
                    Log.info("no connection for \(exitIdleAfter.logDescription) (ExitIdleAfter=), stopping")
                    stop = beginStop(status: 0)
                    continue
                }
                deadline = now + (exitIdleAfter - empty)
            }
            if stop == nil { deadline = MonotonicTime.earliest(deadline, nextTick) }
            let woken: [AcceptLoop.WakeUpSource]
            do {
                woken = try loop.wait(until: deadline, accepting: stop == nil)
            } catch {
                Log.error("cannot wait for connections: \(error), stopping")
                stop = stop ?? beginStop(status: 1)
                continue
            }
            for source in woken {
                switch source {
                case .doorbell:
                    if let request = stopRequest.current, stop == nil {
                        if request.status == 0 {
                            Log.info("\(request.reason): stopping after the requests in flight (at most \(Self.stopLimit.logDescription))")
                        } else {
                            Log.error("\(request.reason), stopping")
                        }
                        stop = beginStop(status: request.status)
                    }
                case .signal:
                    if let signalled = handleSignals(loop), stop == nil { stop = beginStop(status: signalled) }
                case .newConnection:
                    // A stop begun by a source attended to before this one accepts no more.
                    guard stop == nil else { break }
                    loop.acceptPending(nonBlocking: true, serve)
                }
            }
        }
        var status = stop?.status ?? 0
        if !box.close(wake: wake, deadline: stop?.deadline) {
            Log.error("a call still held the store \(Self.stopLimit.logDescription) after the stop: exiting without closing it; every acknowledged change is on disk, and the next start repairs the rest")
            status = 1
        }
        return status
    }

    /// Notifies the service manager and asks every connection to stop.
    private func beginStop(status: Int32) -> (deadline: MonotonicTime, status: Int32) {
        notifyStopping()
        let deadline = MonotonicTime.now + Self.stopLimit
        table.stop(deadline: deadline)
        box.stopIndexBuilds()
        return (deadline, status)
    }

    /// Reads every pending signal and acts on it.
    /// - Returns: the exit status when a signal says to stop.
    private func handleSignals(_ loop: AcceptLoop) -> Int32? {
        var stopStatus: Int32?
        while true {
            let signal: Int32
            do {
                guard let next = try loop.nextSignal() else { return stopStatus }
                signal = next
            } catch {
                Log.error("cannot read signals: \(error), stopping")
                return 1
            }
            switch signal {
            case SIGTERM, SIGINT:
                if stopStatus == nil {
                    Log.info("\(Signals.name(signal)): stopping after the requests in flight (at most \(Self.stopLimit.logDescription))")
                }
                stopStatus = 0
            case SIGHUP:
                reload()
            case SIGCHLD:
                TestReadyHook.reapChildren()
            default:
                break
            }
        }
    }

    /// Checks a new connection's peer and the limit, and starts serving it on a thread of its own.
    /// - Returns: true when it is served with `connectionWake`; false when it was refused and closed.
    private func serve(_ socket: FileDescriptor, connectionWake: Wake) -> Bool {
        let current = settings.withLock { $0 }
        guard let peer = admit(socket, allowGroup: current.allowGroup) else {
            socket.close()
            return false
        }
        let entry: ConnectionTable<Socket.PeerCredentials>.Entry
        switch table.admit(peer: peer, limit: current.maxConnections, wake: connectionWake) {
        case .full, .overShare:  // the daemon's local peers have no share
            Log.warning("connection from pid \(peer.pid) (uid \(peer.uid)) refused: \(current.maxConnections) connections open, none idle (MaxConnections=)")
            // Said before the close (docs/protocol.md); a new socket's empty buffer takes it.
            _ = try? Socket.sendSome(socket, Dispatcher.refusal(limit: current.maxConnections).frame, from: 0)
            socket.close()
            return false
        case .admitted(let admitted, _):
            entry = admitted
        }
        let connection = Connection(socket: socket, entry: entry, limits: current.connectionLimits,
                                    dispatcher: dispatcher, table: table, budget: budget)
        if let failure = DetachedThread.start({ connection.run() }) {
            Log.warning("connection \(entry.number) (pid \(peer.pid)): no thread to serve it: \(Errno(rawValue: failure)), closed")
            socket.close()
            table.remove(entry)
        }
        return true
    }

    /// The peer's credentials when it may connect: the daemon's own uid, root, or a member of
    /// `AllowGroup=`; anyone else is refused and logged.
    private func admit(_ socket: FileDescriptor, allowGroup: UInt32?) -> Socket.PeerCredentials? {
        let peer: Socket.PeerCredentials
        do {
            peer = try Socket.peerCredentials(socket)
        } catch {
            Log.warning("cannot read the credentials of a connection: \(error), refusing it")
            return nil
        }
        if peer.uid == FileSystem.effectiveUserID || peer.uid == 0 { return peer }
        if let allowGroup {
            if peer.gid == allowGroup { return peer }
            if let groups = try? Socket.peerGroups(socket), groups.contains(allowGroup) { return peer }
        }
        Log.warning("connection from pid \(peer.pid) (uid \(peer.uid), gid \(peer.gid)) refused: not the daemon's user, root or a member of AllowGroup=")
        return nil
    }

    /// Reads the configuration again and applies what can change while running: the limits
    /// (for new connections), `AllowGroup=`, `ExitIdleAfter=` at once; the hook and the schedule
    /// on the reload thread (`reconfigureBox`). The store and the socket stay as they are until
    /// a restart. A broken file changes nothing.
    private func reload() {
        let new: DaemonSettings
        do {
            new = try loadSettings()
        } catch {
            Log.error("SIGHUP: configuration not reloaded: \(error)")
            return
        }
        let old = settings.withLock { $0 }
        if new.boxOptions.storePath != old.boxOptions.storePath {
            Log.warning("SIGHUP: a new store path takes effect at the next start, ignoring")
        }
        if new.socketPath != old.socketPath || new.socketMode != old.socketMode {
            Log.warning("SIGHUP: a new socket path or mode takes effect at the next start, ignoring")
        }
        var applied = new
        applied.boxOptions.storePath = old.boxOptions.storePath
        applied.socketPath = old.socketPath
        applied.socketMode = old.socketMode
        settings.withLock { $0 = applied }
        let start = reloads.withLock { state -> Bool in
            if state.running {
                state.again = true
                return false
            }
            state.running = true
            return true
        }
        guard start else { return }
        if let failure = DetachedThread.start({ self.reconfigureBox() }) {
            reloads.withLock { $0.running = false }
            Log.error("SIGHUP: no thread to apply the schedule and hook: \(Errno(rawValue: failure)); send SIGHUP again")
        }
    }

    /// The reload thread: applies the settings' hook and schedule to the box when its turn
    /// comes, again as long as SIGHUPs came meanwhile. A box lost on the way stops the daemon.
    private func reconfigureBox() {
        let reloadWake: Wake
        do {
            reloadWake = try Wake()
        } catch {
            reloads.withLock { $0.running = false }
            Log.error("SIGHUP: cannot apply the schedule and hook: \(error); send SIGHUP again")
            return
        }
        while true {
            let current = settings.withLock { $0 }
            switch box.reconfigure(options: current.boxOptions, hook: current.testReady, wake: reloadWake,
                                   giveUp: { self.table.isStopping }) {
            case .applied(let changes):
                Log.info("SIGHUP: configuration reloaded" + (changes.isEmpty ? "" : " (\(changes.joined(separator: ", ")) changed)"))
            case .abandoned:
                break
            case .lost(let reason):
                stopRequest.ask(status: 1, reason: "SIGHUP: \(reason)")
            }
            let again = reloads.withLock { state -> Bool in
                if state.again {
                    state.again = false
                    return true
                }
                state.running = false
                return false
            }
            if !again { return }
        }
    }

    private func notifyStopping() {
        do {
            try ServiceNotification.send("STOPPING=1")
        } catch {
            Log.warning("cannot notify the service manager: \(error), ignoring")
        }
    }
}
