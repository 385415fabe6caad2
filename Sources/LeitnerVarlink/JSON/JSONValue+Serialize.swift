/// Compact, deterministic serialisation: no whitespace, object keys sorted, so the same value
/// always gives the same bytes (tests and logs compare them).
extension JSONValue {
    /// Appends the compact JSON text of this value to `buffer`.
    ///
    /// Strings escape `"`, `\` and every control character (so a NUL byte, which ends a Varlink
    /// frame, never appears raw); other characters are written as UTF-8. A non-finite double,
    /// which JSON cannot express, is written as `null`.
    /// - Parameter buffer: the bytes to append to.
    public func serialize(into buffer: inout [UInt8]) {
        switch self {
        case .null: buffer.append(contentsOf: JSONSerializer.null)
        case .bool(let value): buffer.append(contentsOf: value ? JSONSerializer.true : JSONSerializer.false)
        case .int(let value): JSONSerializer.appendInteger(value, to: &buffer)
        case .double(let value): JSONSerializer.appendDouble(value, to: &buffer)
        case .string(let value): JSONSerializer.appendString(value, to: &buffer)
        case .array(let values):
            buffer.append(UInt8(ascii: "["))
            for (i, value) in values.enumerated() {
                if i > 0 { buffer.append(UInt8(ascii: ",")) }
                value.serialize(into: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let object):
            buffer.append(UInt8(ascii: "{"))
            for (i, key) in object.keys.sorted().enumerated() {
                if i > 0 { buffer.append(UInt8(ascii: ",")) }
                JSONSerializer.appendString(key, to: &buffer)
                buffer.append(UInt8(ascii: ":"))
                object[key]!.serialize(into: &buffer)
            }
            buffer.append(UInt8(ascii: "}"))
        }
    }

    /// The compact JSON text of this value, as bytes.
    public var serialized: [UInt8] {
        var buffer: [UInt8] = []
        serialize(into: &buffer)
        return buffer
    }

    /// One Varlink frame: the compact JSON text and the NUL that ends a message (docs/protocol.md).
    public var frame: [UInt8] {
        var buffer: [UInt8] = []
        serialize(into: &buffer)
        buffer.append(0)
        return buffer
    }

    /// The compact JSON text of this value.
    public var jsonText: String { String(decoding: serialized, as: UTF8.self) }
}

/// The pieces of `JSONValue.serialize(into:)`.
enum JSONSerializer {
    static let null = Array("null".utf8)
    static let `true` = Array("true".utf8)
    static let `false` = Array("false".utf8)
    static let hexDigits = Array("0123456789abcdef".utf8)

    static func appendInteger(_ value: Int64, to buffer: inout [UInt8]) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        // The magnitude as unsigned, so that Int64.min needs no special case.
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // 24 bytes: room for 20 digits
        let count = withUnsafeMutableBytes(of: &digits) { raw -> Int in
            var n = 0
            repeat {
                raw[n] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                n += 1
            } while magnitude > 0
            return n
        }
        withUnsafeBytes(of: &digits) { raw in
            for i in stride(from: count - 1, through: 0, by: -1) { buffer.append(raw[i]) }
        }
    }

    static func appendDouble(_ value: Double, to buffer: inout [UInt8]) {
        guard value.isFinite else {
            buffer.append(contentsOf: null)
            return
        }
        // Swift's description is the shortest text that reads back as the same double, and it
        // is valid JSON for finite values ("1.5", "1e-05", "5e+20", "-0.0").
        buffer.append(contentsOf: value.description.utf8)
    }

    static func appendString(_ value: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        var contiguous = value // withUTF8 makes a bridged or lazy string native first
        contiguous.withUTF8 { appendEscaped($0, to: &buffer) }
        buffer.append(UInt8(ascii: "\""))
    }

    /// Appends `bytes` escaped; runs that need no escape (nearly all text) are copied whole.
    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
        var runStart = 0
        // Eight bytes at a time up to the first that may need an escape: a listing's paths and
        // ids need none, and a byte at a time was a sixth of writing a whole level's reply.
        var start = 0
        if let base = bytes.baseAddress {
            while start + 8 <= bytes.count,
                  !mayNeedEscape(UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self)) {
                start += 8
            }
        }
        for index in start..<bytes.count {
            let byte = bytes[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            runStart = index + 1
            buffer.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): buffer.append(byte)
            case 0x0A: buffer.append(UInt8(ascii: "n"))
            case 0x0D: buffer.append(UInt8(ascii: "r"))
            case 0x09: buffer.append(UInt8(ascii: "t"))
            case 0x08: buffer.append(UInt8(ascii: "b"))
            case 0x0C: buffer.append(UInt8(ascii: "f"))
            default:
                buffer.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                           hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
            }
        }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    /// False when none of the eight bytes of `word` is a control character, `"` or `\`; true
    /// when one may be (each test is exact for a byte below 0x80, and a byte from 0x80 on only
    /// makes it true).
    @inline(__always)
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        // A byte below 0x20, or equal to 0x22 or 0x5C (its XOR with them zero), or with its
        // high bit set: the classic "has a byte less than n" test, three times.
        let below = (word &- ones &* 0x20)
        let quote = (word ^ (ones &* 0x22)) &- ones
        let backslash = (word ^ (ones &* 0x5C)) &- ones
        return (below | quote | backslash | word) & highs != 0
    }
}
