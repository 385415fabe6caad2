import Dispatch
import Synchronization

/// Counts the open connections, for `MaxConnections=` and `ExitIdleAfter=`, and numbers them
/// for the log. Shared by the accept loop and the connection tasks.
final class ConnectionTracker: Sendable {
    private struct State {
        var open = 0
        var total = 0
        /// When the last connection closed (or the daemon started), in uptime nanoseconds.
        var idleSince = DispatchTime.now().uptimeNanoseconds
    }

    private let state = Mutex(State())

    /// Registers a new connection unless `limit` are open.
    /// - Returns: the connection's number, or nil when the limit is reached.
    func open(limit: Int) -> Int? {
        state.withLock { state in
            guard state.open < limit else { return nil }
            state.open += 1
            state.total += 1
            return state.total
        }
    }

    func close() {
        state.withLock { state in
            state.open -= 1
            if state.open == 0 { state.idleSince = DispatchTime.now().uptimeNanoseconds }
        }
    }

    /// How long no connection has been open; nil while one is.
    var idleFor: Duration? {
        state.withLock { state in
            guard state.open == 0 else { return nil }
            return .nanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - state.idleSince))
        }
    }
}
