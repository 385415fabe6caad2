import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink
import Synchronization

/// leitner-web's way to the daemon: one kept connection, shared by every browser connection's
/// thread and used by one call at a time. The daemon closes a connection that sits idle when it
/// needs the place, and every idle one when it stops; a call is then sent once more on a new
/// connection, but only when the daemon cannot have read it (it said `ConnectionClosed`, or had
/// closed before the call was written), as leitnerctl's `DaemonConnection` does. A call that may
/// have been carried out (a `Grade` whose reply never came) is never sent twice. leitner-web
/// does not start the daemon: systemd's socket or `leitnerctl web` does.
public final class ReconnectingTransport: BoxTransport, Sendable {
    public let socketPath: String
    /// How long a call may wait for its reply.
    public let timeoutMilliseconds: Int
    private let connection = Mutex(Kept())

    /// The kept client. Only touched inside `connection.withLock`, which is what makes it safe
    /// to share: a reference, so the closures that use it (a stream's `body` among them) need not
    /// send it in and out of the lock.
    private final class Kept: @unchecked Sendable {
        var client: VarlinkClient?
    }

    public init(socketPath: String, timeoutMilliseconds: Int = 30_000) {
        self.socketPath = socketPath
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    public func call(_ method: String, _ parameters: [String: JSONValue]) throws -> [String: JSONValue] {
        try connection.withLock { kept throws -> [String: JSONValue] in
            let client = try kept.client ?? connect()
            kept.client = client
            do {
                return try client.call(method, parameters)
            } catch let error where Self.wasNotRead(error) {
                kept.client = nil
                let fresh = try connect()
                kept.client = fresh
                return try fresh.call(method, parameters)
            } catch let error as VarlinkClientError {
                // The connection is broken: the next call makes a new one.
                kept.client = nil
                throw error
            }
        }
    }

    public func stream(_ method: String, _ parameters: [String: JSONValue],
                       _ body: ([String: JSONValue]) throws -> Void) throws {
        try connection.withLock { kept throws in
            let client = try kept.client ?? connect()
            kept.client = client
            var received = false
            do {
                try client.callStreaming(method, parameters) { reply in
                    received = true
                    try body(reply)
                }
            } catch let error where !received && Self.wasNotRead(error) {
                kept.client = nil
                let fresh = try connect()
                kept.client = fresh
                try fresh.callStreaming(method, parameters, body)
            } catch {
                // A stream cut short leaves the connection in its middle.
                kept.client = nil
                throw error
            }
        }
    }

    /// Closes the kept connection (at exit).
    public func close() {
        connection.withLock { $0.client = nil }
    }

    private func connect() throws -> VarlinkClient {
        try VarlinkClient(socketPath: socketPath, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// True when the daemon closed the connection without reading the call.
    static func wasNotRead(_ error: any Error) -> Bool {
        if let call = error as? VarlinkCallError, case .connectionClosed? = BoxConnectionError(call) { return true }
        if case .closedBeforeCall? = error as? VarlinkClientError { return true }
        return false
    }
}
