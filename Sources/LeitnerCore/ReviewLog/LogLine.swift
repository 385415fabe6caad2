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

    /// Parses one line's UTF-8 bytes (without its newline).
    static func parse(_ line: ArraySlice<UInt8>) -> LogEntry? {
        Fields(line)?.entry
    }

    /// One line's fields read from its bytes, the ids left where they lie in the line: a reading
    /// of the whole log (a store opened without its local state, the week's counts, the places'
    /// ledger) goes through a million lines, and one that only looks an id up, or passes a
    /// right answer by, makes no string and no array for it (docs/performance.md, "A store
    /// copied, then opened"). `entry` makes the `LogEntry`; `parse` is that.
    struct Fields {
        var time: Int64
        var event: LogEntry.Event
        /// The card's id, nil for `-` (an empty field is an empty id).
        var id: ArraySlice<UInt8>?
        var from: Level?
        var to: Level?
        var correct: Bool?
        var answerMs: Int?
        var date: LogicalDate?
        var origin: LogOrigin?
        var renamedTo: ArraySlice<UInt8>?
        var made: Int64?
        var kept: KeptMark?

        /// The entry the line stands for, its ids made strings.
        var entry: LogEntry {
            var entry = LogEntry(time: time, event: event, id: id.map { String(decoding: $0, as: UTF8.self) },
                                 from: from, to: to, correct: correct, answerMs: answerMs, date: date, origin: origin,
                                 renamedTo: renamedTo.map { String(decoding: $0, as: UTF8.self) }, made: made)
            entry.kept = kept
            return entry
        }
    }

    fileprivate static let tab = UInt8(ascii: "\t")
    fileprivate static let dash = "-".utf8

    /// True when two ids read from lines are the same as their strings compare (`==`: canonical
    /// equivalence, a byte that is not UTF-8 read as U+FFFD): equal bytes, or strings equal.
    static func sameID(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        if a.elementsEqual(b) { return true }
        if a.allSatisfy({ $0 < 0x80 }) && b.allSatisfy({ $0 < 0x80 }) { return false }
        return String(decoding: a, as: UTF8.self) == String(decoding: b, as: UTF8.self)
    }

    /// Calls `body` with the bytes that stand for an id read from a line as its string would:
    /// the line's own when they are ASCII (as R20's ids mostly are), else its string's (a byte
    /// that is not UTF-8 read as U+FFFD), composed (NFC) when `composed` — what a dictionary
    /// keyed by the string tells apart (canonical equivalence).
    static func withIDBytes<R>(_ id: ArraySlice<UInt8>, composed: Bool = false,
                               _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if id.allSatisfy({ $0 < 0x80 }) { return id.withUnsafeBufferPointer(body) }
        var string = String(decoding: id, as: UTF8.self)
        if composed { string = CardID.composed(string) }
        return string.withUTF8(body)
    }

    fileprivate static func isDash(_ field: ArraySlice<UInt8>) -> Bool {
        field.count == 1 && field.first == UInt8(ascii: "-")
    }

    /// The event a field names, compared by its length and first byte before its bytes.
    fileprivate static func event(_ field: ArraySlice<UInt8>) -> LogEntry.Event? {
        guard let first = field.first else { return nil }
        return LogEntry.Event.allCases.first { event in
            let name = event.rawValue.utf8
            return name.count == field.count && name.first == first && name.elementsEqual(field)
        }
    }

    /// The answer time's integer as `Int(String)` reads it (a sign allowed, no overflow): plain
    /// digits, as every line the box writes holds, are read in place.
    fileprivate static func integer(_ field: ArraySlice<UInt8>) -> Int? {
        if !field.isEmpty, field.count <= 18 {
            var value = 0
            var plain = true
            for byte in field {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { plain = false; break }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            if plain { return value }
        }
        return Int(String(decoding: field, as: UTF8.self))
    }

    fileprivate static func level(_ name: ArraySlice<UInt8>) -> Level? {
        if name.count == 1, let digit = name.first, digit >= UInt8(ascii: "1"), digit <= UInt8(ascii: "7") {
            return Level(rawValue: Int(digit - UInt8(ascii: "0")))
        }
        if name.elementsEqual("finished".utf8) { return .finished }
        if name.elementsEqual("new".utf8) { return .new }
        return name.elementsEqual("suspended".utf8) ? .suspended : nil
    }
}

extension LogLine.Fields {
    /// The line's fields; nil when it is not a log line: fewer than seven fields, a time,
    /// event, level, answer or answer time that is not one. Of the extra fields the last of
    /// each kind counts (one that is not valid gives nil), and those of no known kind are
    /// passed over.
    init?(_ line: ArraySlice<UInt8>) {
        // Where the next field starts; nil once the last one was taken.
        var position: Int? = line.startIndex
        func next() -> ArraySlice<UInt8>? {
            guard let start = position else { return nil }
            if let tab = line[start...].firstIndex(of: LogLine.tab) {
                position = tab + 1
                return line[start..<tab]
            }
            position = nil
            return line[start...]
        }
        guard let timeField = next(), let time = DayClock.parseRFC3339(timeField),
              let eventField = next(), let event = LogLine.event(eventField),
              let idField = next(), let fromField = next(), let toField = next(),
              let correctField = next(), let msField = next()
        else { return nil }
        self.time = time
        self.event = event
        id = LogLine.isDash(idField) ? nil : idField
        if LogLine.isDash(fromField) { from = nil } else {
            guard let level = LogLine.level(fromField) else { return nil }
            from = level
        }
        if LogLine.isDash(toField) { to = nil } else {
            guard let level = LogLine.level(toField) else { return nil }
            to = level
        }
        if correctField.elementsEqual("correct".utf8) {
            correct = true
        } else if correctField.elementsEqual("wrong".utf8) {
            correct = false
        } else if LogLine.isDash(correctField) {
            correct = nil
        } else {
            return nil
        }
        if LogLine.isDash(msField) { answerMs = nil } else {
            guard let value = LogLine.integer(msField) else { return nil }
            answerMs = value
        }
        while let extra = next() {
            if extra.starts(with: "date=".utf8) {
                date = LogicalDate(extra.dropFirst(5))
            } else if extra.starts(with: "origin=".utf8) {
                origin = LogOrigin(rawValue: String(decoding: extra.dropFirst(7), as: UTF8.self))
            } else if extra.starts(with: "renamed=".utf8) {
                renamedTo = extra.dropFirst(8)
            } else if extra.starts(with: "made=".utf8) {
                made = DayClock.parseRFC3339(extra.dropFirst(5))
            } else if extra.starts(with: "kept=".utf8) {
                kept = KeptMark(extra.dropFirst(5))
            }
        }
    }
}
