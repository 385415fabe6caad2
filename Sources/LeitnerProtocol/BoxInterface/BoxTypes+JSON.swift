import LeitnerCore
import LeitnerVarlink
/// The types of `io.leitner.Box` as JSON, both ways: the daemon encodes them into replies, the
/// client decodes them to show them. Field names are the interface's (docs/io.leitner.Box.varlink). A nil optional is written as
/// `null`; on reading, a nullable member may be `null` or absent. Decoding errors name the
/// member's dotted path (`cards.2.front.path`).

extension Side: JSONWritable {
    /// The `Side` object.
    /// `media` only when the side has some (R31), so that a side without sends what it always sent.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["path": .string(path), "mediaType": .string(mediaType),
                                            "text": text.map(JSONValue.string) ?? .null]
        if !media.isEmpty { members["media"] = .array(media.map(\.json)) }
        return .object(members)
    }

    /// The `Side` object's text, written as `json` writes it, without making it first.
    public func serialize(into buffer: inout [UInt8]) {
        var object = JSONObjectWriter(into: &buffer)
        if !media.isEmpty { object.array(JSONKeys.media, media, into: &buffer) }
        object.string(JSONKeys.mediaType, mediaType, into: &buffer)
        object.string(JSONKeys.path, path, into: &buffer)
        object.string(JSONKeys.text, orNull: text, into: &buffer)
        object.end(&buffer)
    }

    /// Reads a `Side` object.
    /// - Parameters: `field`: the member's path, for errors.
    /// - Throws: `JSONFieldError` naming the member that is missing or mistyped.
    public init(json: JSONValue, field: String = "side") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        self.init(path: try fields.string("path"), mediaType: try fields.string("mediaType"),
                  text: try fields.optionalString("text"),
                  media: try fields.optionalObjects("media") { (value, path) throws(JSONFieldError) in
                      try Medium(json: value, field: path)
                  } ?? [])
    }
}

extension Medium: JSONWritable {
    /// The `Medium` object.
    public var json: JSONValue {
        ["name": .string(name), "mediaType": .string(mediaType), "path": .string(path)]
    }

    /// The `Medium` object's text, written as `json` writes it.
    public func serialize(into buffer: inout [UInt8]) {
        var object = JSONObjectWriter(into: &buffer)
        object.string(JSONKeys.mediaType, mediaType, into: &buffer)
        object.string(JSONKeys.name, name, into: &buffer)
        object.string(JSONKeys.path, path, into: &buffer)
        object.end(&buffer)
    }

    /// Reads a `Medium` object.
    public init(json: JSONValue, field: String = "medium") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        self.init(name: try fields.string("name"), mediaType: try fields.string("mediaType"), path: try fields.string("path"))
    }
}

extension Card: JSONWritable {
    /// The `Card` object; `tags` only when it has some, and `reverseOf` only for a reverse card
    /// (R28), so that a box without either sends what it always sent and a listing of 100,000
    /// ordinary cards carries no member per card for them.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["id": .string(id), "level": .string(level.name), "front": front.json, "back": back.json]
        if !tags.isEmpty { members["tags"] = .array(tags.map(JSONValue.string)) }
        if let reverseOf { members["reverseOf"] = .string(reverseOf) }
        if let clozeOf {
            members["clozeOf"] = .string(clozeOf.note)
            members["cloze"] = .int(Int64(clozeOf.number))
        }
        return .object(members)
    }

    /// The `Card` object's text, written as `json` writes it, without its three dictionaries:
    /// what a listing of a whole level sends 14,000 times (docs/performance.md, "A listing
    /// without text").
    public func serialize(into buffer: inout [UInt8]) {
        var object = JSONObjectWriter(into: &buffer)
        object.member(JSONKeys.back, back, into: &buffer)
        if let clozeOf {
            object.int(JSONKeys.cloze, Int64(clozeOf.number), into: &buffer)
            object.string(JSONKeys.clozeOf, clozeOf.note, into: &buffer)
        }
        object.member(JSONKeys.front, front, into: &buffer)
        object.string(JSONKeys.id, id, into: &buffer)
        object.string(JSONKeys.level, level.name, into: &buffer)
        if let reverseOf { object.string(JSONKeys.reverseOf, reverseOf, into: &buffer) }
        if !tags.isEmpty { object.strings(JSONKeys.tags, tags, into: &buffer) }
        object.end(&buffer)
    }

    /// Reads a `Card` object.
    /// - Throws: `JSONFieldError` naming the member that is missing or mistyped.
    public init(json: JSONValue, field: String = "card") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        self.init(id: try fields.string("id"), level: try fields.level("level"),
                  front: try Side(json: fields.required("front"), field: fields.field("front")),
                  back: try Side(json: fields.required("back"), field: fields.field("back")),
                  tags: fields.optional("tags") == nil ? [] : try fields.strings("tags"),
                  reverseOf: try fields.optionalString("reverseOf"),
                  clozeOf: try fields.optionalString("clozeOf").map { (note) throws(JSONFieldError) in
                      ClozeOf(note: note, number: try fields.int("cloze"))
                  })
    }
}

