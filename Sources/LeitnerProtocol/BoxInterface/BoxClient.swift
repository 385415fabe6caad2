import LeitnerCore
import LeitnerVarlink

/// `io.leitner.Box` as Swift functions, one per method: the only place a client names a method
/// or a parameter. Each reply is decoded here, once, into the interface's types, and kept as it
/// came beside them (`BoxReply.json`) for a client that prints JSON. `BoxClientTests` checks every
/// call these functions make against the interface text.
///
/// A parameter left nil is not sent, so the daemon applies its default (docs/protocol.md).
public struct BoxClient {
    public let transport: any BoxTransport

    public init(_ transport: any BoxTransport) {
        self.transport = transport
    }

    // MARK: The day's test

    /// `Status`: today, the test, the cards per level.
    public func status() throws -> BoxReply<BoxStatus> {
        try call(.status) { fields throws(JSONFieldError) in try BoxStatus(json: .object(fields.members)) }
    }

    /// `Prepare`: opens today's test (R3), or returns the one open.
    public func prepare() throws -> BoxReply<TestSummary> {
        try call(.prepare) { fields throws(JSONFieldError) in try fields.test() }
    }

    /// `Next`: the card at the head of the queue, none when the test is done.
    public func next() throws -> BoxReply<(card: Card?, test: TestSummary)> {
        try call(.next) { fields throws(JSONFieldError) in (card: try fields.optionalCard(), test: try fields.test()) }
    }

    /// `Next` with a filter (R26): the first queued card in `levels` (any when nil) that `tags`
    /// and `notTags` select; `outside` counts the queued cards left out.
    public func next(tags: [String]?, notTags: [String]?, levels: [Level]?) throws
        -> BoxReply<(card: Card?, test: TestSummary, outside: Int)> {
        try call(.next, ["tags": BoxClient.strings(tags), "notTags": BoxClient.strings(notTags),
                         "levels": levels.map { .array($0.map { .string($0.name) }) }]) { fields throws(JSONFieldError) in
            (card: try fields.optionalCard(), test: try fields.test(), outside: try fields.optionalInt("outside") ?? 0)
        }
    }

    /// `Grade`: the answer to a card of the test (R4, R5).
    public func grade(id: String, correct: Bool, answerMs: Int? = nil) throws -> BoxReply<(card: Card, test: TestSummary)> {
        try call(.grade, ["id": .string(id), "correct": .bool(correct), "answerMs": answerMs.map { .int(Int64($0)) }]) {
            fields throws(JSONFieldError) in (card: try fields.card(), test: try fields.test())
        }
    }

    /// `TakeKeptGrade`: a grade a browser kept offline (R35); `taken` false when it was taken
    /// before, `level` nil when the card no longer exists.
    public func takeKeptGrade(device: String, sequence: Int, id: String, correct: Bool, time: String, answerMs: Int?,
                              level: Level, position: Int?) throws -> BoxReply<(taken: Bool, level: Level?, test: TestSummary)> {
        try call(.takeKeptGrade, ["device": .string(device), "sequence": .int(Int64(sequence)), "id": .string(id),
                                  "correct": .bool(correct), "time": .string(time), "answerMs": answerMs.map { .int(Int64($0)) },
                                  "level": .string(level.name), "position": position.map { .int(Int64($0)) }]) { fields throws(JSONFieldError) in
            (taken: try fields.bool("taken"), level: try fields.optionalNamed("level", "a level") { Level(name: $0) }, test: try fields.test())
        }
    }

    /// `KeepTest`: what browser `device` keeps to review offline (R35). The reply as sent is kept
    /// (`BoxReply.json`): leitner-web hands its cards to the page.
    public func keepTest(device: String) throws
        -> BoxReply<(test: TestSummary, cards: [Card], onFail: String, dayEnds: String, sequence: Int)> {
        try call(.keepTest, ["device": .string(device)]) { fields throws(JSONFieldError) in
            (test: try fields.test(),
             cards: try fields.objects("cards") { value, field throws(JSONFieldError) in try Card(json: value, field: field) },
             onFail: try fields.string("onFail"), dayEnds: try fields.string("dayEnds"), sequence: try fields.int("sequence"))
        }
    }

    /// `Undo`: reverts today's last grade (R15).
    public func undo() throws -> BoxReply<(card: Card, test: TestSummary)> {
        try call(.undo) { fields throws(JSONFieldError) in (card: try fields.card(), test: try fields.test()) }
    }

    // MARK: Cards

