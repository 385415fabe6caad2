import Glibc
import Testing
@testable import LeitnerSystem
import LeitnerTestSupport

/// The one listener of leitnerd and leitner-web, on real sockets in a temporary directory.
/// Socket activation is read from values rather than the environment, which other tests'
/// threads may read meanwhile.
@Suite struct ServiceListenerTests {
    /// A log whose lines a test reads back.
    final class CapturedLog {
        let reader: FileDescriptor
        let log: ServiceLog

        init() throws {
            let (writer, reader) = try Socket.makePair()
            try reader.setNonBlocking()
            self.reader = reader
            log = ServiceLog(program: "leitnerd", clock: nil, descriptor: writer, style: .plain)
        }

        var lines: String {
            var bytes = [UInt8](repeating: 0, count: 4096)
            let count = (try? bytes.withUnsafeMutableBytes { try Socket.receive(reader, into: $0) }) ?? 0
            return String(decoding: bytes[..<count], as: UTF8.self)
        }
    }

    @Test func bindsAtAPathWithItsModeInAPrivateDirectory() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/run/leitnerd.sock"
        let listener = try ServiceListener.bind(path: path, mode: 0o600, log: try CapturedLog().log)
        defer { listener.descriptor.close() }
        #expect(listener.createdPath == path && !listener.activated)
        #expect(try FileSystem.status(directory.path + "/run", in: nil).st_mode & 0o777 == 0o700)
        #expect(try FileSystem.status(path, in: nil).st_mode & 0o777 == 0o600)
        #expect(try Socket.isListening(listener.descriptor))
        #expect(fcntl(listener.descriptor.rawValue, F_GETFL) & O_NONBLOCK != 0)
    }

    @Test func aLiveSocketIsNeverTakenAndAStaleOneIsReplaced() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/leitnerd.sock"
        let captured = try CapturedLog()
        let first = try ServiceListener.bind(path: path, mode: 0o600, log: captured.log)
        #expect(throws: ServiceListener.ListenerError(description: "socket '\(path)' is in use by another process")) {
            try ServiceListener.bind(path: path, mode: 0o600, log: captured.log)
        }
        // Closed without removing its file, as a killed daemon leaves it.
        first.descriptor.close()
        let second = try ServiceListener.bind(path: path, mode: 0o600, log: captured.log)
        defer { second.descriptor.close() }
        #expect(captured.lines == "leitnerd: removed stale socket '\(path)'\n")
    }

    @Test func refusesWhatIsNotItsToTake() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = try CapturedLog().log
        directory.write("notes", "keep me")
        #expect(throws: ServiceListener.ListenerError(description: "'\(directory.path)/notes' exists and is not a socket: refusing to replace it")) {
            try ServiceListener.bind(path: directory.path + "/notes", mode: 0o600, log: log)
        }
        #expect(throws: ServiceListener.ListenerError(description: "socket path 'run/leitnerd.sock' is not absolute")) {
            try ServiceListener.bind(path: "run/leitnerd.sock", mode: 0o600, log: log)
        }
        #expect(throws: ServiceListener.ListenerError(description: "socket directory '\(directory.path)/notes' is not a directory")) {
            try ServiceListener.bind(path: directory.path + "/notes/leitnerd.sock", mode: 0o600, log: log)
        }
    }

    @Test func removesOnlyTheSocketItMade() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/leitnerd.sock"
        let log = try CapturedLog().log
        let mine = try ServiceListener.bind(path: path, mode: 0o600, log: log)
        mine.descriptor.close()
        // A successor bound its own socket at the path meanwhile (the first one's file moved
        // aside, so that its inode is not reused): it stays.
        directory.move("leitnerd.sock", "moved.sock")
        let successor = try ServiceListener.bind(path: path, mode: 0o600, log: log)
        defer { successor.descriptor.close() }
        mine.removeCreatedSocket(log: log)
        #expect(directory.exists("leitnerd.sock"))
        successor.removeCreatedSocket(log: log)
        #expect(!directory.exists("leitnerd.sock"))
    }

    @Test func bindsAnAddressAtThePortTheKernelChooses() throws {
        let listener = try ServiceListener.bind(address: Socket.InternetAddress(host: "127.0.0.1", port: 0))
        defer { listener.descriptor.close() }
        #expect(try Socket.localPort(listener.descriptor) != 0)
        #expect(try Socket.family(listener.descriptor) == AF_INET)
        #expect(listener.createdPath == nil && !listener.activated)
    }

    @Test func takesTheSocketSystemdPassedToThisProcessOnly() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let captured = try CapturedLog()
        // Bound blocking, as systemd passes it; the listener makes it non-blocking.
        let passed = try Socket.makeStream()
        defer { passed.close() }
        try Socket.bind(passed, to: directory.path + "/passed.sock")
        try Socket.listen(passed)
        let me = String(getpid())
        func take(_ family: ServiceListener.Family, pid: String? = String(getpid()), count: String? = "1") throws -> ServiceListener? {
            try ServiceListener.activatedSocket(family: family, pid: pid, count: count, first: passed.rawValue, log: captured.log)
        }
        #expect(try take(.local, pid: nil) == nil)
        #expect(try take(.local, pid: String(getpid() + 1)) == nil)
        #expect(try take(.local, count: "0") == nil)
        #expect(try take(.local, count: nil) == nil)
        let taken = try #require(try take(.local, pid: me))
        #expect(taken.activated && taken.createdPath == nil && taken.descriptor.rawValue == passed.rawValue)
        #expect(fcntl(passed.rawValue, F_GETFL) & O_NONBLOCK != 0)
        #expect(captured.lines.isEmpty)
        _ = try take(.local, count: "2")
        #expect(captured.lines == "leitnerd: socket activation passed 2 sockets; using the first, ignoring the others\n")
        // leitner-web's door is TCP: a Unix socket passed to it is a mistake in its unit.
        #expect(throws: ServiceListener.ListenerError(description: "socket activation: descriptor \(passed.rawValue) is not a TCP socket (ListenStream=ADDRESS:PORT)")) {
            try take(.internet)
        }
    }

    @Test func refusesAPassedSocketItCannotServeOn() throws {
        let captured = try CapturedLog()
        let tcp = try ServiceListener.bind(address: Socket.InternetAddress(host: "127.0.0.1", port: 0))
        defer { tcp.descriptor.close() }
        let first = tcp.descriptor.rawValue
        #expect(throws: ServiceListener.ListenerError(description: "socket activation: descriptor \(first) is not a Unix socket (ListenStream=/PATH)")) {
            try ServiceListener.activatedSocket(family: .local, pid: String(getpid()), count: "1", first: first, log: captured.log)
        }
        let (connected, other) = try Socket.makePair()
        defer { connected.close(); other.close() }
        #expect(throws: ServiceListener.ListenerError(description: "socket activation: descriptor \(connected.rawValue) is not a listening socket (use Accept=no)")) {
            try ServiceListener.activatedSocket(family: .local, pid: String(getpid()), count: "1", first: connected.rawValue, log: captured.log)
        }
        // A descriptor number nothing holds (above any limit, so no other test's file takes it).
        #expect(throws: ServiceListener.ListenerError(description: "socket activation: descriptor 999999 is not open (LISTEN_FDS=1)")) {
            try ServiceListener.activatedSocket(family: .local, pid: String(getpid()), count: "1", first: 999_999, log: captured.log)
        }
    }
}
