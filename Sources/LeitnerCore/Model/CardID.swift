/// Card id validation (R20): 1–128 bytes of `A–Z a–z 0–9 . _ -`, not starting with `.` or `-`.
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
        for byte in bytes where !isAllowed(byte) {
            if byte == 0 { return "contains a NUL byte" }
            if byte == UInt8(ascii: "/") { return "contains '/'" }
            return "contains a character other than A-Z a-z 0-9 . _ -"
        }
        return nil
    }

    /// True when `id` is a valid card id (R20).
    public static func isValid(_ id: String) -> Bool { problem(id) == nil }

    /// Validates `id`.
    /// - Throws: `BoxError.invalidCardId` naming the id and the reason (R20).
    public static func validate(_ id: String) throws(BoxError) {
        if let reason = problem(id) { throw .invalidCardId(id: id, reason: reason) }
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
}
