import Glibc

/// What a search looks for: a substring, or a regular expression (`LinearRegex`: grep -E's
/// syntax, matched in time linear in the text), both ignoring case.
public struct SearchPattern {
    enum Kind {
        case substring([UInt8])
        /// A regular expression, and bytes every match holds in folded text, when some are sure:
        /// sides without them are passed over before the regex engine runs.
        case regex(LinearRegex, required: [UInt8]?)
    }

    let kind: Kind
    public let text: String

    /// - Throws: `invalidPattern` for an empty pattern or a regular expression `LinearRegex`
    ///   refuses, with its reason.
    public init(_ text: String, regex: Bool) throws(BoxError) {
        self.text = text
        guard !text.isEmpty else { throw .invalidPattern(pattern: text, reason: "empty") }
        if regex {
            do throws(RegexError) {
                let compiled = try LinearRegex(text)
                kind = .regex(compiled, required: compiled.requiredLiteral.isEmpty ? nil : compiled.requiredLiteral)
            } catch {
                throw .invalidPattern(pattern: text, reason: error.reason)
            }
        } else {
            kind = .substring(Array(CaseFolding.fold(text).utf8))
        }
    }

    /// True when folded text (`CaseFolding.fold`) holds a match.
    func matches(folded bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch kind {
        case .substring(let needle):
            return needle.withUnsafeBufferPointer { SearchPattern.contains(bytes, $0) }
        case .regex(let regex, let required):
            if let required, !required.withUnsafeBufferPointer({ SearchPattern.contains(bytes, $0) }) { return false }
            return regex.matches(bytes)
        }
    }

    /// Whether folded text holds a match, a regular expression's steps taken from `budget`
    /// (`SearchScan`); nil when the budget ran out first. A substring costs no steps: `memchr`
    /// and `memcmp` are linear in the text whatever it is.
    func matches(folded bytes: UnsafeBufferPointer<UInt8>, budget: inout Int) -> Bool? {
        switch kind {
        case .substring:
            return matches(folded: bytes)
        case .regex(let regex, let required):
            if let required, !required.withUnsafeBufferPointer({ SearchPattern.contains(bytes, $0) }) { return false }
            return regex.matches(bytes, budget: &budget)
        }
    }

    /// The bytes every match of regular expression `pattern` holds in folded text (nil when
    /// none are sure, or it is no regular expression): runs of literals, joined across anchors
    /// and with what a repeated or grouped part surely begins or ends with (`back 7` in
    /// `^back 7+$`); a class, `.` or an optional part ends a run.
    static func requiredLiteral(_ pattern: String) -> [UInt8]? {
        guard let node = try? RegexParser.parse(pattern) else { return nil }
        let required = node.literals.required
        return required.isEmpty ? nil : required
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

    /// True when a line of a card, as it is, holds a match (or a whole side, for a regular
    /// expression that spans lines).
    func matches(line: String) -> Bool {
        var unlimited = Int.max
        return matches(line: line, budget: &unlimited) ?? false
    }

    /// As `matches(line:)`, a regular expression's steps taken from `budget`; nil when it ran out.
    func matches(line: String, budget: inout Int) -> Bool? {
        // Folded as the index's text is, so that a line matches exactly when it would there.
        let folded = Array(CaseFolding.fold(line).utf8)
        return folded.withUnsafeBufferPointer { matches(folded: $0, budget: &budget) }
    }
}
