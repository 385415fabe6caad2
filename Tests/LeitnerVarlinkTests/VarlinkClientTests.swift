import Dispatch
import Glibc
@testable import LeitnerVarlink
import Testing
@testable import LeitnerSystem
import LeitnerTestSupport

/// The client against a tiny in-test service: a real listening socket in a temporary directory,
/// served on a Dispatch thread by a handler that scripts the service's side.
@Suite struct VarlinkClientTests {
    /// A listening socket in a fresh temporary directory, removed with it.
    final class Listener {
        let temporary = TemporaryDirectory()
        var directory: String { temporary.path }
        let path: String
        let socket: FileDescriptor
        let done = DispatchGroup()

        init() throws {
            path = temporary.path + "/s.sock"
            socket = try Socket.makeStream()
            try Socket.bind(socket, to: path)
            try Socket.listen(socket)
        }

        /// Accepts one connection and runs `handler` on it, on another thread.
        func serveOne(_ handler: @escaping @Sendable (FileDescriptor) -> Void) {
            let socket = self.socket
            DispatchQueue.global().async(group: done) {
                guard let connection = try? Socket.accept(socket) else { return }
                handler(connection)
                connection.close()
            }
        }

        deinit {
            done.wait()
            socket.close()
            temporary.remove()
        }
    }

    /// Reads one request from a connection, as the service does.
    static func readRequest(_ connection: FileDescriptor) -> VarlinkRequest? {
        var reader = VarlinkFrameReader()
        while true {
            if let message = try? reader.nextMessage() { return try? VarlinkRequest(parsing: message) }
            guard let n = try? reader.receive(from: connection), n > 0 else { return nil }
        }
    }

    @Test func callsAndGetsTheReplyParameters() throws {
        let listener = try Listener()
        listener.serveOne { connection in
            // Two calls on one connection; the first reply arrives in two pieces.
            guard let first = Self.readRequest(connection) else { return }
            let reply = VarlinkReply(parameters: ["method": .string(first.method), "echo": .object(first.parameters)]).frame
            try? Socket.sendAll(connection, Array(reply[..<5]))
            usleep(20_000)
            try? Socket.sendAll(connection, Array(reply[5...]))
            guard Self.readRequest(connection) != nil else { return }
            try? Socket.sendAll(connection, VarlinkReply(parameters: ["n": 2]).frame)
        }
        let client = try VarlinkClient(socketPath: listener.path, timeoutMilliseconds: 5000)
        let result = try client.call("io.leitner.Box.Show", ["id": "hola"])
        #expect(result == ["method": "io.leitner.Box.Show", "echo": ["id": "hola"]])
        #expect(try client.call("io.leitner.Box.Status") == ["n": 2])
    }

