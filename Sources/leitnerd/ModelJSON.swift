import LeitnerCore

// Model types as the io.leitner.Box types on the wire, until LeitnerCore's BoxTypes+JSON lands
// (the varlink branch); then this file goes.

extension TestSummary {
    var json: JSONValue {
        [
            "date": .string(date.description), "position": .int(Int64(position)),
            "levels": .array(levels.map { .string($0.name) }), "state": .string(state.rawValue),
            "remaining": .int(Int64(remaining)), "passed": .int(Int64(passed)), "failed": .int(Int64(failed)),
        ]
    }
}

extension Side {
    var json: JSONValue {
        ["path": .string(path), "mediaType": .string(mediaType), "text": text.map { .string($0) } ?? .null]
    }
}

extension Card {
    var json: JSONValue {
        ["id": .string(id), "level": .string(level.name), "front": front.json, "back": back.json]
    }
}

extension CalendarDay {
    var json: JSONValue {
        ["date": .string(date.description), "state": .string(state.rawValue),
         "levels": .array(levels.map { .string($0.name) }), "cards": .int(Int64(cards))]
    }
}

extension LogEntry {
    var json: JSONValue {
        [
            "time": .string(DayClock.rfc3339(time)), "event": .string(event.rawValue),
            "id": id.map { .string($0) } ?? .null, "from": from.map { .string($0.name) } ?? .null,
            "to": to.map { .string($0.name) } ?? .null, "correct": correct.map { .bool($0) } ?? .null,
            "answerMs": answerMs.map { .int(Int64($0)) } ?? .null, "date": date.map { .string($0.description) } ?? .null,
            "origin": origin.map { .string($0) } ?? .null,
        ]
    }
}

extension StoreProblem {
    var json: JSONValue {
        ["kind": .string(kind.rawValue), "path": .string(path), "reason": .string(reason), "advice": .string(advice)]
    }
}
