/// A `multipart/form-data` body (RFC 7578), the only way a browser sends a file without a script:
/// the add page's photo and drawing. Text fields become strings, files keep their bytes and the
/// name the browser gave. Read strictly: a part without a name, a boundary that never closes, or
/// a field that is not UTF-8 makes the whole form unreadable (nil), never a half-read one.
public struct MultipartForm: Sendable, Equatable {
    public struct File: Sendable, Equatable {
        /// The file name the browser sent (`photo.jpg`), or empty when none was chosen.
        public var fileName: String
        public var contentType: String
        public var content: [UInt8]
    }

    public var fields: [String: String] = [:]
    public var files: [String: File] = [:]

    /// The boundary of a `Content-Type: multipart/form-data; boundary=…` header, or nil.
    public static func boundary(contentType: String) -> String? {
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(" \t") }
        guard parts.first?.lowercased() == "multipart/form-data" else { return nil }
        for part in parts.dropFirst() where part.lowercased().hasPrefix("boundary=") {
            var value = String(part.dropFirst("boundary=".count))
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            // RFC 2046: 1 to 70 characters.
            return (1...70).contains(value.utf8.count) ? value : nil
        }
        return nil
    }

    /// The form in `body`, whose parts are separated by `--boundary`.
    public init?(body: [UInt8], boundary: String) {
        let delimiter = Array("\r\n--\(boundary)".utf8)
        // The first delimiter has no CR LF before it when it starts the body.
        let data = Array("\r\n".utf8) + body
        guard var start = Self.find(delimiter, in: data, from: 0) else { return nil }
        while true {
            var cursor = start + delimiter.count
            // `--` after the delimiter closes the form.
            if data.count >= cursor + 2, data[cursor] == 45, data[cursor + 1] == 45 { return }
            guard data.count >= cursor + 2, data[cursor] == 13, data[cursor + 1] == 10 else { return nil }
            cursor += 2
            guard let headEnd = Self.find(Array("\r\n\r\n".utf8), in: data, from: cursor - 2),
                  let next = Self.find(delimiter, in: data, from: headEnd + 4) else { return nil }
            // A part with no header lines at all ends its head at the CR LF that ended the
            // delimiter, before `cursor`: its head is empty (and it has no name, so it is refused).
            let head = headEnd > cursor ? String(decoding: data[cursor..<headEnd], as: UTF8.self) : ""
            let content = Array(data[(headEnd + 4)..<next])
            var disposition = ""
            var type = "text/plain"
            for line in head.split(separator: "\r\n", omittingEmptySubsequences: true) {
                guard let colon = line.firstIndex(of: ":") else { return nil }
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(" \t")
                if name == "content-disposition" { disposition = value } else if name == "content-type" { type = value }
            }
            guard let name = Self.parameter("name", of: disposition), !name.isEmpty else { return nil }
            if let fileName = Self.parameter("filename", of: disposition) {
                files[name] = File(fileName: fileName, contentType: type, content: content)
            } else {
                guard let text = String(validating: content, as: UTF8.self) else { return nil }
                fields[name] = text
            }
            start = next
        }
    }

    /// A quoted parameter of a `Content-Disposition` (`name="front"`); browsers escape a quote
    /// in a file name as `%22`, so the value ends at the next quote.
    static func parameter(_ wanted: String, of disposition: String) -> String? {
        for part in disposition.split(separator: ";").dropFirst() {
            let trimmed = part.trimmingCharacters(" \t")
            guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals].lowercased() == wanted else { continue }
            var value = trimmed[trimmed.index(after: equals)...]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
            return String(value)
        }
        return nil
    }

    /// The first place of `needle` in `haystack` at or after `from`.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var index = from
        while index <= haystack.count - needle.count {
            if haystack[index] == first {
                var matched = true
                for offset in 1..<needle.count where haystack[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
