import LeitnerSystem
import Synchronization

/// The in-memory half of each device let in (`DeviceBook` keeps the other half on disk): its
/// CSRF token and the review's handles, by the device's secret. Made again with a new CSRF token
/// when leitner-web restarts, so a page loaded before the restart needs a reload to send a form.
/// Bounded: past `capacity`, the session used longest ago goes (its device only gets a new one).
final class SessionTable: Sendable {
    private let sessions = Mutex<[String: Session]>([:])
    let capacity: Int

    init(capacity: Int = 64) {
        self.capacity = capacity
    }

    /// The session of the device whose secret is `id` (checked by the caller), marked used; made
    /// when it has none yet.
    func use(_ id: String, now: MonotonicTime) throws(Errno) -> Session {
        if let session = sessions.withLock({ table -> Session? in
            table[id]?.lastUsed = now
            return table[id]
        }) {
            return session
        }
        let session = Session(csrf: try RandomBytes.hex(32), now: now)
        return sessions.withLock { table in
            if let raced = table[id] { return raced }
            if table.count >= capacity, let oldest = table.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key {
                table[oldest] = nil
            }
            table[id] = session
            return session
        }
    }

    /// Changes the session `id` with `body`.
    func update<R>(_ id: String, _ body: (inout Session) -> R) -> R? {
        sessions.withLock { table in
            guard var session = table[id] else { return nil }
            let result = body(&session)
            table[id] = session
            return result
        }
    }

    var count: Int { sessions.withLock { $0.count } }
}

extension SessionTable {
    /// Forgets the session `id`.
    func close(_ id: String) {
        sessions.withLock { $0[id] = nil }
    }
}
