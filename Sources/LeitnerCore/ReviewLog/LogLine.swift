/// The text form of a review-log line (R16), one event a line, tab-separated so that `grep`,
/// `cut` and `awk -F'\t'` read it:
///
///     TIME  EVENT  ID  FROM  TO  CORRECT  MS  [KEY=VALUE …]
///
/// `TIME` is RFC 3339 local time with offset, with milliseconds unless they are 0; `-` stands
/// for an empty field; `CORRECT` is `correct` or `wrong`; extra fields are `date=YYYY-MM-DD`
/// (skip, complete), `origin=hand|adopt|…`, `renamed=NEWID` (rename) and `made=TIME` (when a
/// change found by hand was made, docs/store-format.md) and `kept=DEVICE:SEQ` (a grade a browser
/// kept offline, R35).
enum LogLine {
    static func format(_ entry: LogEntry) -> String {
        var bytes: [UInt8] = []
        append(entry, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the line of `entry`, its newline included, to `bytes`, with no string made per
    /// field: every durable change encodes its lines on the request's path (a grade's one, a
    /// day's admissions, an import's thousands).
    static func append(_ entry: LogEntry, to bytes: inout [UInt8]) {
        func field(_ text: String?) {
            bytes.append(tab)
            if let text { bytes.append(contentsOf: text.utf8) } else { bytes.append(contentsOf: dash) }
        }
        DayClock.appendRFC3339Milliseconds(entry.time, to: &bytes)
        field(entry.event.rawValue)
        field(entry.id)
        field(entry.from?.name)
        field(entry.to?.name)
        field(entry.correct.map { $0 ? "correct" : "wrong" })
        field(entry.answerMs.map(String.init))
        if let date = entry.date { field("date=\(date)") }
        if let origin = entry.origin { field("origin=\(origin.rawValue)") }
        if let renamedTo = entry.renamedTo { field("renamed=" + renamedTo) }
        if let made = entry.made {
            field("made=")
            DayClock.appendRFC3339Milliseconds(made, to: &bytes)
        }
        if let kept = entry.kept { field("kept=\(kept.device):\(kept.sequence)") }
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Parses one line (without its newline); nil when it is not a log line.
    static func parse(_ line: Substring) -> LogEntry? {
        parse(Array(line.utf8)[...])
    }

    /// Parses one line's UTF-8 bytes (without its newline). Works on bytes, not characters:
    /// `Calendar` and `Log` read the whole log, so a line must cost well under a microsecond.
    static func parse(_ line: ArraySlice<UInt8>) -> LogEntry? {
        var fields: [ArraySlice<UInt8>] = []
        fields.reserveCapacity(9)
        var fieldStart = line.startIndex
        for index in line.indices where line[index] == tab {
            fields.append(line[fieldStart..<index])
            fieldStart = index + 1
        }
        fields.append(line[fieldStart..<line.endIndex])
        guard fields.count >= 7,
              let time = DayClock.parseRFC3339(fields[0]),
              let event = LogEntry.Event.allCases.first(where: { $0.rawValue.utf8.elementsEqual(fields[1]) })
        else { return nil }
        func optional(_ field: ArraySlice<UInt8>) -> ArraySlice<UInt8>? { field.elementsEqual(dash) ? nil : field }
        func string(_ field: ArraySlice<UInt8>) -> String { String(decoding: field, as: UTF8.self) }
        var entry = LogEntry(time: time, event: event)
        entry.id = optional(fields[2]).map(string)
        if let from = optional(fields[3]) {
            guard let level = level(from) else { return nil }
            entry.from = level
        }
        if let to = optional(fields[4]) {
            guard let level = level(to) else { return nil }
            entry.to = level
        }
        if fields[5].elementsEqual("correct".utf8) {
            entry.correct = true
        } else if fields[5].elementsEqual("wrong".utf8) {
            entry.correct = false
        } else if !fields[5].elementsEqual(dash) {
            return nil
        }
        if let ms = optional(fields[6]) {
            guard let value = Int(string(ms)) else { return nil }
            entry.answerMs = value
        }
        for extra in fields.dropFirst(7) {
            if extra.starts(with: "date=".utf8) {
                entry.date = LogicalDate(extra.dropFirst(5))
            } else if extra.starts(with: "origin=".utf8) {
                entry.origin = LogOrigin(rawValue: string(extra.dropFirst(7)))
            } else if extra.starts(with: "renamed=".utf8) {
                entry.renamedTo = string(extra.dropFirst(8))
            } else if extra.starts(with: "made=".utf8) {
                entry.made = DayClock.parseRFC3339(extra.dropFirst(5))
            } else if extra.starts(with: "kept=".utf8) {
                entry.kept = KeptMark(extra.dropFirst(5))
            }
        }
        return entry
    }

    private static let tab = UInt8(ascii: "\t")
    private static let dash = "-".utf8

    private static func level(_ name: ArraySlice<UInt8>) -> Level? {
        if name.count == 1, let digit = name.first, digit >= UInt8(ascii: "1"), digit <= UInt8(ascii: "7") {
            return Level(rawValue: Int(digit - UInt8(ascii: "0")))
        }
        if name.elementsEqual("finished".utf8) { return .finished }
        if name.elementsEqual("new".utf8) { return .new }
        return name.elementsEqual("suspended".utf8) ? .suspended : nil
    }
}
