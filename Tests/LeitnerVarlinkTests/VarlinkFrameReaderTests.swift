@testable import LeitnerVarlink
import Testing
@testable import LeitnerSystem

@Suite struct VarlinkFrameReaderTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func splitsMessagesOnNUL() throws {
        var reader = VarlinkFrameReader()
        reader.append(contentsOf: bytes("{\"a\":1}") + [0] + bytes("{\"b\":2}") + [0] + bytes("{\"c\""))
        #expect(try reader.nextMessage() == bytes("{\"a\":1}"))
        #expect(try reader.nextMessage() == bytes("{\"b\":2}"))
        #expect(try reader.nextMessage() == nil)
        #expect(reader.pendingByteCount == 4)
        reader.append(contentsOf: bytes(":3}") + [0])
        #expect(try reader.nextMessage() == bytes("{\"c\":3}"))
        #expect(try reader.nextMessage() == nil)
        #expect(reader.pendingByteCount == 0)
    }

    @Test func acceptsOneByteAtATime() throws {
        let stream = JSONValue.object(["method": "io.leitner.Box.Status"]).frame
            + JSONValue.object(["method": "io.leitner.Box.Next"]).frame
        var reader = VarlinkFrameReader()
        var messages: [JSONValue] = []
        for byte in stream {
            reader.append(contentsOf: [byte])
            while let message = try reader.nextMessage() { messages.append(try JSONValue(parsing: message)) }
        }
        #expect(messages == [["method": "io.leitner.Box.Status"], ["method": "io.leitner.Box.Next"]])
    }

    @Test func emptyMessageIsYielded() throws {
        // An empty frame is not valid JSON; the reader yields it and the parser refuses it.
        var reader = VarlinkFrameReader()
        reader.append(contentsOf: [0])
        #expect(try reader.nextMessage() == [])
    }

    /// docs/protocol.md: a message over the limit closes the connection; it is caught before its NUL.
    @Test func tooLargeBeforeTheNULArrives() throws {
        var reader = VarlinkFrameReader(maxMessageSize: 10)
        reader.append(contentsOf: bytes("0123456789"))
        #expect(try reader.nextMessage() == nil) // exactly the limit: may still end here
        reader.append(contentsOf: bytes("x"))
        #expect(throws: VarlinkFrameError.tooLarge(limit: 10)) { try reader.nextMessage() }
    }

    @Test func tooLargeCompleteMessage() throws {
        var reader = VarlinkFrameReader(maxMessageSize: 4)
        reader.append(contentsOf: bytes("abcd") + [0] + bytes("abcde") + [0])
        #expect(try reader.nextMessage() == bytes("abcd"))
        #expect(throws: VarlinkFrameError.tooLarge(limit: 4)) { try reader.nextMessage() }
    }

    @Test func limitCountsOnlyTheCurrentMessage() throws {
        var reader = VarlinkFrameReader(maxMessageSize: 8)
        for _ in 0..<100 {
            reader.append(contentsOf: bytes("{\"a\":1}") + [0])
            #expect(try reader.nextMessage() == bytes("{\"a\":1}"))
        }
    }

    @Test func manyMessagesInOneChunkAfterCompaction() throws {
        var reader = VarlinkFrameReader()
        let message = bytes(String(repeating: "x", count: 1000))
        var chunk: [UInt8] = []
        for _ in 0..<200 { chunk += message + [0] }
        reader.append(contentsOf: chunk)
        for _ in 0..<150 { #expect(try reader.nextMessage() == message) }
        reader.append(contentsOf: message + [0]) // compacts the 150 consumed messages away
        for _ in 0..<51 { #expect(try reader.nextMessage() == message) }
        #expect(try reader.nextMessage() == nil)
    }

    @Test func receivesFromASocket() throws {
        let (a, b) = try Socket.makePair()
        defer { a.close(); b.close() }
        try Socket.sendAll(a, bytes("{\"x\":1}") + [0] + bytes("{\"y\""))
        var reader = VarlinkFrameReader()
        #expect(try reader.receive(from: b) == 12)
        #expect(try reader.nextMessage() == bytes("{\"x\":1}"))
        #expect(try reader.nextMessage() == nil)
        try Socket.shutdownSending(a)
        #expect(try reader.receive(from: b) == 0)
        #expect(reader.pendingByteCount == 4) // the peer left in the middle of a message
    }

    /// A server parses a message where it lies (docs/daemon.md, "Memory"): no copy is made.
    @Test func lendsTheMessageInPlace() throws {
        var reader = VarlinkFrameReader()
        reader.append(contentsOf: bytes("{\"a\":1}") + [0] + bytes("{\"b\""))
        let lent = try reader.nextMessage { raw in (Array(raw), raw.count) }
        #expect(lent?.0 == bytes("{\"a\":1}") && lent?.1 == 7)
        #expect(try reader.nextMessage { _ in true } == nil)
        #expect(reader.pendingByteCount == 4)
    }

    /// After one long message the buffer does not stay large for the connection's life.
    @Test func freesTheStorageOfALongMessage() throws {
        var reader = VarlinkFrameReader(maxMessageSize: 1 << 20, retainedCapacity: 4096)
        reader.reserveCapacity(forPending: (1 << 20) + 1)
        #expect(reader.capacity > 1 << 20)
        reader.append(contentsOf: [UInt8](repeating: UInt8(ascii: "x"), count: 500_000) + [0] + bytes("{\"n\""))
        #expect(reader.capacity > 1 << 20) // reserved once: not grown (copied) along the way
        #expect(try reader.nextMessage { $0.count } == 500_000)
        #expect(reader.capacity <= 4096)
        #expect(reader.pendingByteCount == 4)
        reader.append(contentsOf: bytes(":1}") + [0])
        #expect(try reader.nextMessage() == bytes("{\"n\":1}"))
    }

    @Test func receivesAtMostTheChunkAskedFor() throws {
        let (a, b) = try Socket.makePair()
        defer { a.close(); b.close() }
        try Socket.sendAll(a, bytes("0123456789"))
        var reader = VarlinkFrameReader()
        #expect(try reader.receive(from: b, chunkSize: 4) == 4)
        #expect(reader.pendingByteCount == 4)
        #expect(try reader.receive(from: b, chunkSize: 100) == 6)
    }
}