    /// `Add`: one card, in `level` (level 1 when nil); a second card with the same front only
    /// when `allowDuplicate`; its answer typed in the review when `typeAnswer` (R32); `media`
    /// beside its sides (R31); `tags` written with it (R25).
    public func add(front: Asset, back: Asset, id: String? = nil, level: Level? = nil,
                    allowDuplicate: Bool? = nil, typeAnswer: Bool = false, media: [Asset] = [], tags: [String] = []) throws -> BoxReply<Card> {
        try call(.add, ["front": front.json, "back": back.json, "id": id.map(JSONValue.string),
                        "level": level.map { .string($0.name) }, "allowDuplicate": allowDuplicate.map(JSONValue.bool),
                        "typeAnswer": typeAnswer ? .bool(true) : nil, "media": BoxClient.assets(media),
                        "tags": tags.isEmpty ? nil : BoxClient.strings(tags)]) {
            fields throws(JSONFieldError) in try fields.card()
        }
    }

    /// `Add` with `reverse`: the card and its reverse card (R28), added together, each with `tags`.
    public func addWithReverse(front: Asset, back: Asset, id: String? = nil, level: Level? = nil,
                               allowDuplicate: Bool? = nil, typeAnswer: Bool = false, media: [Asset] = [],
                               tags: [String] = []) throws -> BoxReply<(card: Card, reverse: Card?)> {
        try call(.add, ["front": front.json, "back": back.json, "id": id.map(JSONValue.string),
                        "level": level.map { .string($0.name) }, "allowDuplicate": allowDuplicate.map(JSONValue.bool),
                        "reverse": .bool(true), "typeAnswer": typeAnswer ? .bool(true) : nil,
                        "media": BoxClient.assets(media), "tags": tags.isEmpty ? nil : BoxClient.strings(tags)]) { fields throws(JSONFieldError) in
            (card: try fields.card(), reverse: try fields.optionalCard("reverse"))
        }
    }

    /// `AddReverse`: a reverse card of the card `id` (R28); with `tags`, those instead of a copy
    /// of the card's; with `typeAnswer`, its own `type-answer` file (R32).
    public func addReverse(of id: String, reverseID: String? = nil, level: Level? = nil, tags: [String]? = nil,
                           typeAnswer: Bool = false) throws -> BoxReply<Card> {
        try call(.addReverse, ["id": .string(id), "reverseId": reverseID.map(JSONValue.string),
                               "level": level.map { .string($0.name) }, "tags": tags.map { .array($0.map(JSONValue.string)) },
                               "typeAnswer": typeAnswer ? .bool(true) : nil]) { fields throws(JSONFieldError) in try fields.card() }
    }

    /// `AddCloze`: a cloze note and one card per deletion number (R30); `typeAnswer` and
    /// `media` go into the note's directory (R32, R31).
    public func addCloze(text: String, id: String? = nil, level: Level? = nil, extra: String? = nil,
                         tags: [String] = [], typeAnswer: Bool = false, media: [Asset] = []) throws -> BoxReply<[Card]> {
        try call(.addCloze, ["text": .string(text), "id": id.map(JSONValue.string), "level": level.map { .string($0.name) },
                             "extra": extra.map(JSONValue.string), "tags": tags.isEmpty ? nil : .array(tags.map(JSONValue.string)),
                             "typeAnswer": typeAnswer ? .bool(true) : nil, "media": BoxClient.assets(media)]) {
            fields throws(JSONFieldError) in try fields.objects("cards") { value, field throws(JSONFieldError) in try Card(json: value, field: field) }
        }
    }

    /// `AddClozes`: a batch of cloze notes (R30), each added with its cards, found present or
    /// refused on its own; each card added is reported with its note's index.
    public func addClozes(_ notes: [NewNote]) throws -> BoxReply<BatchOutcome> {
        try call(.addClozes, ["notes": .array(notes.map(\.json))]) { fields throws(JSONFieldError) in
            try BatchOutcome(json: .object(fields.members))
        }
    }

    /// `AddMany`: a batch of cards, each added, found present or refused on its own.
    /// `reverse`: each added card gets its reverse card beside it (R28). A medium several cards
    /// hold is sent once (`NewCard.batchJSON`).
    public func addMany(_ cards: [NewCard], allowDuplicate: Bool? = nil, reverse: Bool? = nil) throws -> BoxReply<BatchOutcome> {
        let batch = NewCard.batchJSON(cards)
        return try call(.addMany, ["cards": .array(batch.cards), "allowDuplicate": allowDuplicate.map(JSONValue.bool),
                                   "reverse": reverse.map(JSONValue.bool), "media": batch.media.isEmpty ? nil : JSONValue.array(batch.media)]) {
            fields throws(JSONFieldError) in try BatchOutcome(json: .object(fields.members))
        }
    }

