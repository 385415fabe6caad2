import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink

/// The methods of `io.leitner.Box` that work on the box (docs/protocol.md): one handler per
/// method, named in the dispatcher's one method table (`Dispatcher.methods`). The dispatcher has
/// checked a call's parameters against the method's declaration in `BoxInterface.description`
/// before its handler runs, so a handler only reads
/// them (and checks what the IDL cannot say: every integer is bounded, `CallParameters.optionalInt`),
/// calls the box, and returns the reply's parameters; `ErrorReplies` turns its errors into Varlink
/// errors.
/// Handlers run one at a time, in the box's one owner (`BoxOwner`).
enum BoxMethods {
    /// What a handler works with: the box, and the `TestReady=` hook for `Prepare`.
    struct Context {
        let box: Box
        let hook: TestReadyHook?
    }

    typealias Handler = @Sendable (Context, CallParameters) throws -> [String: JSONValue]

    /// A method whose reply grows with the box: it checks its parameters and begins the reading
    /// under the box's turn, and the items it returns are sent in parts (`StreamedReply`).
    typealias StreamHandler = @Sendable (Context, CallParameters) throws -> any ReplyItems

    static func status(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let status = try context.box.status()
        return status.json.objectValue ?? [:]
    }

    /// Opens today's test; the first time a test with cards is prepared, starts the hook.
    static func prepare(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let (test, isNewlyReady) = try context.box.prepare()
        if isNewlyReady, let hook = context.hook { hook.start(for: test) }
        return ["test": test.json]
    }

    /// The head of the queue; with a filter, the first queued card it selects (R26), and how
    /// many it leaves out.
    static func next(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let filter = try parameters.tagFilter()
        let levels = try parameters.optionalLevels("levels") ?? []
        if filter.isEmpty && levels.isEmpty {
            let (card, test) = try context.box.next()
            return ["card": card?.json ?? .null, "test": test.json]
        }
        let (card, test, outside) = try context.box.next(filter: filter, levels: levels)
        return ["card": card?.json ?? .null, "test": test.json, "outside": .int(Int64(outside))]
    }

    static func grade(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let id = try parameters.string("id")
        let correct = try parameters.bool("correct")
        let answerMs = try parameters.optionalInt("answerMs", in: 0...Box.maxAnswerMs, clampingAbove: true)
        let (card, test) = try context.box.grade(id: id, correct: correct, answerMs: answerMs)
        return ["card": card.json, "test": test.json]
    }

    /// A grade a browser kept offline (R35).
    static func takeKeptGrade(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let levelName = try parameters.string("level")
        guard let level = Level(name: levelName) else { throw BoxError.invalidLevel(level: levelName) }
        let timeText = try parameters.string("time")
        guard let time = DayClock.parseRFC3339(timeText) else {
            throw BoxError.invalidParameter(name: "time", reason: "'\(timeText)' is no RFC 3339 time")
        }
        let grade = KeptGrade(device: try parameters.string("device"),
                              sequence: try parameters.optionalInt("sequence", in: 1...Int(Int32.max), clampingAbove: false) ?? 0,
                              id: try parameters.string("id"), correct: try parameters.bool("correct"), time: time,
                              answerMs: try parameters.optionalInt("answerMs", in: 0...Box.maxAnswerMs, clampingAbove: true),
                              from: level, position: try parameters.optionalInt("position", in: 0...Int(Int32.max), clampingAbove: false))
        let receipt = try context.box.takeKeptGrade(grade)
        return ["taken": .bool(receipt.taken), "level": receipt.level.map { .string($0.name) } ?? .null, "test": receipt.test.json]
    }

    /// What a browser keeps to review offline (R35).
    static func keepTest(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let kept = try context.box.keepTest(device: try parameters.string("device"))
        return ["test": kept.test.json, "cards": .array(kept.cards.map(\.json)), "onFail": .string(kept.onFail.rawValue),
                "dayEnds": .string(DayClock.rfc3339Milliseconds(kept.dayEnds)), "sequence": .int(Int64(kept.sequence))]
    }

    static func undo(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let (card, test) = try context.box.undo()
        return ["card": card.json, "test": test.json]
    }