    @Test func errorReplyThrowsVarlinkCallError() throws {
        let listener = try Listener()
        listener.serveOne { connection in
            _ = Self.readRequest(connection)
            try? Socket.sendAll(connection, VarlinkReply.error("io.leitner.Box.NoSuchCard", ["id": "x"]).frame)
        }
        let client = try VarlinkClient(socketPath: listener.path, timeoutMilliseconds: 5000)
        #expect(throws: VarlinkCallError(name: "io.leitner.Box.NoSuchCard", parameters: ["id": "x"])) {
            try client.call("io.leitner.Box.Show", ["id": "x"])
        }
        #expect(VarlinkCallError(name: "a.B", parameters: ["id": "x"]).description == #"a.B (id: "x")"#)
    }

    /// leitnerctl starts the daemon when nothing listens: ENOENT and ECONNREFUSED are one case.
    @Test func nothingListening() throws {
        let listener = try Listener()
        let missing = listener.directory + "/none.sock"
        #expect(throws: VarlinkClientError.notListening(path: missing, reason: .noEntry)) {
            try VarlinkClient(socketPath: missing)
        }
        // A socket file nobody listens on (a daemon that died): refused.
        let stale = try Socket.makeStream()
        defer { stale.close() }
        try Socket.bind(stale, to: listener.directory + "/stale.sock")
        #expect(throws: VarlinkClientError.notListening(path: listener.directory + "/stale.sock",
                                                        reason: Errno(rawValue: ECONNREFUSED))) {
            try VarlinkClient(socketPath: listener.directory + "/stale.sock")
        }
        let long = "/tmp/" + String(repeating: "x", count: 200)
        #expect(throws: VarlinkClientError.cannotConnect(path: long, reason: Errno(rawValue: ENAMETOOLONG))) {
            try VarlinkClient(socketPath: long)
        }
    }

    @Test func timesOutWithoutAReply() throws {
        let listener = try Listener()
        listener.serveOne { connection in
            _ = Self.readRequest(connection)
            usleep(500_000)
        }
        let client = try VarlinkClient(socketPath: listener.path, timeoutMilliseconds: 100)
        #expect(throws: VarlinkClientError.timedOut(path: listener.path, method: "io.leitner.Box.Next", milliseconds: 100)) {
            try client.call("io.leitner.Box.Next")
        }
    }

    @Test func serviceClosingIsReported() throws {
        let listener = try Listener()
        listener.serveOne { connection in
            _ = Self.readRequest(connection)
            try? Socket.sendAll(connection, Array(#"{"parame"#.utf8))
        }
        let client = try VarlinkClient(socketPath: listener.path, timeoutMilliseconds: 5000)
        #expect(throws: VarlinkClientError.closedBeforeReply(path: listener.path, method: "a.B")) {
            try client.call("a.B")
        }
    }

    @Test func invalidReplyIsReported() throws {
        let (client, service) = try Socket.makePair()
        defer { service.close() }
        try Socket.sendAll(service, Array("[1]".utf8) + [0])
        let varlink = VarlinkClient(connected: client, name: "pair")
        #expect(throws: VarlinkClientError.invalidReply(path: "pair", reason: "message is not a JSON object but an array")) {
            try varlink.call("a.B")
        }
        // The request went out framed.
        var reader = VarlinkFrameReader()
        _ = try reader.receive(from: service)
        #expect(try reader.nextMessage() == Array(#"{"method":"a.B","parameters":{}}"#.utf8))
    }

    @Test func replyOverTheLimitIsRefused() throws {
        let (client, service) = try Socket.makePair()
        defer { service.close() }
        try Socket.sendAll(service, Array(String(repeating: " ", count: 100).utf8))
        let varlink = VarlinkClient(connected: client, name: "pair", timeoutMilliseconds: 5000, maxReplySize: 64)
        #expect(throws: VarlinkClientError.invalidReply(path: "pair", reason: "message too large: longer than 64 bytes")) {
            try varlink.call("a.B")
        }
    }

    @Test func peerCredentialsNameThisProcess() throws {
        let (a, b) = try Socket.makePair()
        defer { a.close(); b.close() }
        let credentials = try Socket.peerCredentials(a)
        #expect(credentials.pid == getpid())
        #expect(credentials.uid == getuid())
        #expect(credentials.gid == getgid())
        let listener = try Listener()
        #expect(try Socket.isListening(listener.socket))
        #expect(try !Socket.isListening(a))
    }

    /// The service closed the connection before the call was written (`EPIPE`), saying why first:
    /// that message is the answer (leitnerctl sends the call again on `ConnectionClosed`).
    @Test func aServiceThatClosedFirstIsHeardOut() throws {
        let (client, service) = try Socket.makePair()
        try Socket.sendAll(service, VarlinkReply.error("org.example.Service.ConnectionClosed", ["reason": "idle"]).frame)
        service.close()
        let varlink = VarlinkClient(connected: client, name: "pair")
        #expect(throws: VarlinkCallError(name: "org.example.Service.ConnectionClosed", parameters: ["reason": "idle"])) {
            try varlink.call("a.B")
        }
    }

    /// Closed without a word before the call was written: the call never reached the service.
    @Test func aServiceThatClosedSilentlyIsReportedAsNotReached() throws {
        let (client, service) = try Socket.makePair()
        service.close()
        let varlink = VarlinkClient(connected: client, name: "pair")
        #expect(throws: VarlinkClientError.closedBeforeCall(path: "pair", method: "a.B")) {
            try varlink.call("a.B")
        }
    }
}

