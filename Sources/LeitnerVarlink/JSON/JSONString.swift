/// A JSON string put together from parts escaped once, for a writer that writes the same parts
/// thousands of times (a listing's paths: the level's directory, the id, the side's name) and
/// must know its length before writing it (a reply sent in pieces, `VarlinkReplyParts.announce`).
public enum JSONString {
    /// Appends `bytes` escaped as inside a JSON string, without the quotes: what
    /// `JSONValue.string` writes between them.
    public static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
        JSONSerializer.appendEscaped(bytes, to: &buffer)
    }

    /// `appendEscaped` of a string's UTF-8.
    public static func escaped(_ value: String) -> [UInt8] {
        var buffer: [UInt8] = []
        var contiguous = value
        contiguous.withUTF8 { appendEscaped($0, to: &buffer) }
        return buffer
    }

    /// How many bytes `appendEscaped` appends for `bytes`.
    public static func escapedCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = bytes.count
        var start = 0
        if let base = bytes.baseAddress {
            while start + 8 <= bytes.count,
                  !JSONSerializer.mayNeedEscape(UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self)) {
                start += 8
            }
        }
        for index in start..<bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x0D, 0x09, 0x08, 0x0C: count += 1
            case ..<0x20: count += 5
            default: break
            }
        }
        return count
    }

    /// `escapedCount` of a string's UTF-8.
    public static func escapedCount(_ value: String) -> Int {
        var contiguous = value
        return contiguous.withUTF8 { escapedCount($0) }
    }
}