    static func add(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let front = try Asset(json: parameters.required("front"), field: "front")
        let back = try Asset(json: parameters.required("back"), field: "back")
        let id = try parameters.optionalString("id")
        let level = try parameters.optionalString("level")
        let allowDuplicate = try parameters.optionalBool("allowDuplicate") ?? true
        let withReverse = try parameters.optionalBool("reverse") ?? false
        let added = try context.box.add(front: front, back: back, id: id, level: level,
                                        allowDuplicateFront: allowDuplicate, withReverse: withReverse,
                                        typeAnswer: parameters.optionalBool("typeAnswer") ?? false, media: media(parameters),
                                        tags: parameters.optionalStrings("tags") ?? [])
        // The reverse too (R28): it is in the open test as its card is, and its speech, asked
        // for here, is not asked again as a card that joined the test (R33).
        context.box.speakAhead([added.card] + (added.reverse.map { [$0] } ?? []))
        // `reverse` only when one was asked for (R28): the reply of a plain Add is unchanged.
        guard let reverse = added.reverse else { return ["card": added.card.json] }
        return ["card": added.card.json, "reverse": reverse.json]
    }

    /// A reverse card of a card already in the box (R28).
    static func addReverse(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let card = try context.box.addReverse(of: parameters.string("id"), reverseID: parameters.optionalString("reverseId"),
                                              level: parameters.optionalString("level"), tags: parameters.optionalStrings("tags"),
                                              typeAnswer: parameters.optionalBool("typeAnswer") ?? false)
        context.box.speakAhead([card])
        return ["card": card.json]
    }

    /// `media`, the pictures and sounds an `Add` or an `AddCloze` writes beside the sides (R31),
    /// or those the cards of an `AddMany` share.
    private static func media(_ parameters: CallParameters) throws -> [Asset] {
        var media: [Asset] = []
        if let items = parameters.values["media"], !items.isNull {
            guard let list = items.arrayValue else { throw InvalidParameter(name: "media") }
            for (index, item) in list.enumerated() { media.append(try Asset(json: item, field: "media[\(index)]")) }
        }
        return media
    }

    /// A cloze note and its cards (R30).
    static func addCloze(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let cards = try context.box.addCloze(text: parameters.string("text"), id: parameters.optionalString("id"),
                                             level: parameters.optionalString("level"), extra: parameters.optionalString("extra"),
                                             tags: parameters.optionalStrings("tags") ?? [],
                                             typeAnswer: parameters.optionalBool("typeAnswer") ?? false, media: media(parameters))
        context.box.speakAhead(cards)
        return ["cards": .array(cards.map(\.json))]
    }

    /// A batch of cloze notes; one refused note does not stop the others (docs/protocol.md).
    static func addClozes(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        guard let list = try parameters.required("notes").arrayValue else { throw InvalidParameter(name: "notes") }
        var notes: [NewNote] = []
        notes.reserveCapacity(list.count)
        for (index, value) in list.enumerated() { notes.append(try NewNote(json: value, field: "notes.\(index)")) }
        let outcome = try context.box.addClozes(notes)
        return outcome.json.objectValue ?? [:]
    }

    /// A batch of new cards; one refused card does not stop the others (docs/protocol.md).
    static func addMany(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        guard let list = try parameters.required("cards").arrayValue else { throw InvalidParameter(name: "cards") }
        // The media several cards share, sent once: each card naming one gets the same bytes,
        // which the box links rather than writes again (`Box.addMany`).
        var batchMedia: [String: Asset] = [:]
        for medium in try media(parameters) { batchMedia[medium.name] = medium }
        var cards: [NewCard] = []
        cards.reserveCapacity(list.count)
        for (index, value) in list.enumerated() { cards.append(try NewCard(json: value, field: "cards.\(index)", batchMedia: batchMedia)) }
        let outcome = try context.box.addMany(cards, allowDuplicateFront: parameters.optionalBool("allowDuplicate") ?? true,
                                              withReverse: parameters.optionalBool("reverse") ?? false)
        return outcome.json.objectValue ?? [:]
    }

    static func move(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let card = try context.box.move(id: parameters.string("id"), level: parameters.string("level"))
        return ["card": card.json]
    }

    static func suspend(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let cards = try context.box.suspend(ids: parameters.strings("ids"))
        return ["cards": .array(cards.map(\.json))]
    }

