import Glibc
import LeitnerSystem
import LeitnerWeb
import Synchronization

/// The accepting loop, on the main thread: one `poll` on the listener and the signals; each
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
    private let active = Atomic<Int>(0)

    init(listener: ServiceListener, app: WebApp, limits: HTTPLimits, maxConnections: Int, signals: SignalDescriptor) throws(Errno) {
        self.listener = listener
        self.app = app
        self.limits = limits
        self.maxConnections = maxConnections
        self.signals = signals
        stopping = try EventDescriptor()
    }

    /// Serves until a stop signal. - Returns: the exit status.
    func run() -> Int32 {
        var pausedUntil: MonotonicTime?
        while true {
            if let paused = pausedUntil, MonotonicTime.now >= paused { pausedUntil = nil }
            var descriptors = [signals.descriptor]
            if pausedUntil == nil { descriptors.append(listener.descriptor) }
            let ready: [Bool]
            do {
                ready = try Poll.readable(descriptors, milliseconds: pausedUntil?.millisecondsFromNow)
            } catch {
                WebLog.error("cannot wait for connections: \(error), stopping")
                return finish(1)
            }
            if ready[0], shouldStop() { return finish(0) }
            if ready.count > 1 && ready[1] {
                if let failure = acceptPending() {
                    // Out of descriptors or memory: the waiting clients stay queued a moment.
                    WebLog.warning("cannot accept a connection: \(failure), pausing accepts for 100 ms")
                    pausedUntil = .now + .milliseconds(100)
                }
            }
        }
    }

    private func shouldStop() -> Bool {
        while let signal = try? signals.next() {
            if signal == SIGTERM || signal == SIGINT { return true }
        }
        return false
    }

    /// Accepts every pending connection. - Returns: the error that stops accepting for now.
    private func acceptPending() -> Errno? {
        while true {
            let socket: FileDescriptor
            do throws(Errno) {
                guard let accepted = try Socket.acceptPending(listener.descriptor) else { return nil }
                socket = accepted
            } catch {
                return error
            }
            if active.add(1, ordering: .relaxed).newValue > maxConnections {
                active.subtract(1, ordering: .relaxed)
                refuseBusy(socket)
                continue
            }
            let connection = HTTPConnection(socket: socket, app: app, limits: limits, stopping: stopping)
            let served = DetachedThread.start { [self] in
                connection.serve()
                active.subtract(1, ordering: .relaxed)
            }
            if let failure = served {
                active.subtract(1, ordering: .relaxed)
                refuseBusy(socket)
                socket.close()
                WebLog.warning("cannot start a thread for a connection: \(Errno(rawValue: failure))")
            }
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
