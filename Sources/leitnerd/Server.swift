import Glibc
import LeitnerCore
import Synchronization

/// The Varlink server: accepts connections on the listener and serves each in a child task,
/// handles signals, and returns only at shutdown (STYLE §7). On SIGTERM or SIGINT it stops
/// accepting, lets the requests in flight finish and their replies go out, then returns.
final class Server: Sendable {
    private let listener: Listener
    private let dispatcher: Dispatcher
    private let settings: Mutex<DaemonSettings>
    /// Reads the configuration again (SIGHUP).
    private let loadSettings: @Sendable () throws -> DaemonSettings
    private let tracker = ConnectionTracker()
    private let shutdown: ShutdownSignal

    init(listener: Listener, dispatcher: Dispatcher, settings: DaemonSettings,
         loadSettings: @escaping @Sendable () throws -> DaemonSettings) throws(Errno) {
        shutdown = try ShutdownSignal()
        self.listener = listener
        self.dispatcher = dispatcher
        self.settings = Mutex(settings)
        self.loadSettings = loadSettings
    }

    /// Serves until a stop signal or `ExitIdleAfter=`; closes the listening descriptor.
    func run() async {
        let signals = SignalStream()
        let acceptor = Readiness(listener.descriptor)
        await withDiscardingTaskGroup { group in
            group.addTask { await self.handleSignals(signals, acceptor: acceptor) }
            await acceptLoop(acceptor, group: &group)
            // Stop reading new requests; a request in hand is answered first (Connection).
            shutdown.trigger()
            group.cancelAll()
        }
        signals.cancel()
        acceptor.close()
    }

    private func acceptLoop(_ acceptor: Readiness, group: inout DiscardingTaskGroup) async {
        while true {
            acceptPending(into: &group)
            let exitIdleAfter = settings.withLock { $0.exitIdleAfter }
            var timeout: Duration?
            if let exitIdleAfter {
                if let idle = tracker.idleFor {
                    if idle >= exitIdleAfter {
                        Log.info("no connection for \(exitIdleAfter) (ExitIdleAfter=), stopping")
                        notifyStopping()
                        return
                    }
                    timeout = exitIdleAfter - idle
                } else {
                    timeout = exitIdleAfter
                }
            }
            switch await acceptor.wait(timeout: timeout) {
            case .ready, .timedOut: continue
            case .interrupted: return
            }
        }
    }

    /// Accepts every pending connection, checks the peer and the limit, and starts serving it.
    private func acceptPending(into group: inout DiscardingTaskGroup) {
        while true {
            let descriptor: FileDescriptor
            do throws(Errno) {
                descriptor = try Socket.accept(listener.descriptor, nonBlocking: true)
            } catch where error == .wouldBlock {
                return
            } catch where error.rawValue == ECONNABORTED {
                continue
            } catch {
                // EMFILE and the like: the pending connection stays queued; try again shortly
                // rather than spin on a listener that stays readable.
                Log.warning("cannot accept a connection: \(error), retrying")
                usleep(100_000)
                return
            }
            let current = settings.withLock { $0 }
            guard let peer = admit(descriptor, allowGroup: current.allowGroup) else {
                descriptor.close()
                continue
            }
            guard let number = tracker.open(limit: current.maxConnections) else {
                Log.warning("connection from pid \(peer.pid) (uid \(peer.uid)) refused: \(current.maxConnections) connections open (MaxConnections=)")
                descriptor.close()
                continue
            }
            let connection = Connection(descriptor: descriptor, number: number, peer: peer,
                                        limits: current.connectionLimits)
            group.addTask {
                await connection.serve(with: self.dispatcher, shutdown: self.shutdown)
                self.tracker.close()
            }
        }
    }

    /// The peer's credentials when it may connect: the daemon's own uid, root, or a member of
    /// `AllowGroup=`; anyone else is refused and logged.
    private func admit(_ descriptor: FileDescriptor, allowGroup: UInt32?) -> Socket.PeerCredentials? {
        let peer: Socket.PeerCredentials
        do {
            peer = try Socket.peerCredentials(descriptor)
        } catch {
            Log.warning("cannot read the credentials of a connection: \(error), refusing it")
            return nil
        }
        if peer.uid == FileSystem.effectiveUserID || peer.uid == 0 { return peer }
        if let allowGroup {
            if peer.gid == allowGroup { return peer }
            if let groups = try? Socket.peerGroups(descriptor), groups.contains(allowGroup) { return peer }
        }
        Log.warning("connection from pid \(peer.pid) (uid \(peer.uid), gid \(peer.gid)) refused: not the daemon's user, root or a member of AllowGroup=")
        return nil
    }

    private func handleSignals(_ signals: SignalStream, acceptor: Readiness) async {
        for await signal in signals.signals {
            switch signal {
            case SIGTERM, SIGINT:
                Log.info("\(SignalStream.name(signal)): stopping after the requests in flight")
                notifyStopping()
                acceptor.interrupt()
                return
            case SIGHUP:
                await reload()
            case SIGCHLD:
                TestReadyHook.reapChildren()
            default:
                break
            }
        }
    }

    /// Reads the configuration again and applies what can change while running: the limits
    /// (for new connections), `AllowGroup=`, `ExitIdleAfter=`, the hook and the schedule. The
    /// store and the socket stay as they are until a restart. A broken file changes nothing.
    private func reload() async {
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
        let changes = await dispatcher.service.reconfigure(options: applied.boxOptions, hook: applied.testReady)
        Log.info("SIGHUP: configuration reloaded" + (changes.isEmpty ? "" : " (\(changes.joined(separator: ", ")) changed)"))
    }

    private func notifyStopping() {
        do {
            try ServiceNotification.send("STOPPING=1")
        } catch {
            Log.warning("cannot notify the service manager: \(error), ignoring")
        }
    }
}
