import LeitnerCore

/// Checks of argument values that leitnerctl can make before asking the daemon.
enum Arguments {
    /// A level name, `1` … `7` or `finished`, or a place, `new` or `suspended` (R23, R24).
    static func level(_ text: String, command: String) throws -> Level {
        guard let level = Level(name: text) else {
            throw Failure.usage(.invalidValue(text, what: "level", reason: "expected 1 to 7, finished, new or suspended", command: command))
        }
        return level
    }

    /// A date: `YYYY-MM-DD`, `today`, or `+N`/`-N` days from today, within the years a date
    /// has, 0000 to 9999: `N` is checked before it is added, so no number overflows (issue #25).
    static func date(_ text: String, today: LogicalDate, command: String) throws -> LogicalDate {
        let invalid = Failure.usage(.invalidValue(text, what: "date", reason: "expected YYYY-MM-DD, today, +N or -N", command: command))
        if text == "today" { return today }
        if let first = text.first, first == "+" || first == "-", let days = Int(text.dropFirst()) {
            guard days <= Arguments.maxDaysApart else { throw invalid }
            let date = today.adding(days: first == "+" ? days : -days)
            guard (0...9999).contains(date.components.year) else { throw invalid }
            return date
        }
        guard let date = LogicalDate(text) else { throw invalid }
        return date
    }

    /// Days between 0000-01-01 and 9999-12-31, the first and last dates `YYYY-MM-DD` writes.
    static let maxDaysApart = 3_652_424
}
