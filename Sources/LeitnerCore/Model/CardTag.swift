/// Tags (R25): a card directory's file `tags` holds one tag a line. A tag is written as a card
/// id is (R20: letters, digits and marks of any script and `. _ -`, not starting with `.` or
/// `-`, at most 128 bytes, NFC), with `:` also allowed between parts for a hierarchy
/// (`ja:kana`): each part between colons is a valid id, so `ja:`, `:ja` and `ja::kana` are not
/// tags. Selecting `ja` selects `ja` and every `ja:…`.
public enum CardTag {
    /// The file of a card directory that holds its tags.
    public static let fileName = "tags"

    /// The most bytes of a `tags` file read: far more than any learner's tags, and a bound on
    /// what a file filled by mistake costs each read of the card.
    public static let maxFileSize = 64 * 1024

    /// Why `tag` is not a valid tag, or nil when it is one.
    public static func problem(_ tag: String) -> String? {
        if tag.utf8.isEmpty { return "is empty" }
        if tag.utf8.count > CardID.maxLength { return "is longer than \(CardID.maxLength) bytes" }
        // The parts are checked as ids, so a tag is refused for the reasons an id would be.
        for part in tag.split(separator: ":", omittingEmptySubsequences: false) {
            if part.isEmpty { return "has an empty part between ':' (write 'a:b', not 'a:', ':b' or 'a::b')" }
            if let reason = CardID.problem(String(part)) { return reason }
        }
        return nil
    }

    /// Validates a tag given by a client.
    /// - Throws: `BoxError.invalidTag` naming the tag and the reason.
    public static func validate(_ tag: String) throws(BoxError) {
        if let reason = problem(tag) { throw .invalidTag(tag: tag, reason: reason) }
    }

    /// A `tags` file read: its valid tags, each once, in the file's order, and its bad lines
    /// (numbered from 1) with the reason. A blank line is no tag and no problem; a line's
    /// surrounding white space (a trailing `\r`, an editor's indent) is not part of it.
    public struct Parsed: Sendable, Equatable {
        public var tags: [String] = []
        public var badLines: [(line: Int, text: String, reason: String)] = []

        public static func == (a: Parsed, b: Parsed) -> Bool {
            a.tags == b.tags && a.badLines.elementsEqual(b.badLines) { $0.line == $1.line && $0.text == $1.text && $0.reason == $1.reason }
        }
    }

    /// Reads the text of a `tags` file.
    public static func parse(_ text: String) -> Parsed {
        var parsed = Parsed()
        var seen = Set<String>()
        // Split on the newline byte, not the Character "\n": "\r\n" is one Character, and a file
        // written on Windows would otherwise have its lines run together and misnumbered.
        for (number, bytes) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            if let tag = asciiTag(bytes) {
                if seen.insert(tag).inserted { parsed.tags.append(tag) }
                continue
            }
            let raw = String(decoding: bytes, as: UTF8.self)
            let tag = String(raw.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
            if tag.isEmpty { continue }
            if let reason = problem(tag) {
                parsed.badLines.append((number + 1, raw, reason))
            } else if seen.insert(tag).inserted {
                parsed.tags.append(tag)
            }
        }
        return parsed
    }

    /// The tag of a line that is a valid ASCII tag, with spaces, tabs or a `\r` around it: the
    /// usual line, decided on its bytes; nil for any other line (blank, bad or not ASCII), which
    /// `parse` reads as characters. Every card a listing gives has its `tags` read, and trimming
    /// and checking each line as characters was a third of reading a tagged card.
    static func asciiTag(_ line: Substring.UTF8View) -> String? {
        func isSpace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
        }
        guard let start = line.firstIndex(where: { !isSpace($0) }),
              let last = line.lastIndex(where: { !isSpace($0) }) else { return nil }
        let tag = line[start...last]
        guard tag.count <= CardID.maxLength else { return nil }
        // Each part between colons a valid ASCII id (`problem`), by the id's own rule.
        var partStart = tag.startIndex
        while true {
            let partEnd = tag[partStart...].firstIndex(of: UInt8(ascii: ":")) ?? tag.endIndex
            guard CardID.isValidASCII(tag[partStart..<partEnd]) else { return nil }
            if partEnd == tag.endIndex { return String(decoding: tag, as: UTF8.self) }
            partStart = tag.index(after: partEnd)
        }
    }

    /// The text of a `tags` file holding `tags`: one a line, each ending with a newline.
    public static func fileText(_ tags: [String]) -> String {
        tags.map { $0 + "\n" }.joined()
    }

    /// True when `selector` selects `tag`: the same tag, or one below it in the hierarchy
    /// (`ja` selects `ja:kana`, not `japan`).
    public static func selects(_ selector: String, _ tag: String) -> Bool {
        selects(Array(selector.utf8)[...], Array(tag.utf8)[...])
    }

    /// `selects(_:_:)` on UTF-8 bytes, as the search index keeps them: no string is made per
    /// card when 100,000 are filtered.
    static func selects(_ selector: ArraySlice<UInt8>, _ tag: some Collection<UInt8>) -> Bool {
        guard tag.count >= selector.count, tag.starts(with: selector) else { return false }
        if tag.count == selector.count { return true }
        return tag.dropFirst(selector.count).first == UInt8(ascii: ":")
    }
}
