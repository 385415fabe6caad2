/// Card ids (R20): 1–128 bytes of UTF-8 in Unicode normal form C, made of letters, digits and
/// combining marks of any script (general categories L, N, M) and `. _ -`, not starting with
/// `.` or `-`: `hola`, `猫`, `café-au-lait`, `ありがとう`.
public enum CardID {
    /// The longest id, in bytes.
    public static let maxLength = 128

    /// Why `id` is not a valid card id, or nil when it is one.
    /// - Parameter id: the proposed id, as received.
    public static func problem(_ id: String) -> String? {
        let bytes = id.utf8
        if bytes.isEmpty { return "is empty" }
        if bytes.count > maxLength { return "is longer than \(maxLength) bytes" }
        if let first = bytes.first, first == UInt8(ascii: ".") || first == UInt8(ascii: "-") {
            return "starts with '\(Character(Unicode.Scalar(first)))'"
        }
        // The common case, an ASCII id, is decided on its bytes: the store's scan checks every
        // card directory's name at open.
        var ascii = true
        for byte in bytes {
            if byte >= 0x80 { ascii = false; continue }
            if !isAllowed(byte) { return asciiProblem(byte) }
        }
        if ascii { return nil }
        for scalar in id.unicodeScalars where !isAllowed(scalar) {
            if scalar.isASCII { return asciiProblem(UInt8(scalar.value)) }
            if scalar.properties.isWhitespace { return "contains a space character (U+\(hex(scalar)))" }
            if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format {
                return "contains a control character (U+\(hex(scalar)))"
            }
            if scalar == "\u{FFFD}" { return "is not valid UTF-8" }
            return "contains '\(scalar)' (U+\(hex(scalar))), which is not a letter, a digit or a mark"
        }
        if !isNFC(id) { return "is not in Unicode normal form C (NFC); write it composed, e.g. 'é' as one character" }
        return nil
    }

    /// True when `bytes` are a valid card id made of ASCII alone (R20), decided on the bytes; false
    /// for any other, valid or not, which `problem` then decides. The store's scan indexes
    /// 100,000 directory names at open this way, without making a string of each; a `tags`
    /// file's line is checked a part at a time (`CardTag.asciiTag`).
    static func isValidASCII(_ bytes: some Collection<UInt8>) -> Bool {
        guard let first = bytes.first, bytes.count <= maxLength,
              first != UInt8(ascii: "."), first != UInt8(ascii: "-") else { return false }
        return bytes.allSatisfy { $0 < 0x80 && isAllowed($0) }
    }

    /// True when `id` is a valid card id (R20).
    public static func isValid(_ id: String) -> Bool { problem(id) == nil }

    /// Validates `id`.
    /// - Throws: `BoxError.invalidCardId` naming the id and the reason (R20).
    public static func validate(_ id: String) throws(BoxError) {
        if let reason = problem(id) { throw .invalidCardId(id: id, reason: reason) }
    }

    /// `text` in Unicode normal form C.
    public static func composed(_ text: String) -> String {
        String(decoding: Array(text._nfcCodeUnits), as: UTF8.self)
    }

    static func isNFC(_ text: String) -> Bool {
        text._nfcCodeUnits.elementsEqual(text.utf8)
    }

    /// A scalar an id may hold: a letter, digit or mark of any script, or `. _ -` (R20).
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isAllowed(UInt8(scalar.value)) }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber,
             .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    @inline(__always) static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    private static func asciiProblem(_ byte: UInt8) -> String {
        switch byte {
        case 0: return "contains a NUL byte"
        case UInt8(ascii: "/"): return "contains '/'"
        case UInt8(ascii: " "): return "contains a space"
        case 0x01..<0x20, 0x7F: return "contains a control character"
        default: return "contains '\(Character(Unicode.Scalar(byte)))', which is not a letter, a digit, a mark or . _ -"
        }
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
