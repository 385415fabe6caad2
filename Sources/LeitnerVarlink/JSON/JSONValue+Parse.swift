/// Strict RFC 8259 parsing from UTF-8 bytes. Every request the daemon serves passes through
/// here, so it works on the raw buffer, byte by byte, without Foundation.
extension JSONValue {
    /// How deeply arrays and objects may nest unless a caller says otherwise. Varlink messages of
    /// `io.leitner.Box` nest four levels at most; the limit keeps a hostile message from
    /// exhausting the stack.
    public static let defaultMaxDepth = 64

    /// Parses one JSON text (RFC 8259): a single value, surrounded by optional whitespace.
    ///
    /// Numbers without fraction or exponent that fit in 64 bits become `.int`, other numbers
    /// `.double`. Strings must be valid UTF-8; escapes are decoded, surrogate pairs combined.
    /// An object with the same key twice is refused: a protocol message must not be ambiguous.
    /// - Parameters:
    ///   - bytes: the JSON text, UTF-8, without a byte-order mark.
    ///   - maxDepth: the most arrays and objects that may enclose one another.
    /// - Throws: `JSONParseError` with the byte offset and the reason.
    public init(parsing bytes: UnsafeRawBufferPointer, maxDepth: Int = JSONValue.defaultMaxDepth) throws(JSONParseError) {
        var parser = JSONParser(bytes, maxDepth: maxDepth)
        self = try parser.parseDocument()
    }

    /// Parses one JSON text from an array of bytes; see `init(parsing:maxDepth:)`.
    /// - Throws: `JSONParseError` with the byte offset and the reason.
    public init(parsing bytes: [UInt8], maxDepth: Int = JSONValue.defaultMaxDepth) throws(JSONParseError) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONParseError) in try JSONValue(parsing: raw, maxDepth: maxDepth) }
        }
        self = try result.get()
    }

    /// Parses one JSON text from a string's UTF-8; see `init(parsing:maxDepth:)`.
    /// - Throws: `JSONParseError` with the byte offset and the reason.
    public init(parsing text: String, maxDepth: Int = JSONValue.defaultMaxDepth) throws(JSONParseError) {
        try self.init(parsing: Array(text.utf8), maxDepth: maxDepth)
    }
}