    static func unsuspend(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let cards = try context.box.unsuspend(ids: parameters.strings("ids"))
        return ["cards": .array(cards.map(\.json))]
    }

    static func delete(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let reverses = try context.box.delete(id: parameters.string("id"), keepReverses: parameters.optionalBool("keepReverses") ?? false)
        // Named only when the card had reverse cards (R28): deleted with it, or kept and dangling.
        return reverses.isEmpty ? [:] : ["reverses": .array(reverses.map(JSONValue.string))]
    }

    static func edit(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let id = try parameters.string("id")
        // Absent and null keep the side.
        let front = try parameters.values["front"].flatMap { $0.isNull ? nil : try Asset(json: $0, field: "front") }
        let back = try parameters.values["back"].flatMap { $0.isNull ? nil : try Asset(json: $0, field: "back") }
        let (card, changed) = try context.box.edit(id: id, front: front, back: back)
        if changed { context.box.speakAhead([card]) }
        return ["card": card.json, "changed": .bool(changed)]
    }

    static func rename(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let card = try context.box.rename(id: parameters.string("id"), to: parameters.string("newId"))
        return ["card": card.json]
    }

    static func show(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let card = try context.box.show(id: parameters.string("id"))
        return ["card": card.json]
    }

    static func list(_ context: Context, _ parameters: CallParameters) throws -> any ReplyItems {
        let listing = try context.box.startListing(level: parameters.optionalString("level"),
                                                   withText: parameters.optionalBool("withText") ?? false,
                                                   filter: parameters.tagFilter(),
                                                   after: parameters.optionalPosition("after"),
                                                   before: parameters.optionalPosition("before"),
                                                   limit: parameters.optionalInt("limit", in: 1...Box.maxLimit, clampingAbove: true),
                                                   duringBuild: true)
        return listing.withText ? CardItems(listing) : OutlineItems(listing)
    }

    static func readAsset(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let id = try parameters.string("id")
        let side = try parameters.enumeration("side", as: SideName.self)
        let (name, data) = try context.box.readAsset(id: id, side: side)
        return ["name": .string(name), "data": .string(Base64.encode(data))]
    }

    static func readMedium(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let (name, data) = try context.box.readMedium(id: try parameters.string("id"), name: try parameters.string("name"))
        return ["name": .string(name), "mediaType": .string(MediaType.of(fileName: name)), "data": .string(Base64.encode(data))]
    }

    /// The voice of a side (R33), from the cache: never waits for the program.
    static func speech(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let side = try parameters.enumeration("side", as: SideName.self)
        switch try context.box.speech(id: parameters.string("id"), side: side) {
        case .ready(let path):
            guard try parameters.optionalBool("withData") == true else { return ["path": .string(path), "pending": false] }
            let data = try context.box.speechBytes(path)
            return ["path": .string(path), "data": .string(Base64.encode(data)), "pending": false]
        case .pending: return ["pending": true]
        case .unavailable(let problem): return ["pending": false, "problem": .string(problem)]
        }
    }

    static func addMedia(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        guard let list = try parameters.required("media").arrayValue else { throw InvalidParameter(name: "media") }
        let media = try list.enumerated().map { try Asset(json: $0.element, field: "media.\($0.offset)") }
        let (card, names) = try context.box.addMedia(id: try parameters.string("id"), media: media)
        return ["card": card.json, "names": .array(names.map(JSONValue.string))]
    }

    static func calendar(_ context: Context, _ parameters: CallParameters) throws -> any ReplyItems {
        let from = try parameters.string("from")
        let to = try parameters.string("to")
        // Dates are the daemon's to check: a malformed one is a bad parameter, not a box error.
        guard LogicalDate(from) != nil else { throw InvalidParameter(name: "from") }
        guard LogicalDate(to) != nil else { throw InvalidParameter(name: "to") }
        let days = try context.box.calendar(from: from, to: to)
        return SnapshotItems(member: "days", kind: "day", items: days.map(\.json))
    }

    static func log(_ context: Context, _ parameters: CallParameters) throws -> any ReplyItems {
        let since = try parameters.optionalString("since")
        let limit = try parameters.optionalInt("limit", in: 0...Box.maxLimit, clampingAbove: true)
        if let since, LogicalDate(since) == nil, DayClock.parseRFC3339(since) == nil {
            throw InvalidParameter(name: "since")
        }
        return LogItems(try context.box.logReader(since: since, limit: limit))
    }

