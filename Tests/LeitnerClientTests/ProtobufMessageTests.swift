import Testing
@testable import LeitnerClient

@Suite struct ProtobufMessageTests {
    /// The `media` file of a package Anki 26.09 wrote (decompressed): two `MediaEntry`s.
    static let mediaEntries: [UInt8] = [
        0x0A, 0x21, 0x0A, 0x07] + Array("cat.png".utf8) + [0x10, 0x46, 0x1A, 0x14] + Array(repeating: 0xAB, count: 20) + [
        0x0A, 0x23, 0x0A, 0x08] + Array("miau.mp3".utf8) + [0x10, 0xA1, 0x03, 0x1A, 0x14] + Array(repeating: 0xCD, count: 20)

    @Test func readsRepeatedMessagesStringsAndVarints() throws {
        let entries = try ProtobufMessage(Self.mediaEntries).messages(1)
        #expect(entries.map { $0.string(1) } == ["cat.png", "miau.mp3"])
        #expect(entries.map { $0.integer(2) } == [70, 417])
        #expect(entries[0].integer(255) == nil)
    }

    @Test func metaVersionAndFixedWidths() throws {
        #expect(try ProtobufMessage([0x08, 0x03]).integer(1) == 3)
        let message = try ProtobufMessage([0x09, 1, 0, 0, 0, 0, 0, 0, 0x80, 0x15, 2, 1, 0, 0, 0x08, 0x96, 0x01])
        #expect(message.fields[0].value == .fixed64(0x8000_0000_0000_0001))
        #expect(message.value(2) == .fixed32(0x0000_0102))
        #expect(message.integer(1) == 150)  // the last value of a field written twice
    }

    @Test func refusesTruncatedAndUnknownWireTypes() {
        #expect(throws: ProtobufError.truncated(at: 2)) { try ProtobufMessage([0x0A, 0x05, 0x41]) }
        #expect(throws: ProtobufError.truncated(at: 2)) { try ProtobufMessage([0x08, 0x80]) }
        #expect(throws: ProtobufError.badWireType(3, at: 0)) { try ProtobufMessage([0x0B]) }
        #expect(throws: ProtobufError.badKey(at: 0)) { try ProtobufMessage([0x00, 0x01]) }
        #expect(throws: ProtobufError.varintTooLong(at: 12)) { try ProtobufMessage([0x08] + Array(repeating: 0xFF, count: 11)) }
    }
}
