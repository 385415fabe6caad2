import Glibc
import LeitnerSystem
import LeitnerWeb
import Synchronization

/// The accepting loop, on the main thread: one `poll` on the listener and the signals (an
/// `AcceptLoop`, as the daemon's, which pauses accepting when out of descriptors); each
/// connection is served on a thread of its own (`HTTPConnection`), at most `maxConnections` at
/// once. One more is answered 503 and closed at once, so a flood of connections costs no thread.
/// On SIGTERM or SIGINT it stops accepting, wakes the idle connections, and gives the busy ones
/// `stopLimit` to finish their response.
final class WebServer: Sendable {
    static let stopLimit: Duration = .seconds(3)

    let listener: ServiceListener
    let app: WebApp
    let limits: HTTPLimits
    let maxConnections: Int
    let signals: SignalDescriptor
    let stopping: EventDescriptor
    /// The accept loop's doorbell.
    private let doorbell: Wake
    private let active = Atomic<Int>(0)

    init(listener: ServiceListener, app: WebApp, limits: HTTPLimits, maxConnections: Int, signals: SignalDescriptor) throws(Errno) {
        self.listener = listener
        self.app = app
        self.limits = limits
        self.maxConnections = maxConnections
        self.signals = signals
        stopping = try EventDescriptor()
        doorbell = try Wake()
    }

    /// Serves until a stop signal. - Returns: the exit status.
    func run() -> Int32 {
        let loop = AcceptLoop(listener: listener.descriptor, signals: signals, doorbell: doorbell, log: WebLog)
        while true {
            let woken: [AcceptLoop.WakeUpSource]
            do {
                woken = try loop.wait(until: nil, accepting: true)
            } catch {
                WebLog.error("cannot wait for connections: \(error), stopping")
                return finish(1)
            }
            for source in woken {
                switch source {
                case .doorbell:
                    break
                case .signal:
                    if shouldStop(loop) { return finish(0) }
                case .newConnection:
                    // Blocking sockets: `HTTPConnection` sends with a time limit. The doorbell
                    // made for each is not needed: a stop wakes every connection at once.
                    loop.acceptPending(nonBlocking: false) { socket, _ in
                        serve(socket)
                        return false
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

    /// Serves a new connection on a thread of its own, or answers 503 when `maxConnections` are
    /// served or no thread can be started.
    private func serve(_ socket: FileDescriptor) {
        if active.add(1, ordering: .relaxed).newValue > maxConnections {
            active.subtract(1, ordering: .relaxed)
            refuseBusy(socket)
            return
        }
        let connection = HTTPConnection(socket: socket, app: app, limits: limits, stopping: stopping)
        let served = DetachedThread.start { [self] in
            connection.serve()
            active.subtract(1, ordering: .relaxed)
        }
        if let failure = served {
            active.subtract(1, ordering: .relaxed)
            refuseBusy(socket)
            WebLog.warning("cannot start a thread for a connection: \(Errno(rawValue: failure))")
        }
    }

    /// 503 to one connection too many, without waiting for it to read: its request is not read.
    private func refuseBusy(_ socket: FileDescriptor) {
        var response = HTTPResponse(status: 503, headers: SecurityHeaders.headers() + [("Content-Type", "text/plain; charset=utf-8"), ("Retry-After", "1")],
                                    body: Array("503 Service Unavailable: \(maxConnections) connections are open (MaxConnections=)\n".utf8))
        response.closes = true
        try? socket.setNonBlocking()
        _ = try? Socket.sendSome(socket, response.bytes(keepAlive: false), from: 0)
        socket.close()
    }

    /// Stops accepting, wakes the idle connections and waits (at most `stopLimit`) for the busy ones.
    private func finish(_ status: Int32) -> Int32 {
        listener.descriptor.close()
        stopping.signal()
        let deadline = MonotonicTime.now + Self.stopLimit
        while active.load(ordering: .relaxed) > 0 && MonotonicTime.now < deadline {
            usleep(10_000)
        }
        return status
    }
}