extension Asset {
    /// The `Asset` object: `text` when the name says text and the content is UTF-8 without
    /// NUL, else `data` in base64.
    public var json: JSONValue {
        let isText = MediaType.isText(MediaType.of(fileName: name)) && !content.contains(0)
            && String(validating: content, as: UTF8.self) != nil
        if isText {
            return ["name": .string(name), "text": .string(String(decoding: content, as: UTF8.self)), "data": nil]
        }
        return ["name": .string(name), "text": nil, "data": .string(Base64.encode(content))]
    }

    /// Reads an `Asset` object, which has exactly one of `text` and `data` (base64).
    /// - Throws: `JSONFieldError` naming the member that is missing, mistyped or not base64.
    public init(json: JSONValue, field: String = "asset") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        let name = try fields.string("name")
        switch (try fields.optionalString("text"), try fields.optionalString("data")) {
        case (let text?, nil):
            self.init(name: name, text: text)
        case (nil, let data?):
            guard let bytes = Base64.decode(data) else {
                throw JSONFieldError(field: fields.field("data"), reason: "is not base64")
            }
            self.init(name: name, content: bytes)
        case (nil, nil):
            throw JSONFieldError(field: fields.field("text"), reason: "is missing, and so is 'data': one is needed")
        case (_?, _?):
            throw JSONFieldError(field: fields.field("data"), reason: "is given with 'text': only one may be")
        }
    }
}

extension TestSummary {
    /// The `Test` object.
    /// `syncing` is given only while cards are in transit.
    public var json: JSONValue {
        var object: JSONValue = ["date": .string(date.description), "position": .int(Int64(position)),
                                 "levels": .array(levels.map { .string($0.name) }), "state": .string(state.rawValue),
                                 "remaining": .int(Int64(remaining)), "passed": .int(Int64(passed)), "failed": .int(Int64(failed)),
                                 "repeating": .int(Int64(repeating))]
        if syncing > 0, case .object(var members) = object {
            members["syncing"] = .int(Int64(syncing))
            object = .object(members)
        }
        return object
    }

    /// Reads a `Test` object.
    /// - Throws: `JSONFieldError` naming the member that is missing or mistyped.
    public init(json: JSONValue, field: String = "test") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        self.init(date: try fields.date("date"), position: try fields.int("position"),
                  levels: try fields.levels("levels"),
                  state: try fields.named("state", "a test state") { TestState(rawValue: $0) },
                  remaining: try fields.int("remaining"), passed: try fields.int("passed"),
                  failed: try fields.int("failed"), repeating: try fields.optionalInt("repeating") ?? 0,
                  syncing: try fields.optionalInt("syncing") ?? 0)
    }
}

