import LeitnerCore
import LeitnerVarlink

/// The note types the door offers (`modelNames`), each one kind of card of the box, under the
/// names Anki gives its own so that a client's settings read as they do for Anki: "Basic" is a
/// card, front and back; "Basic (and reversed card)" a card and its reverse card (R28);
/// "Cloze" a cloze note and its cards (R30).
enum AnkiModel: String, CaseIterable {
    case basic = "Basic"
    case reversed = "Basic (and reversed card)"
    case cloze = "Cloze"

    /// The fields, in order (`modelFieldNames`); the first is the one duplicates are found by.
    var fields: [String] {
        switch self {
        case .basic, .reversed: ["Front", "Back"]
        case .cloze: ["Text", "Back Extra"]
        }
    }

    /// Notes of one family have their first fields compared with each other's: a card's front
    /// is one front whether or not it has a reverse, as the daemon's `duplicateFront` says.
    var family: Int { self == .cloze ? 1 : 0 }
}

/// The decks: the box itself (its name, or "Default" for the default box, as Anki names its
/// first deck) and one deck per tag `deck:NAME` — the tag `ankiimport` gives a deck's cards —
/// whose `::` between parts is our `:`. A note added to another deck gets its tag.
struct AnkiDecks {
    let boxDeck: String

    init(boxName: String?) { boxDeck = boxName ?? "Default" }

    static let tagPrefix = "deck:"

    /// The tag of deck `name`, nil for the box's own deck.
    func tag(of name: String) throws(AnkiError) -> String? {
        if name == boxDeck { return nil }
        let tag = Self.tagPrefix + name.replacing("::", with: ":")
        if let reason = CardTag.problem(tag) {
            throw AnkiError("deck '\(name)' cannot be a deck of this box: its tag '\(tag)' \(reason)")
        }
        return tag
    }

    /// The deck a tag names, or nil when it names none.
    static func deck(ofTag tag: String) -> String? {
        guard tag.hasPrefix(tagPrefix), tag.count > tagPrefix.count else { return nil }
        return String(tag.dropFirst(tagPrefix.count)).replacing(":", with: "::")
    }
}

/// A note as `addNote`, `canAddNotes` and `updateNoteFields` send it: its type, its deck, its
/// fields made Markdown, its tags, and how duplicates are judged.
struct AnkiNote {
    var model: AnkiModel
    var deck: String
    /// The model's fields in its order, each made Markdown; a field not sent is empty.
    var fields: [AnkiFieldText]
    /// The note's tags as the box's (`::` is `:`).
    var tags: [String]
    var allowDuplicate: Bool
    /// `duplicateScope` "deck": duplicates are looked for in this deck only; nil: in the box.
    var duplicateDeck: String?

    /// The note of `json`, with the media of `audio`, `picture` and `video` stored on `shelf`
    /// and named in their fields, as AnkiConnect appends them.
    init(_ json: JSONValue?, attach: (JSONValue) throws(AnkiError) -> String) throws(AnkiError) {
        guard case .object(let note)? = json else { throw AnkiError("\"note\" must be an object") }
        guard let modelName = note["modelName"]?.stringValue else { throw AnkiError("the note has no \"modelName\"") }
        guard let model = AnkiModel(rawValue: modelName) else { throw AnkiError("model was not found: \(modelName)") }
        guard let deck = note["deckName"]?.stringValue else { throw AnkiError("the note has no \"deckName\"") }
        var html = try Self.fieldValues(note["fields"], model: model)
        for (member, isPicture) in [("audio", false), ("video", false), ("picture", true)] {
            for item in Self.list(note[member]) {
                let name = try attach(item)
                for field in Self.list(item["fields"]).compactMap(\.stringValue) {
                    guard let index = model.fields.firstIndex(where: { $0.lowercased() == field.lowercased() }) else { continue }
                    html[index] += isPicture ? "<img src=\"\(name)\">" : "[sound:\(name)]"
                }
            }
        }
        self.model = model
        self.deck = deck
        fields = html.map(AnkiFieldText.init(html:))
        tags = try Self.tags(note["tags"])
        let options = note["options"]?.objectValue ?? [:]
        allowDuplicate = options["allowDuplicate"]?.boolValue ?? false
        if options["duplicateScope"]?.stringValue == "deck" {
            duplicateDeck = options["duplicateScopeOptions"]?["deckName"]?.stringValue ?? deck
        }
    }