    /// `Suspend`: the cards to `suspended/` (R24), out of every test.
    public func suspend(ids: [String]) throws -> BoxReply<[Card]> {
        try call(.suspend, ["ids": .array(ids.map(JSONValue.string))]) { fields throws(JSONFieldError) in
            try fields.objects("cards") { (value, path) throws(JSONFieldError) in try Card(json: value, field: path) }
        }
    }

    /// `Unsuspend`: suspended cards back to the level each was suspended from, else level 1 (R24).
    public func unsuspend(ids: [String]) throws -> BoxReply<[Card]> {
        try call(.unsuspend, ["ids": .array(ids.map(JSONValue.string))]) { fields throws(JSONFieldError) in
            try fields.objects("cards") { (value, path) throws(JSONFieldError) in try Card(json: value, field: path) }
        }
    }

    /// `Move`: the card to `level` (R12).
    public func move(id: String, to level: Level) throws -> BoxReply<Card> {
        try call(.move, ["id": .string(id), "level": .string(level.name)]) { fields throws(JSONFieldError) in try fields.card() }
    }

    /// `Delete`: the card, and its reverse cards unless `keepReverses` (R28). The reply names
    /// the reverses, deleted or kept.
    public func delete(id: String, keepReverses: Bool? = nil) throws -> BoxReply<[String]> {
        try call(.delete, ["id": .string(id), "keepReverses": keepReverses.map(JSONValue.bool)]) { fields throws(JSONFieldError) in
            guard fields.optional("reverses") != nil else { return [] }
            return try fields.objects("reverses") { (value, path) throws(JSONFieldError) -> String in
                guard let id = value.stringValue else { throw JSONFieldError(field: path, reason: "is not a string") }
                return id
            }
        }
    }

    /// `Edit`: new sides for a card; a side left nil is kept.
    public func edit(id: String, front: Asset? = nil, back: Asset? = nil) throws -> BoxReply<(card: Card, changed: Bool)> {
        try call(.edit, ["id": .string(id), "front": front?.json, "back": back?.json]) { fields throws(JSONFieldError) in
            (card: try fields.card(), changed: try fields.bool("changed"))
        }
    }

    /// `Rename`: the card under a new id (R17).
    public func rename(id: String, to newID: String) throws -> BoxReply<Card> {
        try call(.rename, ["id": .string(id), "newId": .string(newID)]) { fields throws(JSONFieldError) in try fields.card() }
    }

    /// `Show`: one card.
    public func show(id: String) throws -> BoxReply<Card> {
        try call(.show, ["id": .string(id)]) { fields throws(JSONFieldError) in try fields.card() }
    }

    /// `ReadAsset`: a side's file, its bytes decoded.
    public func readAsset(id: String, side: SideName) throws -> BoxReply<Asset> {
        try call(.readAsset, ["id": .string(id), "side": .string(side.rawValue)]) { fields throws(JSONFieldError) in
            try Asset(json: .object(fields.members), field: fields.path)
        }
    }

    /// `ReadMedium`: a medium of a card's sides (R31), by its name, its bytes decoded.
    public func readMedium(id: String, name: String) throws -> BoxReply<Asset> {
        try call(.readMedium, ["id": .string(id), "name": .string(name)]) { fields throws(JSONFieldError) in
            try Asset(json: .object(fields.members), field: fields.path)
        }
    }

    /// `Speech`: the voice of a side (R33), as the cache has it; never waits for it.
    public func speech(id: String, side: SideName, withData: Bool = false) throws -> BoxReply<SpeechReply> {
        try call(.speech, ["id": .string(id), "side": .string(side.rawValue), "withData": withData ? .bool(true) : nil]) {
            fields throws(JSONFieldError) in
            var bytes: [UInt8]?
            if let text = try fields.optionalString("data") {
                guard let decoded = Base64.decode(text) else { throw fields.mistyped("data", .string(text), expected: "base64") }
                bytes = decoded
            }
            return SpeechReply(path: try fields.optionalString("path"), data: bytes, pending: try fields.bool("pending"),
                               problem: try fields.optionalString("problem"))
        }
    }

    /// `AddMedia`: pictures and sounds put beside a card's sides (R31).
    public func addMedia(id: String, media: [Asset]) throws -> BoxReply<(card: Card, names: [String])> {
        try call(.addMedia, ["id": .string(id), "media": .array(media.map(\.json))]) { fields throws(JSONFieldError) in
            (card: try fields.card(), names: try fields.strings("names"))
        }
    }

