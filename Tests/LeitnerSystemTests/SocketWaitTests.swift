import Testing
import LeitnerSystem

@Suite struct SocketWaitTests {
    @Test func timesOutWhenNothingArrives() throws {
        let (a, b) = try Socket.makePair()
        defer { a.close(); b.close() }
        #expect(try Socket.wait(a, for: .readable, wake: nil, milliseconds: 10) == .timedOut)
    }

    @Test func readyWhenDataArrives() throws {
        let (a, b) = try Socket.makePair()
        defer { a.close(); b.close() }
        try Socket.sendAll(b, [1])
        #expect(try Socket.wait(a, for: .readable, wake: nil, milliseconds: 10) == .ready)
        #expect(try Socket.wait(a, for: .writable, wake: nil, milliseconds: 10) == .ready)
    }

    @Test func wokenWhenTheWakeDescriptorIsReadable() throws {
        let (a, b) = try Socket.makePair()
        let (wake, trigger) = try Socket.makePair()
        defer { a.close(); b.close(); wake.close(); trigger.close() }
        #expect(try Socket.wait(a, for: .readable, wake: wake, milliseconds: 10) == .timedOut)
        try Socket.sendAll(trigger, [1])
        #expect(try Socket.wait(a, for: .readable, wake: wake, milliseconds: nil) == .woken)
        // Data already on the socket is served before the wake (the reply in hand goes out).
        try Socket.sendAll(b, [1])
        #expect(try Socket.wait(a, for: .readable, wake: wake, milliseconds: nil) == .ready)
    }

    /// A peer is closed once it closed its end, whatever it left unread; one that only shut its
    /// writing still reads, and is not.
    @Test func aPeerIsClosedOnceItClosedItsEnd() throws {
        let (a, b) = try Socket.makePair()
        defer { a.close() }
        #expect(!Socket.peerClosed(a))
        try Socket.sendAll(b, [1])
        #expect(!Socket.peerClosed(a))
        try Socket.shutdownSending(b)
        #expect(!Socket.peerClosed(a))
        try Socket.sendAll(a, [2])
        b.close()
        #expect(Socket.peerClosed(a))
    }
}