extension BoxStatus {
    /// The parameters of the `Status` reply: `today`, `test`, `counts` (every level, `"1"` …
    /// `"7"` and `"finished"`, and the places `"new"` and `"suspended"`, zero included),
    /// `problems`, `clockBehind` (RFC 3339, or null), `arrivals` and `arrivalDate` (R23, null
    /// when no card waits), `leeches` (R24), `next` and `week` (today's week as `Calendar`'s days).
    public var json: JSONValue {
        return ["today": .string(today.description), "test": test.json, "counts": BoxStatus.json(counts),
                "problems": .int(Int64(problems)),
                "clockBehind": clockBehind.map { .string(DayClock.rfc3339($0)) } ?? .null,
                "arrivals": arrivals.map { .int(Int64($0.cards)) } ?? .null,
                "arrivalDate": arrivals.map { .string($0.date.description) } ?? .null,
                "leeches": leeches.map { .int(Int64($0)) } ?? .null,
                "next": next.map(\.json) ?? .null, "week": .array(week.map(\.json))]
    }

    /// Reads the parameters of a `Status` reply; `problems` may be absent (0), `clockBehind` too,
    /// and so may the places' counts and the members of R23 and R24, from an older daemon.
    /// - Throws: `JSONFieldError` naming the member that is missing or mistyped.
    public init(json: JSONValue, field: String = "") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        let counts = try BoxStatus.counts(try fields.object("counts"))
        let cards = try fields.optionalInt("arrivals")
        let date = try fields.optionalNamed("arrivalDate", "a date (YYYY-MM-DD)") { LogicalDate($0) }
        self.init(today: try fields.date("today"), test: try TestSummary(json: fields.required("test"), field: fields.field("test")),
                  counts: counts, problems: try fields.optionalInt("problems") ?? 0,
                  clockBehind: try fields.optionalNamed("clockBehind", "an RFC 3339 time") { DayClock.parseRFC3339($0) },
                  arrivals: cards.flatMap { cards in date.map { ($0, cards) } },
                  leeches: try fields.optionalInt("leeches"),
                  next: try fields.optional("next").map { (json) throws(JSONFieldError) in try NextTest(json: json, field: fields.field("next")) },
                  week: try BoxStatus.week(fields))
    }

    /// Today's week from a reply's `week`: empty when absent (an older daemon).
    static func week(_ fields: JSONFields) throws(JSONFieldError) -> [CalendarDay] {
        var days: [CalendarDay] = []
        for (index, day) in (try fields.optional("week", "an array", \.arrayValue) ?? []).enumerated() {
            days.append(try CalendarDay(json: day, field: "\(fields.field("week")).\(index)"))
        }
        return days
    }

    /// Cards per level from a reply's `counts`: every level must be there; a place may be
    /// missing (a daemon from before R23), and is then left out (read as 0 where shown).
    static func counts(_ countFields: JSONFields) throws(JSONFieldError) -> [Level: Int] {
        var counts: [Level: Int] = [:]
        for level in Level.levels { counts[level] = try countFields.int(level.name) }
        for place in Level.places { counts[place] = try countFields.optionalInt(place.name) }
        return counts
    }

    /// `counts` on the wire: every level, zero included, and each place the box counted (the
    /// box counts both; a value made without them writes none, so it reads back the same).
    static func json(_ counts: [Level: Int]) -> JSONValue {
        var members = Dictionary(uniqueKeysWithValues: Level.levels.map { ($0.name, JSONValue.int(Int64(counts[$0] ?? 0))) })
        for place in Level.places { if let count = counts[place] { members[place.name] = .int(Int64(count)) } }
        return .object(members)
    }
}

extension NextTest {
    /// The `NextTest` object.
    public var json: JSONValue {
        ["date": .string(date.description), "levels": .array(levels.map { .string($0.name) }),
         "cards": .int(Int64(cards)), "arrivals": .int(Int64(arrivals))]
    }

    /// Reads a `NextTest` object.
    /// - Throws: `JSONFieldError` naming the member that is missing or mistyped.
    public init(json: JSONValue, field: String = "next") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        self.init(date: try fields.date("date"), levels: try fields.levels("levels"), cards: try fields.int("cards"),
                  arrivals: try fields.int("arrivals"))
    }
}

extension CalendarDay {
    /// The `Day` object.
    public var json: JSONValue {
        ["date": .string(date.description), "state": .string(state.rawValue),
         "levels": .array(levels.map { .string($0.name) }), "cards": .int(Int64(cards)),
         "arrivals": arrivals.map { .int(Int64($0)) } ?? .null]
    }