    /// `ResolveConflict`: keeps one side of a card's sync conflict (docs/sync.md); `keep` is
    /// `mine`, `theirs` or a conflict file's name.
    public func resolveConflict(id: String, keep: String) throws -> BoxReply<(card: Card, kept: [String], removed: [String])> {
        try call(.resolveConflict, ["id": .string(id), "keep": .string(keep)]) { fields throws(JSONFieldError) in
            (card: try fields.card(), kept: try fields.strings("kept"), removed: try fields.strings("removed"))
        }
    }

    // MARK: Tags and practice (R25, R27)

    /// `Tag`: adds tags to a card.
    public func tag(id: String, tags: [String]) throws -> BoxReply<Card> {
        try call(.tag, ["id": .string(id), "tags": BoxClient.strings(tags)]) { fields throws(JSONFieldError) in try fields.card() }
    }

    /// `Untag`: takes tags off a card.
    public func untag(id: String, tags: [String]) throws -> BoxReply<Card> {
        try call(.untag, ["id": .string(id), "tags": BoxClient.strings(tags)]) { fields throws(JSONFieldError) in try fields.card() }
    }

    /// `Tags`: every tag with its card count, of the cards `tags` and `notTags` select, in parts.
    public func tags(tags: [String]? = nil, notTags: [String]? = nil, _ body: (BoxReplyPart<TagCount>) throws -> Void) throws {
        try stream(.tags, ["tags": BoxClient.strings(tags), "notTags": BoxClient.strings(notTags)],
                   member: "tags", as: TagCount.init(json:field:), body)
    }

    /// `PracticeCards`: the cards of a practice session, in parts.
    public func practiceCards(tags: [String]? = nil, notTags: [String]? = nil, levels: [Level]? = nil, pattern: String? = nil,
                              regex: Bool? = nil, wrongDays: Int? = nil, limit: Int? = nil, shuffle: Bool? = nil,
                              _ body: (BoxReplyPart<Card>) throws -> Void) throws {
        try stream(.practiceCards, ["tags": BoxClient.strings(tags), "notTags": BoxClient.strings(notTags),
                                    "levels": levels.map { .array($0.map { .string($0.name) }) },
                                    "pattern": pattern.map(JSONValue.string), "regex": regex.map(JSONValue.bool),
                                    "wrongDays": wrongDays.map { .int(Int64($0)) }, "limit": limit.map { .int(Int64($0)) },
                                    "shuffle": shuffle.map(JSONValue.bool)],
                   member: "cards", as: Card.init(json:field:), body)
    }

    /// `Practice`: an answer outside the test (R27), which moves nothing.
    public func practice(id: String, correct: Bool, answerMs: Int? = nil) throws -> BoxReply<Card> {
        try call(.practice, ["id": .string(id), "correct": .bool(correct), "answerMs": answerMs.map { .int(Int64($0)) }]) {
            fields throws(JSONFieldError) in try fields.card()
        }
    }

    /// Media as a parameter; nil (not sent) when there are none, so an older daemon is asked
    /// nothing it does not know.
    private static func assets(_ media: [Asset]) -> JSONValue? {
        media.isEmpty ? nil : .array(media.map(\.json))
    }

    /// A list of strings as a parameter; nil (not sent) when nil.
    private static func strings(_ values: [String]?) -> JSONValue? {
        values.map { .array($0.map(JSONValue.string)) }
    }

    // MARK: Streamed: replies that grow with the box

    /// `List`: every card, or those of `level`, in parts; only those `tags` and `notTags` select.
    public func list(level: Level? = nil, withText: Bool? = nil, tags: [String]? = nil, notTags: [String]? = nil,
                     after: ListPosition? = nil, before: ListPosition? = nil, limit: Int? = nil,
                     _ body: (BoxReplyPart<Card>) throws -> Void) throws {
        func position(_ place: ListPosition?) -> JSONValue? {
            place.map { .object(["level": .string($0.level.name), "id": .string($0.id)]) }
        }
        try stream(.list, ["level": level.map { .string($0.name) }, "withText": withText.map(JSONValue.bool),
                           "tags": BoxClient.strings(tags), "notTags": BoxClient.strings(notTags),
                           "after": position(after), "before": position(before), "limit": limit.map { .int(Int64($0)) }],
                   member: "cards", as: Card.init(json:field:), body)
    }

