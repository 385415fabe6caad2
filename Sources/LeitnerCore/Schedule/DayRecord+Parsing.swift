extension DayRecord {
    /// A day record read from its text, and whether its last line was torn.
    public struct ParseResult: Sendable, Equatable {
        /// The entries read.
        public var record: DayRecord
        /// True when the text's last line had no newline: an append cut short by a crash. A
        /// complete entry there is kept, an incomplete one is dropped (`droppedLine`). Either
        /// way the store should write the file again as `record.text` before appending.
        public var tornTail: Bool
        /// The incomplete last line that was dropped, for a warning; nil when nothing was.
        public var droppedLine: String?
    }

    /// Reads a day record from its text, requiring every line to be complete.
    /// - Parameters:
    ///   - text: the file's content.
    ///   - fileName: the path named in errors.
    /// - Throws: `DayRecordError` `FILE:LINE: message` for a malformed line, a date that does not
    ///   exist, a date out of order or repeated, or a torn last line.
    public init(parsing text: String, fileName: String) throws(DayRecordError) {
        let result = try DayRecord.parse(text, fileName: fileName)
        if let dropped = result.droppedLine {
            throw DayRecordError(fileName: fileName, line: text.lines.count,
                                 message: "incomplete last line '\(dropped)'")
        }
        self = result.record
    }

    /// Reads a day record from its text, tolerating a torn last line: a last line without a
    /// newline that is the beginning of an entry (a crash in the middle of an append, R18).
    /// - Parameters:
    ///   - text: the file's content.
    ///   - fileName: the path named in errors.
    /// - Throws: `DayRecordError` `FILE:LINE: message` for a malformed line, a date that does not
    ///   exist, or a date out of order or repeated.
    public static func parse(_ text: String, fileName: String) throws(DayRecordError) -> ParseResult {
        var record = DayRecord()
        let lines = text.lines
        // After the last newline: empty, or a line whose newline was never written.
        let unterminated = lines.last!.isEmpty ? nil : lines.count - 1
        for (index, rawLine) in lines.enumerated() {
            let line = rawLine.trimmingBlanks
            if line.isEmpty || line.hasPrefix("#") { continue }
            func fail(_ message: String) -> DayRecordError {
                DayRecordError(fileName: fileName, line: index + 1, message: message)
            }
            guard let entry = try entry(of: line, fail: fail) else {
                if index == unterminated, isBeginningOfEntry(line) {
                    return ParseResult(record: record, tornTail: true, droppedLine: String(line))
                }
                throw fail("expected 'YYYY-MM-DD completed' or 'YYYY-MM-DD skipped', got '\(line)'")
            }
            if let message = record.problem(appending: entry) { throw fail(message) }
            record.entries.append(entry)
        }
        return ParseResult(record: record, tornTail: unterminated != nil, droppedLine: nil)
    }

    /// The entry a non-blank line holds; nil when the line does not have the shape of one.
    /// - Throws: the error `fail` makes, for a well-shaped line with an impossible date or an
    ///   unknown outcome.
    private static func entry(of line: Substring,
                              fail: (String) -> DayRecordError) throws(DayRecordError) -> Entry? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count == 2, isDateShaped(words[0]) else { return nil }
        guard let date = LogicalDate(words[0]) else { throw fail("no such date '\(words[0])'") }
        guard let outcome = Outcome(rawValue: String(words[1])) else {
            if isBeginningOfOutcome(words[1]) { return nil }
            throw fail("unknown outcome '\(words[1])', expected 'completed' or 'skipped'")
        }
        return Entry(date: date, outcome: outcome)
    }

    /// `NNNN-NN-NN`, whether or not the date exists.
    private static func isDateShaped(_ word: Substring) -> Bool {
        let bytes = Array(word.utf8)
        guard bytes.count == 10 else { return false }
        return bytes.enumerated().allSatisfy { index, byte in
            index == 4 || index == 7 ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    /// True when `word` is a proper beginning of an outcome's name.
    private static func isBeginningOfOutcome(_ word: Substring) -> Bool {
        Outcome.allCases.contains { $0.rawValue.count > word.count && $0.rawValue.hasPrefix(word) }
    }

    /// True when `line` is a proper beginning of some entry line: what a torn append leaves.
    private static func isBeginningOfEntry(_ line: Substring) -> Bool {
        let pattern = Array("0000-00-00 ".utf8)
        let bytes = Array(line.utf8)
        for (index, byte) in bytes.prefix(pattern.count).enumerated() {
            let fits = pattern[index] == UInt8(ascii: "0")
                ? (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) : byte == pattern[index]
            if !fits { return false }
        }
        guard bytes.count > pattern.count else { return true }
        return isBeginningOfOutcome(line.dropFirst(pattern.count))
    }
}

/// A day record that cannot be read: `FILE:LINE: message`.
public struct DayRecordError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file (or name) the record came from.
    public var fileName: String
    /// The line, from 1.
    public var line: Int
    /// What is wrong with it.
    public var message: String

    public init(fileName: String, line: Int, message: String) {
        self.fileName = fileName
        self.line = line
        self.message = message
    }

    public var description: String { "\(fileName):\(line): \(message)" }
}
