/// One protobuf message read field by field, as Anki writes its package's `meta`, its new media
/// map (`MediaEntries`) and the `config` columns of a schema 18 collection (docs/anki-import.md).
/// Only the wire format is known here (varint keys; wire types 0, 1, 2 and 5); which field
/// number means what is the caller's, from Anki's `.proto` files. Unknown fields are kept and
/// ignored, as protobuf readers do, so that a newer Anki's additions do not stop an import.
public struct ProtobufMessage: Sendable {
    public enum Value: Sendable, Equatable {
        case varint(UInt64)
        case fixed64(UInt64)
        case bytes(ArraySlice<UInt8>)
        case fixed32(UInt32)
    }

    /// The fields in the order they were written; a repeated field appears once per value.
    public let fields: [(number: Int, value: Value)]

    /// Reads every field of `bytes`.
    /// - Throws: `ProtobufError` when a key, a varint or a length runs past the end, or a
    ///   wire type is one protobuf no longer writes (3 and 4, groups) or never defined.
    public init(_ bytes: ArraySlice<UInt8>) throws(ProtobufError) {
        var fields: [(number: Int, value: Value)] = []
        var at = bytes.startIndex
        func varint() throws(ProtobufError) -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard at < bytes.endIndex else { throw .truncated(at: at - bytes.startIndex) }
                let byte = bytes[at]
                at += 1
                guard shift < 64 else { throw .varintTooLong(at: at - bytes.startIndex) }
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
        }
        func take(_ count: UInt64) throws(ProtobufError) -> ArraySlice<UInt8> {
            guard count <= UInt64(bytes.endIndex - at) else { throw .truncated(at: at - bytes.startIndex) }
            let slice = bytes[at..<(at + Int(count))]
            at += Int(count)
            return slice
        }
        func little(_ slice: ArraySlice<UInt8>) -> UInt64 {
            slice.reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        while at < bytes.endIndex {
            let start = at - bytes.startIndex
            let key = try varint()
            let number = Int(truncatingIfNeeded: key >> 3)
            guard number > 0 else { throw .badKey(at: start) }
            switch key & 7 {
            case 0: fields.append((number, .varint(try varint())))
            case 1: fields.append((number, .fixed64(little(try take(8)))))
            case 2: fields.append((number, .bytes(try take(try varint()))))
            case 5: fields.append((number, .fixed32(UInt32(little(try take(4))))))
            default: throw .badWireType(Int(key & 7), at: start)
            }
        }
        self.fields = fields
    }

    public init(_ bytes: [UInt8]) throws(ProtobufError) { try self.init(bytes[...]) }

    /// The last value of field `number`, as protobuf reads a field written twice.
    public func value(_ number: Int) -> Value? { fields.last { $0.number == number }?.value }

    /// A varint field (an integer, an enum or a bool); nil when absent, which protobuf reads as 0.
    public func integer(_ number: Int) -> UInt64? {
        if case .varint(let value) = value(number) { return value }
        return nil
    }

    /// A string field, nil when absent or not UTF-8.
    public func string(_ number: Int) -> String? {
        if case .bytes(let bytes) = value(number) { return String(validating: bytes, as: UTF8.self) }
        return nil
    }

    /// Every value of a repeated message field, each read as a message.
    public func messages(_ number: Int) throws(ProtobufError) -> [ProtobufMessage] {
        var messages: [ProtobufMessage] = []
        for field in fields where field.number == number {
            if case .bytes(let bytes) = field.value { messages.append(try ProtobufMessage(bytes)) }
        }
        return messages
    }
}

/// Why bytes are not a protobuf message; `at` is the byte offset where reading stopped.
public enum ProtobufError: Error, Sendable, Equatable, CustomStringConvertible {
    case truncated(at: Int)
    case varintTooLong(at: Int)
    case badKey(at: Int)
    case badWireType(Int, at: Int)

    public var description: String {
        switch self {
        case .truncated(let at): "a protobuf field runs past the end (byte \(at))"
        case .varintTooLong(let at): "a protobuf varint is longer than 10 bytes (byte \(at))"
        case .badKey(let at): "a protobuf field has number 0 (byte \(at))"
        case .badWireType(let type, let at): "a protobuf field has wire type \(type) (byte \(at))"
        }
    }
}