    /// Reads a `Day` object.
    /// - Throws: `JSONFieldError` naming the member that is missing or mistyped.
    public init(json: JSONValue, field: String = "day") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        self.init(date: try fields.date("date"), state: try fields.named("state", "a day state") { State(rawValue: $0) },
                  levels: try fields.levels("levels"), cards: try fields.int("cards"))
        // Absent from an older daemon's reply: not known.
        arrivals = try fields.optionalInt("arrivals")
    }
}

extension LogEntry {
    /// The `LogEntry` object; `time` is RFC 3339 local time with offset, to the millisecond as
    /// the log has it (`DayClock.rfc3339Milliseconds`).
    public var json: JSONValue {
        func optional<T>(_ value: T?, _ make: (T) -> JSONValue) -> JSONValue { value.map(make) ?? .null }
        return ["time": .string(DayClock.rfc3339Milliseconds(time)), "event": .string(event.rawValue),
                "id": optional(id) { .string($0) }, "from": optional(from) { .string($0.name) },
                "to": optional(to) { .string($0.name) }, "correct": optional(correct) { .bool($0) },
                "answerMs": optional(answerMs) { .int(Int64($0)) },
                "date": optional(date) { .string($0.description) }, "origin": optional(origin) { .string($0.rawValue) },
                "renamedTo": optional(renamedTo) { .string($0) }, "device": optional(device) { .string($0) }]
    }

    /// Reads a `LogEntry` object.
    /// - Throws: `JSONFieldError` naming the member that is missing or mistyped.
    public init(json: JSONValue, field: String = "entry") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        self.init(time: try fields.named("time", "an RFC 3339 time") { DayClock.parseRFC3339($0) },
                  event: try fields.named("event", "a log event") { Event(rawValue: $0) },
                  id: try fields.optionalString("id"),
                  from: try fields.optionalNamed("from", "a level") { Level(name: $0) },
                  to: try fields.optionalNamed("to", "a level") { Level(name: $0) },
                  correct: try fields.optionalBool("correct"), answerMs: try fields.optionalInt("answerMs"),
                  date: try fields.optionalNamed("date", "a date (YYYY-MM-DD)") { LogicalDate($0) },
                  origin: try fields.optionalString("origin").map(LogOrigin.init(rawValue:)),
                  renamedTo: try fields.optionalString("renamedTo"), device: try fields.optionalString("device"))
    }
}

extension StoreProblem {
    /// The `Problem` object.
    public var json: JSONValue {
        ["kind": .string(kind.rawValue), "path": .string(path), "reason": .string(reason), "advice": .string(advice)]
    }

    /// Reads a `Problem` object.
    /// - Throws: `JSONFieldError` naming the member that is missing or mistyped.
    public init(json: JSONValue, field: String = "problem") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        self.init(kind: try fields.named("kind", "a problem kind") { Kind(rawValue: $0) },
                  path: try fields.string("path"), reason: try fields.string("reason"),
                  advice: try fields.string("advice"))
    }
}

extension SearchMatch {
    /// The `SearchMatch` object.
    public var json: JSONValue {
        ["id": .string(id), "level": .string(level.name), "field": .string(field.rawValue), "line": .string(line),
         "mediaType": mediaType.map(JSONValue.string) ?? .null]
    }
}

extension SearchMatch {
    /// Reads a `SearchMatch` object.
    /// - Throws: `JSONFieldError` naming the member that is missing or mistyped.
    public init(json: JSONValue, field: String = "match") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        self.init(id: try fields.string("id"), level: try fields.level("level"),
                  field: try fields.named("field", "a search field") { Field(rawValue: $0) },
                  line: try fields.string("line"), mediaType: try fields.optionalString("mediaType"))
    }
}

extension TagCount {
    /// The `TagCount` object.
    public var json: JSONValue { ["tag": .string(tag), "cards": .int(Int64(cards))] }

    /// Reads a `TagCount` object.
    /// - Throws: `JSONFieldError` naming the member that is missing or mistyped.
    public init(json: JSONValue, field: String = "tag") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        self.init(tag: try fields.string("tag"), cards: try fields.int("cards"))
    }
}
