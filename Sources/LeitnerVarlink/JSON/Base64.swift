/// Base64 (RFC 4648 §4, standard alphabet, with padding) for asset bytes on the wire
/// (`Asset.data`, `ReadAsset`), without Foundation.
public enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The 6-bit value of each alphabet byte; 0xFF for bytes outside it.
    static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Encodes bytes as padded base64.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= input.count {
            let group = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            for shift in [18, 12, 6, 0] { output.append(alphabet[Int(group >> UInt32(shift) & 0x3F)]) }
            index += 3
        }
        let rest = input.count - index
        if rest > 0 {
            let group = UInt32(input[index]) << 16 | (rest == 2 ? UInt32(input[index + 1]) << 8 : 0)
            output.append(alphabet[Int(group >> 18 & 0x3F)])
            output.append(alphabet[Int(group >> 12 & 0x3F)])
            output.append(rest == 2 ? alphabet[Int(group >> 6 & 0x3F)] : UInt8(ascii: "="))
            output.append(UInt8(ascii: "="))
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes base64; padding may be left out. No whitespace or other bytes are taken.
    /// - Returns: nil when `text` is not base64.
    public static func decode(_ text: String) -> [UInt8]? {
        // A native string's UTF-8 is read in place: an asset near the message limit is not copied
        // once more before it is decoded.
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ decode(bytes: $0) }) { return decoded }
        return Array(text.utf8).withUnsafeBufferPointer { decode(bytes: $0) }
    }

    /// Decodes base64 bytes; see `decode(_:)`.
    static func decode(bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var input = bytes
        if input.count % 4 == 0 {
            if input.last == UInt8(ascii: "=") { input = UnsafeBufferPointer(rebasing: input.dropLast()) }
            if input.last == UInt8(ascii: "=") { input = UnsafeBufferPointer(rebasing: input.dropLast()) }
        }
        if input.count % 4 == 1 { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 3 / 4)
        var group: UInt32 = 0
        var filled = 0
        for byte in input {
            let value = values[Int(byte)]
            if value == 0xFF { return nil }
            group = group << 6 | UInt32(value)
            filled += 1
            if filled == 4 {
                output.append(UInt8(group >> 16 & 0xFF))
                output.append(UInt8(group >> 8 & 0xFF))
                output.append(UInt8(group & 0xFF))
                group = 0
                filled = 0
            }
        }
        switch filled {
        case 2:
            if group & 0xF != 0 { return nil } // bits past the end must be zero
            output.append(UInt8(group >> 4 & 0xFF))
        case 3:
            if group & 0x3 != 0 { return nil }
            output.append(UInt8(group >> 10 & 0xFF))
            output.append(UInt8(group >> 2 & 0xFF))
        default:
            break
        }
        return output
    }
}
