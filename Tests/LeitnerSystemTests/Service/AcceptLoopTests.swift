import Glibc
import Testing
@testable import LeitnerSystem
import LeitnerTestSupport

/// The accept loop of leitnerd and leitner-web, on a real listening socket.
@Suite struct AcceptLoopTests {
    /// A loop on a fresh listening socket in a temporary directory, logging into a socket the
    /// test reads.
    final class Bench {
        let directory = TemporaryDirectory()
        let path: String
        let listener: FileDescriptor
        let signals: SignalDescriptor
        let doorbell: Wake
        let logReader: FileDescriptor
        let loop: AcceptLoop

        init(listener given: FileDescriptor? = nil) throws {
            path = directory.path + "/s.sock"
            if let given {
                listener = given
            } else {
                listener = try ServiceListener.bind(path: path, mode: 0o600,
                                                    log: ServiceLog(program: "t", clock: nil, descriptor: FileDescriptor(rawValue: 2), style: .plain)).descriptor
            }
            // Nothing raises SIGUSR1 here but the test that blocks it on its own thread.
            signals = try SignalDescriptor(signals: [SIGUSR1])
            doorbell = try Wake()
            let (writer, reader) = try Socket.makePair()
            try reader.setNonBlocking()
            logReader = reader
            loop = AcceptLoop(listener: listener, signals: signals, doorbell: doorbell,
                              log: ServiceLog(program: "leitnerd", clock: nil, descriptor: writer, style: .plain))
        }

        func connect() throws -> FileDescriptor {
            let client = try Socket.makeStream()
            try Socket.connect(client, to: path)
            return client
        }

        var logged: String {
            var bytes = [UInt8](repeating: 0, count: 4096)
            let count = (try? bytes.withUnsafeMutableBytes { try Socket.receive(logReader, into: $0) }) ?? 0
            return String(decoding: bytes[..<count], as: UTF8.self)
        }

        deinit {
            listener.close()
            signals.close()
            directory.remove()
        }
    }

    @Test func acceptsEveryWaitingConnectionEachWithADoorbellOfItsOwn() throws {
        let bench = try Bench()
        let clients = try (0..<3).map { _ in try bench.connect() }
        defer { clients.forEach { $0.close() } }
        #expect(try bench.loop.wait(until: nil, accepting: true) == [.newConnection])
        var served: [(FileDescriptor, Wake)] = []
        #expect(bench.loop.acceptPending(nonBlocking: true) { socket, wake in
            served.append((socket, wake))
            return true
        } == nil)
        #expect(served.count == 3)
        #expect(Set(served.map { ObjectIdentifier($0.1) }).count == 3)
        #expect(served.allSatisfy { fcntl($0.0.rawValue, F_GETFL) & O_NONBLOCK != 0 })
        served.forEach { $0.0.close() }
        // Nothing waits any more.
        #expect(try bench.loop.wait(until: .now, accepting: true) == [])
    }

    @Test func aRefusedConnectionLeavesItsDoorbellForTheNext() throws {
        let bench = try Bench()
        let clients = try (0..<2).map { _ in try bench.connect() }
        defer { clients.forEach { $0.close() } }
        var doorbells: [ObjectIdentifier] = []
        bench.loop.acceptPending(nonBlocking: false) { socket, wake in
            doorbells.append(ObjectIdentifier(wake))
            #expect(fcntl(socket.rawValue, F_GETFL) & O_NONBLOCK == 0)
            socket.close()
            return false
        }
        #expect(doorbells.count == 2 && doorbells[0] == doorbells[1])
    }

    @Test func theListenerIsLeftOutOnceAcceptingEnds() throws {
        let bench = try Bench()
        let client = try bench.connect()
        defer { client.close() }
        #expect(try bench.loop.wait(until: .now + .milliseconds(20), accepting: false) == [])
        #expect(try bench.loop.wait(until: .now, accepting: true) == [.newConnection])
    }

    @Test func theDoorbellWakesTheLoopAndIsTakenIn() throws {
        let bench = try Bench()
        bench.doorbell.ring()
        #expect(try bench.loop.wait(until: nil, accepting: true) == [.doorbell])
        #expect(try bench.loop.wait(until: .now, accepting: true) == [])
    }

    @Test func aSignalWakesTheLoopBeforeAConnectionIsAccepted() throws {
        let bench = try Bench()
        let client = try bench.connect()
        defer { client.close() }
        try withSignalBlockedOnThisThread(SIGUSR1) { () throws in
            bench.doorbell.ring()
            raise(SIGUSR1)
            // In the order to attend to them: the doorbell, the signals, then the new connection.
            #expect(try bench.loop.wait(until: nil, accepting: true) == [.doorbell, .signal, .newConnection])
            #expect(try bench.loop.nextSignal() == SIGUSR1)
            #expect(try bench.loop.nextSignal() == nil)
        }
    }

    @Test func aFailingAcceptPausesTheListenerAndIsLoggedOnce() throws {
        // A socket that does not listen: `accept` fails (EINVAL) as it would for want of a
        // descriptor, and `poll` finds it ready at once, as a listener with clients waiting.
        let broken = try Socket.makeStream(nonBlocking: true)
        let bench = try Bench(listener: broken)
        #expect(try bench.loop.wait(until: .now, accepting: true) == [.newConnection])
        var served = 0
        let failure = bench.loop.acceptPending(nonBlocking: true) { _, _ in served += 1; return true }
        #expect(failure == Errno(rawValue: EINVAL) && served == 0)
        #expect(bench.logged == "leitnerd: cannot accept a connection: \(Errno(rawValue: EINVAL)), pausing accepts for 100 ms (logged once in 10 s)\n")
        // Paused: the wait does not spin on the listener; it ends when the pause does.
        let start = MonotonicTime.now
        #expect(try bench.loop.wait(until: nil, accepting: true) == [])
        #expect(MonotonicTime.now - start >= AcceptLoop.acceptPause - .milliseconds(5))
        // Then the listener is polled again; a second failure so soon is not logged again.
        #expect(try bench.loop.wait(until: nil, accepting: true) == [.newConnection])
        #expect(bench.loop.acceptPending(nonBlocking: true) { _, _ in true } == Errno(rawValue: EINVAL))
        #expect(bench.logged.isEmpty)
    }
}