    static func search(_ context: Context, _ parameters: CallParameters) throws -> any ReplyItems {
        let pattern = try SearchPattern(parameters.string("pattern"), regex: parameters.optionalBool("regex") ?? false)
        var fields = Set(SearchMatch.Field.allCases)
        if let value = parameters.values["fields"], !value.isNull {
            guard let names = value.arrayValue?.map({ $0.stringValue.flatMap(SearchMatch.Field.init(rawValue:)) }),
                  !names.isEmpty, !names.contains(nil) else { throw InvalidParameter(name: "fields") }
            fields = Set(names.compactMap { $0 })
        }
        let limit = try parameters.optionalInt("limit", in: 1...Box.maxLimit, clampingAbove: true)
        let cards = try parameters.optionalInt("cards", in: 1...Box.maxLimit, clampingAbove: true)
        return SearchItems(try context.box.startSearch(pattern, fields: fields, level: parameters.optionalString("level"),
                                                       limit: limit, cards: cards, filter: parameters.tagFilter(),
                                                       duringBuild: true))
    }

    static func doctor(_ context: Context, _ parameters: CallParameters) throws -> any ReplyItems {
        return ProblemItems(try context.box.startDoctor())
    }

    /// The figures of `leitnerctl stats`: bounded (fixed-size figures and the leeches asked
    /// for), so one reply.
    static func stats(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let days = try parameters.optionalInt("days", in: 1...BoxStatistics.maxWindow, clampingAbove: false)
        let leeches = try parameters.optionalInt("leeches", in: 0...BoxStatistics.maxLeeches, clampingAbove: false)
        return try context.box.statistics(window: days, leeches: leeches, filter: parameters.tagFilter()).json.objectValue ?? [:]
    }

    static func tag(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let card = try context.box.tag(id: parameters.string("id"), tags: parameters.optionalStrings("tags") ?? [])
        return ["card": card.json]
    }

    static func untag(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let card = try context.box.untag(id: parameters.string("id"), tags: parameters.optionalStrings("tags") ?? [])
        return ["card": card.json]
    }

    /// Every tag and its count: as many as the box has distinct tags, so sent in parts.
    static func tags(_ context: Context, _ parameters: CallParameters) throws -> any ReplyItems {
        let counts = try context.box.tagCounts(filter: parameters.tagFilter())
        return SnapshotItems(member: "tags", kind: "tag", items: counts.map(\.json))
    }

    /// The cards of a practice session: at most `PracticeSelection.maxLimit`, each with its
    /// text, so sent in parts.
    static func practiceCards(_ context: Context, _ parameters: CallParameters) throws -> any ReplyItems {
        let pattern = try parameters.optionalString("pattern").map { (text) throws in
            try SearchPattern(text, regex: parameters.optionalBool("regex") ?? false)
        }
        let selection = PracticeSelection(
            filter: try parameters.tagFilter(), levels: try parameters.optionalLevels("levels"), pattern: pattern,
            wrongDays: try parameters.optionalInt("wrongDays", in: 1...PracticeSelection.maxWrongDays, clampingAbove: false),
            limit: try parameters.optionalInt("limit", in: 1...PracticeSelection.maxLimit, clampingAbove: true),
            shuffle: try parameters.optionalBool("shuffle") ?? false)
        return SnapshotItems(member: "cards", kind: "card", items: try context.box.practiceCards(selection).map(\.json))
    }

    static func practice(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let answerMs = try parameters.optionalInt("answerMs", in: 0...Box.maxAnswerMs, clampingAbove: true)
        let card = try context.box.practice(id: parameters.string("id"), correct: parameters.bool("correct"), answerMs: answerMs)
        return ["card": card.json]
    }

    /// Keeps one side of a card's sync conflict (docs/sync.md).
    static func resolveConflict(_ context: Context, _ parameters: CallParameters) throws -> [String: JSONValue] {
        let (card, kept, removed) = try context.box.resolveConflict(id: parameters.string("id"),
                                                                    keep: ConflictResolution(parameters.string("keep")))
        return ["card": card.json, "kept": .array(kept.map(JSONValue.string)),
                "removed": .array(removed.map(JSONValue.string))]
    }
}
