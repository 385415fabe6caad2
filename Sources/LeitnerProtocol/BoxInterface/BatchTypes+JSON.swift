import LeitnerCore
import LeitnerVarlink
/// The types of `AddMany` and `AddClozes` as JSON, both ways (docs/protocol.md, "AddMany"):
/// `NewCard` and `NewNote` in the call, `AddedCard`, `PresentCard` and `RefusedCard` in the reply.

extension NewCard {
    /// The `NewCard` object.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["front": front.json, "back": back.json, "id": id.map(JSONValue.string) ?? .null,
                                            "level": level.map(JSONValue.string) ?? .null,
                                            "typeAnswer": typeAnswer ? .bool(true) : .null]
        // Only when there are some: a daemon from before them reads the rest of the card.
        if !tags.isEmpty { members["tags"] = .array(tags.map(JSONValue.string)) }
        if !media.isEmpty { members["media"] = .array(media.map(\.json)) }
        if let reverseLevel { members["reverseLevel"] = .string(reverseLevel) }
        return .object(members)
    }

    /// Reads a `NewCard` object; its `sharedMedia` are taken from `batchMedia`, `AddMany`'s
    /// `media` by name, their bytes shared with every card naming them.
    /// - Throws: `JSONFieldError` naming the member that is missing or mistyped (`cards.3.front.text`),
    ///   or a shared medium the batch does not hold.
    public init(json: JSONValue, field: String = "card", batchMedia: [String: Asset] = [:]) throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        let shared: [Asset] = try fields.optional("sharedMedia", "an array of names of the batch's media") { value -> [Asset]? in
            value.arrayValue.flatMap { items -> [Asset]? in
                let assets = items.compactMap { item -> Asset? in item.stringValue.flatMap { batchMedia[$0] } }
                return assets.count == items.count ? assets : nil
            }
        } ?? []
        self.init(front: try Asset(json: fields.required("front"), field: fields.field("front")),
                  back: try Asset(json: fields.required("back"), field: fields.field("back")),
                  id: try fields.optionalString("id"), level: try fields.optionalString("level"),
                  typeAnswer: try fields.optionalBool("typeAnswer") ?? false,
                  tags: try fields.optionalStrings("tags") ?? [],
                  media: (try fields.optionalObjects("media") { (value, path) throws(JSONFieldError) in try Asset(json: value, field: path) } ?? [])
                      + shared,
                  reverseLevel: try fields.optionalString("reverseLevel"))
    }

    /// `AddMany`'s parameters for `cards`: each medium that several cards hold with the same
    /// bytes (a picture many notes show) is sent once, in the batch's `media`, and named in
    /// each such card's `sharedMedia`; the others go with their card.
    public static func batchJSON(_ cards: [NewCard]) -> (cards: [JSONValue], media: [JSONValue]) {
        var uses: [String: Int] = [:]
        for card in cards { for medium in card.media { uses[medium.name, default: 0] += 1 } }
        var sent: [String: [UInt8]] = [:]
        var media: [JSONValue] = []
        let encoded = cards.map { card -> JSONValue in
            var own = card
            own.media = []
            var shared: [String] = []
            for medium in card.media {
                // A name given with other bytes by another card goes with its own card.
                if uses[medium.name, default: 0] > 1, sent[medium.name].map({ $0 == medium.content }) ?? true {
                    if sent[medium.name] == nil {
                        sent[medium.name] = medium.content
                        media.append(medium.json)
                    }
                    shared.append(medium.name)
                } else {
                    own.media.append(medium)
                }
            }
            var json = own.json
            if !shared.isEmpty, case .object(var members) = json {
                members["sharedMedia"] = .array(shared.map(JSONValue.string))
                json = .object(members)
            }
            return json
        }
        return (encoded, media)
    }
}

