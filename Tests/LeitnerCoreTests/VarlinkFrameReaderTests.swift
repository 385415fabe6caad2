import Testing
@testable import LeitnerCore

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

    /// SPEC §4: a message over the limit closes the connection; it is caught before its NUL.
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
}
