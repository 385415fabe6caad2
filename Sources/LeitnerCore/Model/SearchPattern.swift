import Glibc

/// What a search looks for: a substring, or a regular expression (Swift's `Regex` syntax, the
/// standard library's own engine), both ignoring case.
public struct SearchPattern {
    enum Kind {
        case substring([UInt8])
        case regex(Regex<AnyRegexOutput>)
    }

    let kind: Kind
    public let text: String

    /// - Throws: `invalidPattern` for an empty pattern or a regular expression that does not parse.
    public init(_ text: String, regex: Bool) throws(BoxError) {
        self.text = text
        guard !text.isEmpty else { throw .invalidPattern(pattern: text, reason: "empty") }
        if regex {
            do { kind = .regex(try Regex(text).ignoresCase()) } catch {
                throw .invalidPattern(pattern: text, reason: "not a regular expression: \(error)")
            }
        } else {
            kind = .substring(Array(SearchIndex.fold(text).utf8))
        }
    }

    /// True when folded text (`SearchIndex.fold`) holds a match.
    func matches(folded bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch kind {
        case .substring(let needle):
            return needle.withUnsafeBufferPointer { SearchPattern.contains(bytes, $0) }
        case .regex(let regex):
            return (try? regex.firstMatch(in: String(decoding: bytes, as: UTF8.self))) != nil
        }
    }

    /// `memmem` (not in the headers Swift imports): `memchr` for the first byte, then `memcmp`.
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let needleBase = needle.baseAddress, let first = needle.first else { return true }
        guard haystack.count >= needle.count, let base = haystack.baseAddress else { return false }
        var start = UnsafeRawPointer(base)
        let end = UnsafeRawPointer(base + (haystack.count - needle.count + 1))
        while start < end {
            guard let found = memchr(start, Int32(first), end - start) else { return false }
            if memcmp(found, needleBase, needle.count) == 0 { return true }
            start = UnsafeRawPointer(found) + 1
        }
        return false
    }

    /// True when a line of a card, as it is, holds a match.
    func matches(line: String) -> Bool {
        switch kind {
        case .substring:
            let folded = Array(SearchIndex.fold(line).utf8)
            return folded.withUnsafeBufferPointer { matches(folded: $0) }
        case .regex(let regex):
            return (try? regex.firstMatch(in: line)) != nil
        }
    }
}
