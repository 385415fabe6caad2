/// The day record (docs/rules.md, R4–R7): for each logical date at most one entry, `completed` or
/// `skipped`, in date order. Its length is the cycle position `p`.
///
/// A pure value: the store reads and appends the file `.leitner/days`; this type parses it,
/// checks it and writes its lines. The text form is one entry a line,
/// `YYYY-MM-DD completed` or `YYYY-MM-DD skipped`; blank lines and `#` comment lines are
/// allowed and not kept.
public struct DayRecord: Sendable, Equatable {
    /// What became of a test's date.
    public enum Outcome: String, Sendable, CaseIterable {
        /// The test was completed that day (R4).
        case completed
        /// The day passed with nothing to show (R6, R7).
        case skipped
    }

    /// One date of the record.
    public struct Entry: Sendable, Equatable {
        public var date: LogicalDate
        public var outcome: Outcome

        public init(date: LogicalDate, outcome: Outcome) {
            self.date = date
            self.outcome = outcome
        }
    }

    /// The entries, in date order, at most one per date.
    public internal(set) var entries: [Entry]

    /// An empty record: cycle position 0.
    public init() {
        entries = []
    }

    /// A record of the given entries.
    /// - Throws: `DayRecordError` (with line numbers counting entries from 1, file name
    ///   `fileName`) when a date is out of order or repeated.
    public init(entries: [Entry], fileName: String = "day record") throws(DayRecordError) {
        self.init()
        for (index, entry) in entries.enumerated() {
            if let message = problem(appending: entry) {
                throw DayRecordError(fileName: fileName, line: index + 1, message: message)
            }
            self.entries.append(entry)
        }
    }

    /// The cycle position `p` (docs/rules.md): the number of entries.
    public var position: Int { entries.count }

    /// The latest entry, nil while the record is empty.
    public var last: Entry? { entries.last }

    /// What became of `date`: nil when the record has no entry for it.
    public func state(of date: LogicalDate) -> Outcome? {
        // Binary search: the record grows by a line a day and is asked for ranges of dates.
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].date < date { low = middle + 1 } else { high = middle }
        }
        return low < entries.count && entries[low].date == date ? entries[low].outcome : nil
    }

    /// Appends an entry after the last one (R4, R6).
    /// - Throws: `DayRecordError` when `entry.date` is not after the last date.
    public mutating func append(_ entry: Entry) throws(DayRecordError) {
        if let message = problem(appending: entry) {
            throw DayRecordError(fileName: "day record", line: entries.count + 1, message: message)
        }
        entries.append(entry)
    }

    /// Removes the last entry and returns it: undoing the grade that completed a test (R15).
    @discardableResult
    public mutating func removeLast() -> Entry? {
        entries.popLast()
    }

    /// Why `entry` cannot follow the entries so far, or nil when it can.
    func problem(appending entry: Entry) -> String? {
        guard let last = entries.last, entry.date <= last.date else { return nil }
        if entry.date == last.date { return "date \(entry.date) repeated" }
        return "date \(entry.date) comes after \(last.date)"
    }

    /// The text line of `entry`, without its newline: `2026-03-01 completed`.
    public static func line(for entry: Entry) -> String {
        "\(entry.date) \(entry.outcome.rawValue)"
    }

    /// The whole record as text, each line ended by a newline (comments are not kept).
    public var text: String {
        var result = ""
        result.reserveCapacity(entries.count * 21)
        for entry in entries {
            result += DayRecord.line(for: entry)
            result += "\n"
        }
        return result
    }
}
