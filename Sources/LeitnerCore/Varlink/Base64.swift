/// Base64 (RFC 4648, standard alphabet, with padding): how `Asset.data` and `ReadAsset` carry
/// bytes in JSON (SPEC §4).
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The value of each alphabet byte, 0xFF for bytes outside the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// The base64 text of `bytes`, padded with `=`.
    public static func encode(_ bytes: [UInt8]) -> String {
        var output = [UInt8]()
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output.append(alphabet[Int(group >> 18 & 63)])
            output.append(alphabet[Int(group >> 12 & 63)])
            output.append(alphabet[Int(group >> 6 & 63)])
            output.append(alphabet[Int(group & 63)])
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            let group = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            output.append(alphabet[Int(group >> 18 & 63)])
            output.append(alphabet[Int(group >> 12 & 63)])
            output.append(rest == 2 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
            output.append(UInt8(ascii: "="))
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of base64 `text`; nil when it is not base64: a byte outside the alphabet, a
    /// length that is not a multiple of 4, or padding anywhere but at the end. Unpadded text
    /// and white space are refused too: the protocol sends canonical base64.
    public static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(input.count / 4 * 3)
        var index = 0
        while index < input.count {
            let isLast = index + 4 == input.count
            let padding = isLast ? (input[index + 3] == UInt8(ascii: "=") ? (input[index + 2] == UInt8(ascii: "=") ? 2 : 1) : 0) : 0
            var group: UInt32 = 0
            for offset in 0..<4 {
                let byte = input[index + offset]
                let value: UInt8
                if offset >= 4 - padding {
                    value = 0
                } else {
                    value = values[Int(byte)]
                    if value == 0xFF { return nil }
                }
                group = group << 6 | UInt32(value)
            }
            output.append(UInt8(group >> 16 & 0xFF))
            if padding < 2 { output.append(UInt8(group >> 8 & 0xFF)) }
            if padding < 1 { output.append(UInt8(group & 0xFF)) }
            index += 4
        }
        return output
    }
}
