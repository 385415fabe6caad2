/// The text form of a review-log line (R16), one event a line, tab-separated so that `grep`,
/// `cut` and `awk -F'\t'` read it:
///
///     TIME  EVENT  ID  FROM  TO  CORRECT  MS  [KEY=VALUE …]
///
/// `TIME` is RFC 3339 local time with offset; `-` stands for an empty field; `CORRECT` is
/// `correct` or `wrong`; extra fields are `date=YYYY-MM-DD` (skip, complete) and `origin=hand|adopt`.
enum LogLine {
    static func format(_ entry: LogEntry) -> String {
        var fields = [
            DayClock.rfc3339(entry.time),
            entry.event.rawValue,
            entry.id ?? "-",
            entry.from?.name ?? "-",
            entry.to?.name ?? "-",
            entry.correct.map { $0 ? "correct" : "wrong" } ?? "-",
            entry.answerMs.map(String.init) ?? "-",
        ]
        if let date = entry.date { fields.append("date=\(date)") }
        if let origin = entry.origin { fields.append("origin=\(origin)") }
        return fields.joined(separator: "\t") + "\n"
    }

    /// Parses one line (without its newline); nil when it is not a log line.
    static func parse(_ line: Substring) -> LogEntry? {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count >= 7,
              let time = DayClock.parseRFC3339(String(fields[0])),
              let event = LogEntry.Event(rawValue: String(fields[1])) else { return nil }
        func optional(_ field: Substring) -> Substring? { field == "-" ? nil : field }
        var entry = LogEntry(time: time, event: event)
        entry.id = optional(fields[2]).map(String.init)
        if let from = optional(fields[3]) {
            guard let level = Level(name: from) else { return nil }
            entry.from = level
        }
        if let to = optional(fields[4]) {
            guard let level = Level(name: to) else { return nil }
            entry.to = level
        }
        switch fields[5] {
        case "correct": entry.correct = true
        case "wrong": entry.correct = false
        case "-": break
        default: return nil
        }
        if let ms = optional(fields[6]) {
            guard let value = Int(ms) else { return nil }
            entry.answerMs = value
        }
        for extra in fields.dropFirst(7) {
            if extra.hasPrefix("date=") {
                entry.date = LogicalDate(extra.dropFirst(5))
            } else if extra.hasPrefix("origin=") {
                entry.origin = String(extra.dropFirst(7))
            }
        }
        return entry
    }
}
