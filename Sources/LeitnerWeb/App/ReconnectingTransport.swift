import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink
import Synchronization

/// leitner-web's way to the daemon: one kept connection (`KeptConnection`, which says when a
/// call is sent again: only when the daemon cannot have read it), shared by every browser
/// connection's thread and used by one call at a time. leitner-web does not start the daemon:
/// systemd's socket or `leitnerctl web` does.
public final class ReconnectingTransport: BoxTransport, Sendable {
    public let socketPath: String
    /// How long a call may wait for its reply.
    public let timeoutMilliseconds: Int
    private let connection: Mutex<Kept>

    /// The kept connection. Only touched inside `connection.withLock`, which is what makes it
    /// safe to share: a reference, so the closures that use it (a stream's `body` among them)
    /// need not send it in and out of the lock.
    private final class Kept: @unchecked Sendable {
        var connection: KeptConnection

        init(_ connection: KeptConnection) {
            self.connection = connection
        }
    }

    public init(socketPath: String, timeoutMilliseconds: Int = 30_000) {
        self.socketPath = socketPath
        self.timeoutMilliseconds = timeoutMilliseconds
        connection = Mutex(Kept(KeptConnection(connect: {
            try VarlinkClient(socketPath: socketPath, timeoutMilliseconds: timeoutMilliseconds)
        })))
    }

    public func call(_ method: String, _ parameters: [String: JSONValue]) throws -> [String: JSONValue] {
        try connection.withLock { kept throws -> [String: JSONValue] in
            try kept.connection.call(method, parameters)
        }
    }

    public func stream(_ method: String, _ parameters: [String: JSONValue],
                       _ body: ([String: JSONValue]) throws -> Void) throws {
        try connection.withLock { kept throws in
            try kept.connection.stream(method, parameters, body)
        }
    }

    /// Closes the kept connection (at exit).
    public func close() {
        connection.withLock { $0.connection.drop() }
    }
}
