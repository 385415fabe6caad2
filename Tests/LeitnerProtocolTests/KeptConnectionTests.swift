import Glibc
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink
import Testing

/// The resend rule, against scripted services on socket pairs: each connection the kept
/// connection makes is the next of `services`, whose replies are written before the call.
@Suite struct KeptConnectionTests {
    /// Connections to hand out in order, with their service ends, and how many were made.
    final class Services {
        private(set) var made = 0
        var pairs: [(client: FileDescriptor, service: FileDescriptor)] = []

        init(_ count: Int) throws {
            for _ in 0..<count { pairs.append(try Socket.makePair()) }
        }

        func connect() throws -> VarlinkClient {
            guard made < pairs.count else { throw VarlinkClientError.notListening(path: "pair", reason: Errno(rawValue: ECONNREFUSED)) }
            made += 1
            return VarlinkClient(connected: pairs[made - 1].client, name: "pair")
        }

        /// What the service end of connection `index` received, as text.
        func received(_ index: Int) -> String {
            var bytes = [UInt8](repeating: 0, count: 4096)
            let count = (try? bytes.withUnsafeMutableBytes { try Socket.receive(pairs[index].service, into: $0) }) ?? 0
            return String(decoding: bytes[..<count], as: UTF8.self)
        }

        private var closed: Set<Int> = []

        /// The daemon's end of connection `index` closes.
        func closeService(_ index: Int) {
            if closed.insert(index).inserted { pairs[index].service.close() }
        }

        func closeServices() { for index in pairs.indices { closeService(index) } }
    }

    static let closedUnread = VarlinkReply.error(BoxInterface.connectionClosed, ["reason": "made room"]).frame
    static let graded = VarlinkReply(parameters: ["level": 2]).frame

    @Test func aCallTheDaemonSaidItClosedUnreadIsSentOnceMoreOnANewConnection() throws {
        let services = try Services(2)
        defer { services.closeServices() }
        try Socket.sendAll(services.pairs[0].service, Self.closedUnread)
        try Socket.sendAll(services.pairs[1].service, Self.graded)
        var kept = KeptConnection(connect: services.connect)
        #expect(try kept.call("io.leitner.Box.Grade", ["id": "hola"]) == ["level": 2])
        #expect(services.made == 2)
        #expect(services.received(1).contains("io.leitner.Box.Grade"))
    }

    @Test func aCallWrittenAfterTheDaemonClosedIsSentOnceMore() throws {
        let services = try Services(2)
        defer { services.closeServices() }
        var kept = KeptConnection(connect: services.connect)
        try Socket.sendAll(services.pairs[0].service, Self.graded)
        #expect(try kept.call("io.leitner.Box.Grade", ["id": "a"]) == ["level": 2])
        // The daemon closes the idle connection without a word; the next call finds it closed.
        services.closeService(0)
        try Socket.sendAll(services.pairs[1].service, Self.graded)
        #expect(try kept.call("io.leitner.Box.Grade", ["id": "b"]) == ["level": 2])
        #expect(services.made == 2)
    }

    @Test func aCallTheDaemonMayHaveReadIsNeverSentTwice() throws {
        let services = try Services(2)
        defer { services.closeServices() }
        // The daemon reads the call and ends the connection with no reply: the grade may be done.
        try Socket.shutdownSending(services.pairs[0].service)
        // A second connection would answer at once, so that a resend shows as a reply.
        try Socket.sendAll(services.pairs[1].service, Self.graded)
        var kept = KeptConnection(connect: services.connect)
        #expect(throws: VarlinkClientError.closedBeforeReply(path: "pair", method: "io.leitner.Box.Grade")) {
            try kept.call("io.leitner.Box.Grade", ["id": "hola"])
        }
        try #require(services.made == 1)
        // The broken connection is not used again: the next call makes a new one.
        #expect(try kept.call("io.leitner.Box.Status", [:]) == ["level": 2])
        #expect(services.made == 2)
    }

    @Test func theDaemonsOtherErrorsKeepTheConnection() throws {
        let services = try Services(1)
        defer { services.closeServices() }
        try Socket.sendAll(services.pairs[0].service, VarlinkReply.error("io.leitner.Box.NoSuchCard", ["id": "x"]).frame)
        try Socket.sendAll(services.pairs[0].service, Self.graded)
        var kept = KeptConnection(connect: services.connect)
        #expect(throws: VarlinkCallError.self) { try kept.call("io.leitner.Box.Grade", ["id": "x"]) }
        #expect(try kept.call("io.leitner.Box.Grade", ["id": "y"]) == ["level": 2])
        #expect(services.made == 1)
    }

    @Test func aStreamIsSentAgainOnlyBeforeItsFirstReply() throws {
        let services = try Services(3)
        defer { services.closeServices() }
        let part = VarlinkReply(parameters: ["n": 1], continues: true).frame
        let last = VarlinkReply(parameters: ["n": 2]).frame
        try Socket.sendAll(services.pairs[0].service, Self.closedUnread)
        try Socket.sendAll(services.pairs[1].service, part + last)
        var kept = KeptConnection(connect: services.connect)
        var parts: [[String: JSONValue]] = []
        try kept.stream("io.leitner.Box.List", [:]) { parts.append($0) }
        #expect(parts == [["n": 1], ["n": 2]])
        #expect(services.made == 2)

        // Cut after its first part: what was handed on cannot be taken back, so no second call.
        try Socket.sendAll(services.pairs[1].service, part + Self.closedUnread)
        parts = []
        #expect(throws: VarlinkCallError.self) {
            try kept.stream("io.leitner.Box.List", [:]) { parts.append($0) }
        }
        #expect(parts == [["n": 1]])
        #expect(services.made == 2)
    }

    @Test func whatTheDaemonSaysIsReadBeforeTheCallIsSentAgain() {
        #expect(KeptConnection.wasNotRead(VarlinkCallError(name: BoxInterface.connectionClosed, parameters: ["reason": "stop"])))
        #expect(KeptConnection.wasNotRead(VarlinkClientError.closedBeforeCall(path: "p", method: "m")))
        #expect(!KeptConnection.wasNotRead(VarlinkClientError.closedBeforeReply(path: "p", method: "m")))
        #expect(!KeptConnection.wasNotRead(VarlinkClientError.timedOut(path: "p", method: "m", milliseconds: 1)))
        #expect(!KeptConnection.wasNotRead(VarlinkCallError(name: BoxInterface.tooManyConnections, parameters: ["limit": 1])))
    }
}
