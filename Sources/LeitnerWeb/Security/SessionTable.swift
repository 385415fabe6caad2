import LeitnerSystem
import Synchronization

/// The browsers let in, by the random id in their cookie. Kept in memory only: restarting
/// leitner-web or replacing the token (`leitnerctl web --new-token`) lets every browser out, and
/// it must open the link again. Bounded: past `capacity`, the session used longest ago goes.
final class SessionTable: Sendable {
    private let sessions = Mutex<[String: Session]>([:])
    let capacity: Int

    init(capacity: Int = 64) {
        self.capacity = capacity
    }

    /// A new session; returns its id (for the cookie) and CSRF token.
    func open(now: MonotonicTime) throws(Errno) -> (id: String, csrf: String) {
        let id = try RandomBytes.hex(32)
        let csrf = try RandomBytes.hex(32)
        sessions.withLock { table in
            if table.count >= capacity, let oldest = table.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key {
                table[oldest] = nil
            }
            table[id] = Session(csrf: csrf, now: now)
        }
        return (id, csrf)
    }

    /// The session of a cookie's id, marked used; nil for an unknown id. The lookup compares every
    /// id in constant time, so its time says nothing about how close a guess came.
    func use(_ id: String, now: MonotonicTime) -> Session? {
        sessions.withLock { table in
            var found: String?
            for key in table.keys where ConstantTime.equal(key, id) { found = key }
            guard let key = found else { return nil }
            table[key]?.lastUsed = now
            return table[key]
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
