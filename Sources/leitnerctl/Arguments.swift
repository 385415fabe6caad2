import LeitnerCore

/// Checks of argument values that leitnerctl can make before asking the daemon.
enum Arguments {
    /// A level name, `1` … `7` or `finished`.
    static func level(_ text: String, command: String) throws -> String {
        guard Level(name: text) != nil else {
            throw Failure.usage(.invalidValue(text, what: "level", reason: "expected 1 to 7 or finished", command: command))
        }
        return text
    }

    /// A date: `YYYY-MM-DD`, `today`, or `+N`/`-N` days from today.
    static func date(_ text: String, today: LogicalDate, command: String) throws -> LogicalDate {
        if text == "today" { return today }
        if let first = text.first, first == "+" || first == "-", let days = Int(text.dropFirst()) {
            return today.adding(days: first == "+" ? days : -days)
        }
        guard let date = LogicalDate(text) else {
            throw Failure.usage(.invalidValue(text, what: "date", reason: "expected YYYY-MM-DD, today, +N or -N", command: command))
        }
        return date
    }
}