/// The recursive-descent parser behind `JSONValue(parsing:)`. Recursion is bounded by
/// `maxDepth`.
private struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0

    init(_ raw: UnsafeRawBufferPointer, maxDepth: Int) {
        if let base = raw.baseAddress {
            // The bytes are only read as UInt8, the type every byte buffer is bound to.
            bytes = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: raw.count)
        } else {
            bytes = UnsafeBufferPointer(start: nil, count: 0)
        }
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if index < bytes.count { throw failure("trailing \(describe(bytes[index])) after the JSON value") }
        return value
    }

    // MARK: Values

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw failure("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case let byte: throw failure("unexpected \(describe(byte)), expected a value")
        }
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maxDepth { throw failure("arrays and objects nested deeper than \(maxDepth) levels") }
        index += 1 // "{"
        var object: [String: JSONValue] = [:]
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return .object(object)
        }
        while true {
            guard peek() == UInt8(ascii: "\"") else { throw unexpected("a string key") }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw unexpected("':' after an object key") }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            if object.updateValue(value, forKey: key) != nil {
                throw JSONParseError(offset: keyOffset, reason: "duplicate object key '\(key)'")
            }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                index += 1
                return .object(object)
            default:
                throw unexpected("',' or '}' in an object")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maxDepth { throw failure("arrays and objects nested deeper than \(maxDepth) levels") }
        index += 1 // "["
        var array: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return .array(array)
        }
        while true {
            array.append(try parseValue(depth: depth))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                index += 1
                return .array(array)
            default:
                throw unexpected("',' or ']' in an array")
            }
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = index
        let text = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for expected in text {
            guard index < bytes.count, bytes[index] == expected else {
                throw JSONParseError(offset: start, reason: "invalid literal, expected '\(literal)'")
            }
            index += 1
        }
    }

    // MARK: Numbers

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        let negative = peek() == UInt8(ascii: "-")
        if negative { index += 1 }
        // Accumulated negatively so that Int64.min fits; nil once it no longer fits.
        var integer: Int64? = 0
        guard let first = peek(), isDigit(first) else { throw unexpected("a digit") }
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = peek(), isDigit(next) { throw failure("leading zero in a number") }
        } else {
            while let digit = peek(), isDigit(digit) {
                if let value = integer {
                    let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                    let (sum, o2) = times10.subtractingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
                    integer = o1 || o2 ? nil : sum
                }
                index += 1
            }
        }
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            try digits(after: "'.'")
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
            try digits(after: "the exponent")
        }
        if isInteger, let value = integer {
            if negative { return .int(value) }
            if value != Int64.min { return .int(-value) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let double = Double(text), double.isFinite else {
            throw JSONParseError(offset: start, reason: "number '\(text)' out of range")
        }
        return .double(double)
    }

    mutating func digits(after what: String) throws(JSONParseError) {
        guard let first = peek(), isDigit(first) else { throw unexpected("a digit after \(what)") }
        while let digit = peek(), isDigit(digit) { index += 1 }
    }

    @inline(__always) func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    // MARK: Strings

    /// Parses a string starting at its opening quote. Strings without escapes (nearly all of
    /// them) are made straight from the input bytes.
    mutating func parseString() throws(JSONParseError) -> String {
        index += 1 // opening quote
        let start = index
        while index < bytes.count {
            skipPlainRun()
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") {
                return try parseEscapedString(from: start)
            }
            try advanceOverCharacter(byte)
        }
        throw failure("unexpected end of input in a string")
    }

    /// Continues a string at its first backslash (`start`: its first byte). The text is decoded
    /// straight into the new string's storage, sized by the bytes up to the closing quote (an
    /// escape never decodes to more bytes than it is written with): a long text with escapes (a
    /// text asset near the message limit) costs one copy, not three.
    mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
        var end = index
        while end < bytes.count && bytes[end] != UInt8(ascii: "\"") {
            end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
        }
        let capacity = min(end, bytes.count) - start
        var failure: JSONParseError?
        let text = String(unsafeUninitializedCapacity: max(capacity, 1)) { storage -> Int in
            var decoded = DecodedBytes(storage: storage)
            decoded.append(contentsOf: bytes[start..<index])
            do throws(JSONParseError) {
                try parseEscapedRest(into: &decoded)
                return decoded.count
            } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw failure }
        return text
    }

    /// Decodes the rest of a string, from its first backslash to its closing quote.
    mutating func parseEscapedRest(into decoded: inout DecodedBytes) throws(JSONParseError) {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return
            }
            if byte == UInt8(ascii: "\\") {
                try parseEscape(into: &decoded)
                continue
            }
            let start = index
            try advanceOverCharacter(byte)
            decoded.append(contentsOf: bytes[start..<index])
        }
        throw failure("unexpected end of input in a string")
    }

    /// Decodes one escape sequence starting at its backslash.
    mutating func parseEscape(into decoded: inout DecodedBytes) throws(JSONParseError) {
        let start = index
        index += 1
        guard let letter = peek() else { throw failure("unexpected end of input in an escape") }
        index += 1
        let simple: UInt8
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = letter
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            let unit = try hexQuad()
            var scalarValue = UInt32(unit)
            if (0xDC00...0xDFFF).contains(unit) {
                throw JSONParseError(offset: start, reason: "lone low surrogate '\\u\(hex(unit))'")
            }
            if (0xD800...0xDBFF).contains(unit) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw JSONParseError(offset: start, reason: "lone high surrogate '\\u\(hex(unit))'")
                }
                index += 2
                let low = try hexQuad()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw JSONParseError(offset: start, reason: "high surrogate '\\u\(hex(unit))' not followed by a low surrogate")
                }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            }
            // Not a surrogate, or a combined pair: always a valid scalar.
            decoded.append(contentsOf: UTF8.encode(Unicode.Scalar(scalarValue)!)!)
            return
        default:
            throw JSONParseError(offset: start, reason: "invalid escape '\\\(describeBare(letter))'")
        }
        decoded.append(simple)
    }

    /// Reads the four hex digits of a `\u` escape.
    mutating func hexQuad() throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw failure("unexpected end of input in a \\u escape") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid hex digit \(describe(byte)) in a \\u escape")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    /// Steps over the bytes of a string that need no look, eight at a time: printable ASCII
    /// other than `"` and `\`. A long text or base64 asset is nearly all such bytes; the
    /// byte-by-byte loop takes over at the first other one.
    @inline(__always) mutating func skipPlainRun() {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        guard let base = bytes.baseAddress else { return }
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // A byte below 0x20 (its high bit set by the subtraction), or at 0x80 and above.
            let controlOrHigh = ((word &- ones &* 0x20) | word) & highs
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            // A zero byte in `quote` or `backslash` (the usual has-zero-byte test).
            let special = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & highs
            if controlOrHigh | special != 0 { return }
            index += 8
        }
    }

    /// Steps over one unescaped character of a string: refuses control characters (NUL
    /// included) and checks that a multi-byte character is well-formed UTF-8 (RFC 3629: no
    /// overlong forms, no surrogates, nothing above U+10FFFF).
    @inline(__always) mutating func advanceOverCharacter(_ byte: UInt8) throws(JSONParseError) {
        if byte >= 0x20 && byte < 0x80 {
            index += 1
            return
        }
        if byte < 0x20 { throw failure("unescaped \(describe(byte)) in a string") }
        let count: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch byte {
        case 0xC2...0xDF: count = 2
        case 0xE0: count = 3; second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: count = 3
        case 0xED: count = 3; second = 0x80...0x9F
        case 0xF0: count = 4; second = 0x90...0xBF
        case 0xF1...0xF3: count = 4
        case 0xF4: count = 4; second = 0x80...0x8F
        default: throw failure("invalid UTF-8 \(describe(byte))")
        }
        guard index + count <= bytes.count else { throw failure("truncated UTF-8 sequence") }
        guard second.contains(bytes[index + 1]) else { throw failure("invalid UTF-8 sequence") }
        for offset in 2..<count where bytes[index + offset] & 0xC0 != 0x80 {
            throw failure("invalid UTF-8 sequence")
        }
        index += count
    }

    // MARK: Helpers

    @inline(__always) func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    @inline(__always) mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    func failure(_ reason: String) -> JSONParseError { JSONParseError(offset: index, reason: reason) }

    /// "unexpected X, expected Y" at the current offset, or "unexpected end of input".
    func unexpected(_ expected: String) -> JSONParseError {
        guard let byte = peek() else { return failure("unexpected end of input, expected \(expected)") }
        return failure("unexpected \(describe(byte)), expected \(expected)")
    }

    /// A byte as an error message shows it: `'x'` for printable ASCII, else `byte 0x00`.
    func describe(_ byte: UInt8) -> String {
        if byte == 0 { return "NUL byte" }
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(hex(UInt16(byte), width: 2))"
    }

    func describeBare(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? String(Character(Unicode.Scalar(byte))) : "<0x\(hex(UInt16(byte), width: 2))>"
    }

    func hex(_ value: UInt16, width: Int = 4) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