    /// A value that may be one object or a list of them.
    static func list(_ value: JSONValue?) -> [JSONValue] {
        switch value {
        case .array(let items)?: items
        case .object?: [value!]
        default: []
        }
    }

    /// The fields sent, matched to the model's by name without case, as AnkiConnect matches
    /// them; a name the model does not have is left out, as AnkiConnect leaves it.
    static func fieldValues(_ json: JSONValue?, model: AnkiModel) throws(AnkiError) -> [String] {
        guard case .object(let sent)? = json else { throw AnkiError("the note's \"fields\" must be an object") }
        var values = Array(repeating: "", count: model.fields.count)
        for (name, value) in sent {
            guard let index = model.fields.firstIndex(where: { $0.lowercased() == name.lowercased() }) else { continue }
            guard let text = value.stringValue else { throw AnkiError("field '\(name)' is \(value.kindName), not a string") }
            values[index] = text
        }
        return values
    }

    /// Anki's tags as the box's: `a::b` is `a:b`; one that is no tag of ours is refused.
    static func tags(_ json: JSONValue?) throws(AnkiError) -> [String] {
        var tags: [String] = []
        for value in json?.arrayValue ?? [] {
            guard let text = value.stringValue else { throw AnkiError("a tag is \(value.kindName), not a string") }
            // Anki keeps tags as one space-separated string at times.
            for word in text.split(separator: " ") {
                let tag = String(word).replacing("::", with: ":")
                if let reason = CardTag.problem(tag) { throw AnkiError("tag '\(word)' cannot be a tag of the box: it \(reason)") }
                if !tags.contains(tag) { tags.append(tag) }
            }
        }
        return tags
    }

    /// The first field as duplicates are compared: its Markdown without surrounding white space.
    var key: String { Box.normalized(fields[0].markdown) }

    /// Every media file the fields name, each once.
    var media: [String] {
        var names: [String] = []
        for name in fields.flatMap(\.media) where !names.contains(name) { names.append(name) }
        return names
    }
}

/// A note already in the box, as `findNotes` and `notesInfo` see it: a card (and its reverse),
/// or a cloze note and its cards.
struct AnkiBoxNote {
    var id: Int64
    var model: AnkiModel
    /// The card's id, or the cloze note's: what `guiBrowse` opens.
    var boxID: String
    var fields: [String]
    var tags: [String]
    var cards: [Int64]
    /// The names of the media its sides show.
    var media: [String] = []

    var key: String { Box.normalized(fields.first ?? "") }

    /// The decks the note is in: its `deck:` tags' decks, or the box's own when it has none.
    func isIn(deck tag: String?) -> Bool {
        guard let tag else { return !tags.contains { $0.hasPrefix(AnkiDecks.tagPrefix) } }
        return tags.contains { $0 == tag || $0.hasPrefix(tag + ":") }
    }

    /// Every note of the box, from its cards.
    static func all(_ cards: [Card]) -> [AnkiBoxNote] {
        let reversed = Set(cards.compactMap(\.reverseOf))
        var reverseOf: [String: String] = [:]
        for card in cards { if let of = card.reverseOf { reverseOf[of] = card.id } }
        var notes: [AnkiBoxNote] = []
        var clozeNotes: [String: Int] = [:]
        for card in cards where card.reverseOf == nil {
            if let cloze = card.clozeOf {
                if let index = clozeNotes[cloze.note] {
                    notes[index].cards.append(number(card.id))
                    continue
                }
                clozeNotes[cloze.note] = notes.count
                notes.append(AnkiBoxNote(id: number("notes/" + cloze.note), model: .cloze, boxID: card.id,
                                         fields: [card.front.text ?? "", ""], tags: card.tags, cards: [number(card.id)]))
                continue
            }
            let model: AnkiModel = reversed.contains(card.id) ? .reversed : .basic
            notes.append(AnkiBoxNote(id: number(card.id), model: model, boxID: card.id,
                                     fields: [card.front.text ?? "", card.back.text ?? ""], tags: card.tags,
                                     cards: [number(card.id)] + (reverseOf[card.id].map { [number($0)] } ?? []),
                                     media: (card.front.media + card.back.media).map(\.name)))
        }
        return notes
    }

    /// The number AnkiConnect's clients know a card or note by: a hash of its id (FNV-1a), cut
    /// to 53 bits so that JavaScript reads it exactly. The same id gives the same number on
    /// every run, so a client's remembered note is found again.
    static func number(_ id: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        // Never 0: a client reads 0 as no note.
        return Int64(hash & ((1 << 53) - 1)) | 1
    }
}