extension NewNote {
    /// The `NewNote` object.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["text": .string(text)]
        if let id { members["id"] = .string(id) }
        if let level { members["level"] = .string(level) }
        if let extra { members["extra"] = .string(extra) }
        if !tags.isEmpty { members["tags"] = .array(tags.map(JSONValue.string)) }
        if typeAnswer { members["typeAnswer"] = .bool(true) }
        if !media.isEmpty { members["media"] = .array(media.map(\.json)) }
        if !cardLevels.isEmpty {
            members["cardLevels"] = .object(Dictionary(uniqueKeysWithValues: cardLevels.map { (String($0.key), JSONValue.string($0.value)) }))
        }
        return .object(members)
    }

    /// Reads a `NewNote` object.
    /// - Throws: `JSONFieldError` naming the member that is missing or mistyped (`notes.3.text`),
    ///   or a key of `cardLevels` that is not a number.
    public init(json: JSONValue, field: String = "note") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        var cardLevels: [Int: String] = [:]
        if fields.optional("cardLevels") != nil {
            let levels = try fields.object("cardLevels")
            for (key, value) in levels.members {
                guard let number = Int(key), let level = value.stringValue else {
                    throw levels.mistyped(key, value, expected: "a level's name by a deletion number")
                }
                cardLevels[number] = level
            }
        }
        self.init(text: try fields.string("text"), id: try fields.optionalString("id"), level: try fields.optionalString("level"),
                  extra: try fields.optionalString("extra"), tags: try fields.optionalStrings("tags") ?? [],
                  typeAnswer: try fields.optionalBool("typeAnswer") ?? false,
                  media: try fields.optionalObjects("media") { (value, path) throws(JSONFieldError) in try Asset(json: value, field: path) } ?? [],
                  cardLevels: cardLevels)
    }
}

extension BatchOutcome {
    /// The parameters of the `AddMany` reply: `added`, `present` and `refused`, each in the
    /// batch's order. A refused card carries the error `Add` would have answered, by its name
    /// and parameters, and the reason in words.
    public var json: JSONValue {
        func index(_ value: Int) -> JSONValue { .int(Int64(value)) }
        return [
            "added": .array(added.map { card in
                var object: JSONValue = ["index": index(card.index), "id": .string(card.id), "level": .string(card.level.name)]
                // Only when a reverse was asked for (R28).
                if let reverse = card.reverse, case .object(var members) = object {
                    members["reverse"] = .string(reverse)
                    object = .object(members)
                }
                return object
            }),
            "present": .array(present.map { ["index": index($0.index), "id": .string($0.id)] }),
            "refused": .array(refused.map {
                ["index": index($0.index), "error": .string($0.error.varlinkName),
                 "parameters": .object($0.error.varlinkParameters), "reason": .string($0.error.description)]
            }),
        ]
    }

    /// Reads the parameters of an `AddMany` reply.
    /// - Throws: `JSONFieldError` naming the member that is missing or mistyped, or a refusal
    ///   whose error is not one of the box's.
    public init(json: JSONValue, field: String = "") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        let added = try fields.objects("added") { (value, path) throws(JSONFieldError) -> Added in
            let card = try JSONFields(value, path: path)
            return Added(index: try card.int("index"), id: try card.string("id"), level: try card.level("level"),
                         reverse: try card.optionalString("reverse"))
        }
        let present = try fields.objects("present") { (value, path) throws(JSONFieldError) -> Present in
            let card = try JSONFields(value, path: path)
            return Present(index: try card.int("index"), id: try card.string("id"))
        }
        let refused = try fields.objects("refused") { (value, path) throws(JSONFieldError) -> Refused in
            let card = try JSONFields(value, path: path)
            let name = try card.string("error")
            let parameters = try card.object("parameters")
            guard let error = BoxError(VarlinkCallError(name: name, parameters: parameters.members)) else {
                throw JSONFieldError(field: card.field("error"), reason: "is not an error of \(BoxInterface.name) with its parameters")
            }
            return Refused(index: try card.int("index"), error: error)
        }
        self.init(added: added, present: present, refused: refused)
    }
}
