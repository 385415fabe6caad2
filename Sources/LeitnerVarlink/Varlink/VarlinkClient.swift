import Glibc
import LeitnerSystem

/// A blocking Varlink client over a Unix socket, for `leitnerctl`: one connection, one call at
/// a time, each waiting for its reply.
public final class VarlinkClient {
    /// The socket path connected to.
    public let socketPath: String
    /// How long a call may wait for its reply, in ms; nil waits forever.
    public var timeoutMilliseconds: Int?

    private let socket: FileDescriptor
    private var reader: VarlinkFrameReader

    /// Connects to the service listening at `socketPath`.
    /// - Parameters:
    ///   - socketPath: the Unix socket of the service.
    ///   - timeoutMilliseconds: how long a call may wait for its reply; nil waits forever.
    ///   - maxReplySize: the longest reply accepted, in bytes.
    /// - Throws: `VarlinkClientError.notListening` when nothing listens there (the daemon may
    ///   be started), `.cannotConnect` for any other failure.
    public init(socketPath: String, timeoutMilliseconds: Int? = nil,
                maxReplySize: Int = VarlinkFrameReader.defaultMaxMessageSize) throws(VarlinkClientError) {
        self.socketPath = socketPath
        self.timeoutMilliseconds = timeoutMilliseconds
        reader = VarlinkFrameReader(maxMessageSize: maxReplySize)
        let socket: FileDescriptor
        do {
            socket = try Socket.makeStream()
        } catch {
            throw .cannotConnect(path: socketPath, reason: error)
        }
        do {
            try Socket.connect(socket, to: socketPath)
        } catch {
            socket.close()
            if error == .noEntry || error.rawValue == ECONNREFUSED {
                throw .notListening(path: socketPath, reason: error)
            }
            throw .cannotConnect(path: socketPath, reason: error)
        }
        self.socket = socket
    }

    /// Uses an already connected socket (socket pairs, tests); the client owns it from now on.
    public init(connected socket: FileDescriptor, name: String, timeoutMilliseconds: Int? = nil,
                maxReplySize: Int = VarlinkFrameReader.defaultMaxMessageSize) {
        socketPath = name
        self.socket = socket
        self.timeoutMilliseconds = timeoutMilliseconds
        reader = VarlinkFrameReader(maxMessageSize: maxReplySize)
    }

    deinit { socket.close() }

    /// Who is at the other end (`SO_PEERCRED`): the process that made the listening socket —
    /// the service itself, or the service manager that passed it the socket.
    public var peer: Socket.PeerCredentials? { try? Socket.peerCredentials(socket) }

    /// Calls `method` and waits for its reply.
    /// - Parameters:
    ///   - method: the qualified method name, `io.leitner.Box.Status`.
    ///   - parameters: the method's input parameters.
    /// - Returns: the reply's parameters.
    /// - Throws: `VarlinkCallError` when the service answers with an error;
    ///   `VarlinkClientError` when there is no valid reply.
    public func call(_ method: String, _ parameters: [String: JSONValue] = [:]) throws -> [String: JSONValue] {
        let reply = try send(VarlinkRequest(method: method, parameters: parameters))
        if let name = reply.error { throw VarlinkCallError(name: name, parameters: reply.parameters) }
        return reply.parameters
    }

    /// Calls `method` with `more` and hands the parameters of each reply to `body` as it
    /// arrives, until the one without `continues` (docs/protocol.md, "Streamed replies"). With a
    /// timeout, each reply must come within it.
    /// - Throws: `VarlinkCallError` when the service answers with an error, at once or after some
    ///   replies; `VarlinkClientError` when there is no valid reply; what `body` throws (the
    ///   connection is then in the middle of a stream and must not be used again).
    public func callStreaming(_ method: String, _ parameters: [String: JSONValue] = [:],
                              _ body: ([String: JSONValue]) throws -> Void) throws {
        var reply = try send(VarlinkRequest(method: method, parameters: parameters, more: true))
        while true {
            if let name = reply.error { throw VarlinkCallError(name: name, parameters: reply.parameters) }
            try body(reply.parameters)
            if !reply.continues { return }
            reply = try receiveReply(for: method)
        }
    }

    /// Sends a request and returns its reply as it came, errors included (the first reply of a
    /// call with `more`).
    /// - Throws: `VarlinkClientError` when there is no valid reply.
    public func send(_ request: VarlinkRequest) throws(VarlinkClientError) -> VarlinkReply {
        do {
            try Socket.setTimeouts(socket, milliseconds: timeoutMilliseconds)
            try Socket.sendAll(socket, request.frame)
        } catch {
            if error == .wouldBlock, let timeoutMilliseconds {
                throw .timedOut(path: socketPath, method: request.method, milliseconds: timeoutMilliseconds)
            }
            if error.rawValue == EPIPE || error.rawValue == ECONNRESET {
                // The service had closed its end before the call was written whole, so it never
                // read it. It may have said why before closing (a connection refused, or closed
                // as idle): that message is its answer.
                if let said = bufferedReply() { return said }
                throw .closedBeforeCall(path: socketPath, method: request.method)
            }
            throw .connectionFailed(path: socketPath, reason: error)
        }
        return try receiveReply(for: request.method)
    }

    /// Waits for the next reply, within the timeout.
    private func receiveReply(for method: String) throws(VarlinkClientError) -> VarlinkReply {
        let deadline = timeoutMilliseconds.map { VarlinkClient.monotonicMilliseconds() + $0 }
        let message = try receiveMessage(for: method, deadline: deadline)
        do {
            return try VarlinkReply(parsing: message)
        } catch {
            throw .invalidReply(path: socketPath, reason: error.description)
        }
    }

    /// A whole reply that had arrived before the service closed the connection, if any; reads
    /// only what is there already.
    private func bufferedReply() -> VarlinkReply? {
        while true {
            if let message = try? reader.nextMessage() { return try? VarlinkReply(parsing: message) }
            guard (try? Socket.waitReadable(socket, milliseconds: 0)) == true,
                  let count = try? reader.receive(from: socket), count > 0 else { return nil }
        }
    }

    /// Reads until one whole message is buffered, within the deadline.
    private func receiveMessage(for method: String, deadline: Int?) throws(VarlinkClientError) -> [UInt8] {
        while true {
            let next: [UInt8]?
            do { next = try reader.nextMessage() } catch { throw .invalidReply(path: socketPath, reason: error.description) }
            if let next { return next }
            if let deadline, let timeoutMilliseconds {
                let remaining = deadline - VarlinkClient.monotonicMilliseconds()
                var ready = false
                do {
                    if remaining > 0 { ready = try Socket.waitReadable(socket, milliseconds: remaining) }
                } catch {
                    throw .connectionFailed(path: socketPath, reason: error)
                }
                if !ready { throw .timedOut(path: socketPath, method: method, milliseconds: timeoutMilliseconds) }
            }
            let count: Int
            do { count = try reader.receive(from: socket) } catch { throw .connectionFailed(path: socketPath, reason: error) }
            if count == 0 { throw .closedBeforeReply(path: socketPath, method: method) }
        }
    }

    private static func monotonicMilliseconds() -> Int {
        Int(MonotonicTime.now.milliseconds)
    }
}
