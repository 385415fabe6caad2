/// Splits the bytes read from a terminal in raw mode into keys. One `read` may hold several
/// keys (typed fast, pasted, or sent at once by tmux), and an escape sequence is never split
/// into its characters: `ESC [ A` is `.up`, not Escape, `[` and `A`.
public struct KeyDecoder {
    private var pending: [UInt8] = []

    public init() {}

    /// Adds `bytes` and returns the whole keys they complete. An incomplete escape sequence or
    /// UTF-8 character at the end waits for the next bytes — or for `flush()`.
    public mutating func feed(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = KeyDecoder.decode(pending[index...]) else { break }
            keys.append(key)
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// What is left when no more bytes came: an Escape pressed alone, or the start of an
    /// unknown sequence, as `.escape`.
    public mutating func flush() -> [Key] {
        defer { pending = [] }
        return pending.isEmpty ? [] : [.escape]
    }

    /// True when bytes wait for the rest of their key.
    public var isWaiting: Bool { !pending.isEmpty }

    /// The key at the start of `bytes` and how many bytes it takes; nil when they are the
    /// beginning of a key still to come.
    static func decode(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
        let first = bytes[bytes.startIndex]
        switch first {
        case 0x1B:
            return escapeSequence(bytes)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x03: return (.controlC, 1)
        case 0x04: return (.controlD, 1)
        case 0x80...:
            // UTF-8: the lead byte says how long the character is.
            let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
            guard bytes.count >= length else { return nil }
            let text = String(decoding: bytes.prefix(length), as: UTF8.self)
            return (.character(text.first ?? "\u{FFFD}"), length)
        default:
            return (.character(Character(Unicode.Scalar(first))), 1)
        }
    }

    /// `ESC [ …` (CSI) and `ESC O …` (SS3) sequences: the keys the review uses, anything else
    /// as `.escape`, consumed whole so that its letters are not read as keys. The terminal's
    /// late answers to the image queries (`ESC _ G … ESC \`, a DA1 `ESC [ ? … c`) are swallowed
    /// whole too: their `i` must not show the card's id.
    private static func escapeSequence(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return nil }
        let introducer = bytes[start + 1]
        if [UInt8(ascii: "_"), UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "^")].contains(introducer) {
            // APC, OSC, DCS, PM: a string ended by ST (`ESC \`) or, for OSC, BEL.
            var index = start + 2
            while index < bytes.endIndex {
                if bytes[index] == 0x07 { return (.escape, index - start + 1) }
                if bytes[index] == 0x1B, index + 1 < bytes.endIndex {
                    if bytes[index + 1] == UInt8(ascii: "\\") { return (.escape, index - start + 2) }
                }
                index += 1
            }
            return nil
        }
        if introducer == UInt8(ascii: "O") {
            guard bytes.count >= 3 else { return nil }
            return (finalKey(bytes[start + 2], parameters: []) ?? .escape, 3)
        }
        guard introducer == UInt8(ascii: "[") else { return (.escape, 1) }
        // Parameter and intermediate bytes (0x20–0x3F), then one final byte (0x40–0x7E).
        var index = start + 2
        while index < bytes.endIndex, (0x20...0x3F).contains(bytes[index]) { index += 1 }
        guard index < bytes.endIndex else { return nil }
        let parameters = Array(bytes[(start + 2)..<index])
        return (finalKey(bytes[index], parameters: parameters) ?? .escape, index - start + 1)
    }

    private static func finalKey(_ final: UInt8, parameters: [UInt8]) -> Key? {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch String(decoding: parameters, as: UTF8.self) {
            case "5": return .pageUp
            case "6": return .pageDown
            case "1", "7": return .home
            case "4", "8": return .end
            default: return nil
            }
        default: return nil
        }
    }
}
