/// Percent-encoding (RFC 3986) as the routes and forms need it: a path decoded into segments
/// with every trick refused (`..`, an encoded `/` or `\`, a NUL), and form fields decoded.
public enum PercentEncoding {
    /// The segments of a request path, each decoded; nil when the path must be answered 404:
    /// an encoded slash or backslash, a NUL, a `.` or `..` segment, an empty segment inside the
    /// path, text that is not UTF-8, or a broken `%` escape. No file is looked up by any name, but
    /// a route never even sees such a name.
    public static func pathSegments(_ path: String) -> [String]? {
        guard path.hasPrefix("/") else { return nil }
        let raw = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var segments: [String] = []
        for (index, part) in raw.enumerated() {
            if part.isEmpty {
                // Only "/" itself, or a trailing slash, has an empty segment.
                if index == raw.count - 1 { continue }
                return nil
            }
            let lower = part.lowercased()
            if lower.contains("%2f") || lower.contains("%5c") || lower.contains("%00") { return nil }
            guard let decoded = decode(part, plusIsSpace: false) else { return nil }
            if decoded == "." || decoded == ".." || decoded.contains("/") || decoded.contains("\\") || decoded.contains("\0") {
                return nil
            }
            segments.append(decoded)
        }
        return segments
    }

    /// `application/x-www-form-urlencoded` fields (a query, a form's body): `+` is a space. A
    /// name given twice keeps its first value.
    /// - Returns: nil when an escape is broken or a text is not UTF-8.
    public static func formFields(_ text: some StringProtocol) -> [String: String]? {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: "=")
            guard let name = decode(pair[..<(equals ?? pair.endIndex)], plusIsSpace: true),
                  let value = decode(equals.map { pair[pair.index(after: $0)...] } ?? "", plusIsSpace: true)
            else { return nil }
            if fields[name] == nil { fields[name] = value }
        }
        return fields
    }

    /// `text` with its `%XX` escapes decoded; nil when one is broken or the result is not UTF-8.
    public static func decode(_ text: some StringProtocol, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            } else if byte == UInt8(ascii: "+") && plusIsSpace {
                bytes.append(32)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `text` escaped for a path segment or a query value: every byte but the unreserved ones.
    public static func encode(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