    /// Today's week, Monday to Sunday, for a `Status` reply: the reply's own (#35: one round
    /// trip), or from `Calendar` when an older daemon's reply has none.
    public func week(of status: BoxStatus) throws -> [CalendarDay] {
        if !status.week.isEmpty { return status.week }
        let monday = status.today.adding(days: -status.today.weekday)
        var days: [CalendarDay] = []
        try calendar(from: monday, to: monday.adding(days: 6)) { days += $0.items }
        return days
    }

    /// `Calendar`: a line a day from `from` to `to`.
    public func calendar(from: LogicalDate, to: LogicalDate, _ body: (BoxReplyPart<CalendarDay>) throws -> Void) throws {
        try stream(.calendar, ["from": .string(from.description), "to": .string(to.description)],
                   member: "days", as: CalendarDay.init(json:field:), body)
    }

    /// `Log`: the review log from `since` (a date or an RFC 3339 time), at most `limit` entries.
    public func log(since: String? = nil, limit: Int? = nil, _ body: (BoxReplyPart<LogEntry>) throws -> Void) throws {
        try stream(.log, ["since": since.map(JSONValue.string), "limit": limit.map { .int(Int64($0)) }],
                   member: "entries", as: LogEntry.init(json:field:), body)
    }

    /// `Search`: every matching line, in parts; the lines of the first `cards` cards only, when given.
    public func search(_ pattern: String, regex: Bool? = nil, fields: Set<SearchMatch.Field>? = nil, level: Level? = nil,
                       limit: Int? = nil, cards: Int? = nil, tags: [String]? = nil, notTags: [String]? = nil,
                       _ body: (BoxReplyPart<SearchMatch>) throws -> Void) throws {
        let names = fields.map { set in SearchMatch.Field.allCases.filter(set.contains).map { JSONValue.string($0.rawValue) } }
        try stream(.search, ["pattern": .string(pattern), "regex": regex.map(JSONValue.bool), "fields": names.map(JSONValue.array),
                             "level": level.map { .string($0.name) }, "limit": limit.map { .int(Int64($0)) },
                             "cards": cards.map { .int(Int64($0)) },
                             "tags": BoxClient.strings(tags), "notTags": BoxClient.strings(notTags)],
                   member: "matches", as: SearchMatch.init(json:field:), body)
    }

    /// `Doctor`: every problem of the store.
    public func doctor(_ body: (BoxReplyPart<StoreProblem>) throws -> Void) throws {
        try stream(.doctor, [:], member: "problems", as: StoreProblem.init(json:field:), body)
    }

    // MARK: Statistics and the daemon

    /// `Stats`: the figures of `leitnerctl stats` over `days`, with `leeches` leeches listed.
    public func stats(days: Int? = nil, leeches: Int? = nil, tags: [String]? = nil, notTags: [String]? = nil) throws
        -> BoxReply<BoxStatistics> {
        try call(.stats, ["days": days.map { .int(Int64($0)) }, "leeches": leeches.map { .int(Int64($0)) },
                          "tags": BoxClient.strings(tags), "notTags": BoxClient.strings(notTags)]) {
            fields throws(JSONFieldError) in try BoxStatistics(json: .object(fields.members))
        }
    }

    /// `Stop`: asks the daemon to stop, as SIGTERM does.
    public func stop() throws -> BoxReply<Void> {
        try call(.stop) { _ throws(JSONFieldError) in () }
    }

    // MARK: The two shapes of a call

    private func call<Value>(_ method: BoxMethod, _ parameters: [String: JSONValue?] = [:],
                             _ decode: (JSONFields) throws(JSONFieldError) -> Value) throws -> BoxReply<Value> {
        let json = try transport.call(method.qualifiedName, parameters.compactMapValues { $0 })
        do throws(JSONFieldError) {
            return BoxReply(json: json, value: try decode(JSONFields(members: json)))
        } catch {
            throw BoxReplyError(method: method, error: error)
        }
    }

    private func stream<Item>(_ method: BoxMethod, _ parameters: [String: JSONValue?], member: String,
                              as decode: (JSONValue, String) throws(JSONFieldError) -> Item,
                              _ body: (BoxReplyPart<Item>) throws -> Void) throws {
        try transport.stream(method.qualifiedName, parameters.compactMapValues { $0 }) { reply in
            let items: [Item]
            do throws(JSONFieldError) {
                items = try JSONFields(members: reply).objects(member, decode)
            } catch {
                throw BoxReplyError(method: method, error: error)
            }
            try body(BoxReplyPart(items: items, json: reply[member]?.arrayValue ?? []))
        }
    }
}
