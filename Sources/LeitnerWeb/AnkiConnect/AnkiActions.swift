import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// The actions the door answers (docs/web.md, "AnkiConnect"): what a pop-up dictionary uses to
/// add a card and to find that it has one, and nothing that reads more of the box — there is
/// no action that lists cards, and `findNotes` answers a first field or note ids, never a
/// whole deck. Each is answered through the daemon (`BoxClient`), as every client is.
struct AnkiActions: Sendable {
    let transport: any BoxTransport & Sendable
    let shelf: AnkiMediaShelf
    let decks: AnkiDecks
    /// The site's own address, for `guiBrowse`.
    let webAddress: String
    let opener: @Sendable (String) -> Bool
    /// Seconds since the epoch, for the shelf's old files.
    let clock: @Sendable () -> Int64

    init(transport: any BoxTransport & Sendable, shelf: AnkiMediaShelf, boxName: String?, webAddress: String,
         opener: @escaping @Sendable (String) -> Bool,
         clock: @escaping @Sendable () -> Int64 = { RealTime.nanoseconds / 1_000_000_000 }) {
        self.transport = transport
        self.shelf = shelf
        decks = AnkiDecks(boxName: boxName)
        self.webAddress = webAddress
        self.opener = opener
        self.clock = clock
    }

    var box: BoxClient { BoxClient(transport) }

    typealias Action = @Sendable (AnkiActions, [String: JSONValue]) throws(AnkiError) -> JSONValue

    /// Every action, by AnkiConnect's name; `multi` is the door's own (`AnkiConnectDoor`).
    static let table: [String: Action] = [
        "version": { _, _ in .int(Int64(AnkiConnectDoor.version)) },
        "requestPermission": { _, _ in
            .object(["permission": "granted", "requireApikey": true, "version": .int(Int64(AnkiConnectDoor.version))])
        },
        "apiReflect": { actions, params throws(AnkiError) in try actions.reflect(params) },
        "deckNames": { actions, _ throws(AnkiError) in .array(try actions.deckNames().map(JSONValue.string)) },
        "modelNames": { _, _ in .array(AnkiModel.allCases.map { .string($0.rawValue) }) },
        "modelFieldNames": { _, params throws(AnkiError) in
            let name = params["modelName"]?.stringValue ?? ""
            guard let model = AnkiModel(rawValue: name) else { throw AnkiError("model was not found: \(name)") }
            return .array(model.fields.map(JSONValue.string))
        },
        "canAddNotes": { actions, params throws(AnkiError) in
            .array(try actions.refusals(of: actions.notesParameter(params)).map { .bool($0 == nil) })
        },
        "canAddNotesWithErrorDetail": { actions, params throws(AnkiError) in
            .array(try actions.refusals(of: actions.notesParameter(params)).map { refusal in
                refusal.map { .object(["canAdd": false, "error": .string($0.message)]) } ?? .object(["canAdd": true])
            })
        },
        "addNote": { actions, params throws(AnkiError) in .int(try actions.add([params["note"] ?? .null])[0].get()) },
        "addNotes": { actions, params throws(AnkiError) in
            .array(try actions.add(actions.notesParameter(params)).map { (try? $0.get()).map(JSONValue.int) ?? .null })
        },
        "updateNoteFields": { actions, params throws(AnkiError) in try actions.updateFields(params["note"]) },
        "storeMediaFile": { actions, params throws(AnkiError) in .string(try actions.storeMedia(params)) },
        "findNotes": { actions, params throws(AnkiError) in
            .array(try actions.find(params["query"]?.stringValue ?? "").map { .int($0.id) })
        },
        "notesInfo": { actions, params throws(AnkiError) in try actions.notesInfo(params) },
        "guiBrowse": { actions, params throws(AnkiError) in try actions.browse(params["query"]?.stringValue ?? "") },
    ]

    /// The names `apiReflect` lists: the table's and `multi`.
    static var names: [String] { (Array(table.keys) + ["multi"]).sorted() }

    func perform(_ action: String, _ params: [String: JSONValue]) throws(AnkiError) -> JSONValue {
        guard let handler = Self.table[action] else { throw AnkiError("unsupported action") }
        return try handler(self, params)
    }

    /// `apiReflect`: the actions asked about that the door answers, as AnkiConnect says it.
    func reflect(_ params: [String: JSONValue]) throws(AnkiError) -> JSONValue {
        guard let scopes = params["scopes"]?.arrayValue else { throw AnkiError("scopes has invalid value") }
        var result: [String: JSONValue] = [:]
        var answered: [JSONValue] = []
        if scopes.contains(.string("actions")) {
            let asked: [String]
            switch params["actions"] {
            case nil, .null?: asked = Self.names
            case .array(let list)?: asked = list.compactMap(\.stringValue)
            default: throw AnkiError("actions has invalid value")
            }
            answered.append("actions")
            result["actions"] = .array(asked.filter { Self.names.contains($0) }.map(JSONValue.string))
        }
        result["scopes"] = .array(answered)
        return .object(result)
    }

    /// `deckNames`: the box's own deck and one per `deck:` tag.
    func deckNames() throws(AnkiError) -> [String] {
        var names = [decks.boxDeck]
        try daemon("deckNames") {
            try box.tags(tags: ["deck"]) { part in
                for count in part.items { if let deck = AnkiDecks.deck(ofTag: count.tag), !names.contains(deck) { names.append(deck) } }
            }
        }
        return [names[0]] + names.dropFirst().sorted()
    }

    // MARK: Notes

    func notesParameter(_ params: [String: JSONValue]) throws(AnkiError) -> [JSONValue] {
        guard let notes = params["notes"]?.arrayValue else { throw AnkiError("\"notes\" must be a list of notes") }
        return notes
    }

    /// The note of `json`, its attached media stored first.
    func note(_ json: JSONValue?) throws(AnkiError) -> AnkiNote {
        try AnkiNote(json) { (item) throws(AnkiError) in
            guard case .object(let members) = item, let name = members["filename"]?.stringValue else {
                throw AnkiError("a note's audio, video or picture needs a \"filename\"")
            }
            return try storeMedia(members.merging(["filename": .string(name)]) { $1 })
        }
    }

    /// Why each note cannot be added, in AnkiConnect's words, or nil when it can: each is
    /// looked at alone against the box, which is read once for all of them.
    func refusals(of jsons: [JSONValue]) throws(AnkiError) -> [AnkiError?] {
        let existing = Dictionary(grouping: try boxNotes(), by: \.key)
        return jsons.map { json in
            do throws(AnkiError) {
                let note = try note(json)
                try check(note, among: existing)
                _ = try decks.tag(of: note.deck)
                return nil
            } catch {
                return error
            }
        }
    }

    /// Refuses an empty first field, and a duplicate unless it is allowed, as AnkiConnect does.
    /// `notes` are by their `key`: a request of many notes looks up each, not every note of the box.
    func check(_ note: AnkiNote, among notes: [String: [AnkiBoxNote]]) throws(AnkiError) {
        let key = note.key
        if key.isEmpty { throw AnkiError("cannot create note because it is empty") }
        guard !note.allowDuplicate else { return }
        let scope = try note.duplicateDeck.map { (deck) throws(AnkiError) in try decks.tag(of: deck) }
        let duplicate = (notes[key] ?? []).contains { existing in
            existing.model.family == note.model.family && (note.duplicateDeck == nil || existing.isIn(deck: scope ?? nil))
        }
        if duplicate { throw AnkiError("cannot create note because it is a duplicate") }
    }

    /// A note that passed the checks, ready for the daemon: where it was in the request, and
    /// its tags and media.
    private struct ReadyNote {
        var index: Int
        var note: AnkiNote
        var tags: [String]
        var media: [Asset]

        /// The daemon's call that takes it: `AddMany`, with reverses or not and with the
        /// daemon's own duplicate check or not, or `AddClozes`.
        var call: Call {
            // The door looked in the deck asked; the daemon's own check looks in the whole box.
            note.model == .cloze ? .clozes : .cards(reverse: note.model == .reversed,
                                                     allowDuplicate: note.allowDuplicate || note.duplicateDeck != nil)
        }

        /// About how many bytes of the call's message it is: its fields and its media in base64.
        var bytes: Int { note.fields.reduce(256) { $0 + $1.markdown.utf8.count } + media.reduce(0) { $0 + $1.content.count / 3 * 4 } }
    }

    private enum Call: Equatable {
        case cards(reverse: Bool, allowDuplicate: Bool)
        case clozes
    }

    /// A call to the daemon holds at most this many notes, or this many bytes (a note larger
    /// goes alone), well inside the daemon's message limit.
    static let batchNotes = 1024
    static let batchBytes = 1 << 20

    /// `addNote` and `addNotes`: each note checked as AnkiConnect checks it, against the box
    /// (read once) and the notes before it in the request; those that pass are added by the
    /// daemon a run of notes of one kind a call (`AddMany`, `AddClozes`), each card with its
    /// media and tags in the change that adds it, to `new/`: they wait there as imported cards
    /// do, and come into the tests a few a day (R23), however many a reading session adds.
    /// - Returns: each note's number, or why it was not added.
    func add(_ jsons: [JSONValue]) -> [Result<Int64, AnkiError>] {
        var results = [Result<Int64, AnkiError>](repeating: .failure(AnkiError("addNote: the daemon did not answer for this note")),
                                                 count: jsons.count)
        // The box's notes, and then the request's notes already taken, as duplicates are looked
        // for among them too.
        var notes: [String: [AnkiBoxNote]]
        do throws(AnkiError) { notes = Dictionary(grouping: try boxNotes(), by: \.key) } catch { return jsons.map { _ in .failure(error) } }
        var ready: [ReadyNote] = []
        for (index, json) in jsons.enumerated() {
            do throws(AnkiError) {
                let note = try note(json)
                try check(note, among: notes)
                let tags = (try decks.tag(of: note.deck).map { [$0] } ?? []) + note.tags
                ready.append(ReadyNote(index: index, note: note, tags: tags, media: try mediaAssets(note.media)))
                notes[note.key, default: []].append(AnkiBoxNote(id: 0, model: note.model, boxID: "", fields: [note.key], tags: tags, cards: []))
            } catch {
                results[index] = .failure(error)
            }
        }
        var start = 0
        while start < ready.count {
            var end = start + 1, bytes = ready[start].bytes
            while end < ready.count, end - start < Self.batchNotes, ready[end].call == ready[start].call,
                  bytes + ready[end].bytes <= Self.batchBytes {
                bytes += ready[end].bytes
                end += 1
            }
            let run = Array(ready[start..<end])
            do throws(AnkiError) {
                let outcome = try daemon("addNote") { try send(run) }
                for added in outcome.added {
                    // A cloze note's cards are its id and `.cN` (`AddClozes`): the note's number is its own.
                    let number = run[0].call == .clozes
                        ? AnkiBoxNote.number("notes/" + added.id[..<(added.id.lastIndex(of: ".") ?? added.id.endIndex)])
                        : AnkiBoxNote.number(added.id)
                    results[run[added.index].index] = .success(number)
                }
                for present in outcome.present {
                    results[run[present.index].index] = .failure(AnkiError("cannot create note because it is a duplicate"))
                }
                for refused in outcome.refused {
                    results[run[refused.index].index] = .failure(Self.problem("addNote", VarlinkCallError(
                        name: refused.error.varlinkName, parameters: refused.error.varlinkParameters)))
                }
            } catch {
                for note in run { results[note.index] = .failure(error) }
            }
            start = end
        }
        return results
    }

    /// One call of the daemon adding a run of notes of one kind.
    private func send(_ run: [ReadyNote]) throws -> BatchOutcome {
        switch run[0].call {
        case .cards(let reverse, let allowDuplicate):
            let cards = run.map { ready in
                NewCard(front: Asset(name: "front.md", text: ready.note.fields[0].markdown),
                        back: Asset(name: "back.md", text: ready.note.fields[1].markdown),
                        level: Level.new.name, tags: ready.tags, media: ready.media)
            }
            return try box.addMany(cards, allowDuplicate: allowDuplicate, reverse: reverse ? true : nil).value
        case .clozes:
            // The media go into the note's directory with it (R31), whatever card shows them.
            let notes = run.map { ready in
                let extra = ready.note.fields[1].markdown
                return NewNote(text: ready.note.fields[0].markdown, level: Level.new.name, extra: extra.isEmpty ? nil : extra,
                               tags: ready.tags, media: ready.media)
            }
            return try box.addClozes(notes).value
        }
    }

    /// `updateNoteFields`: a card's sides replaced by the fields sent (the others kept).
    func updateFields(_ json: JSONValue?) throws(AnkiError) -> JSONValue {
        guard case .object(let members)? = json, let number = members["id"]?.intValue else {
            throw AnkiError("updateNoteFields needs a note with an \"id\"")
        }
        guard let existing = try boxNotes().first(where: { $0.id == number }) else { throw AnkiError("note was not found: \(number)") }
        guard existing.model != .cloze else {
            throw AnkiError("updateNoteFields: a cloze note is changed with 'leitnerctl edit \(existing.boxID)'")
        }
        guard case .object(let sent)? = members["fields"] else { throw AnkiError("the note's \"fields\" must be an object") }
        var sides: [Asset?] = [nil, nil]
        var media: [String] = []
        for (index, name) in existing.model.fields.enumerated() {
            guard let value = sent.first(where: { $0.key.lowercased() == name.lowercased() })?.value else { continue }
            guard let html = value.stringValue else { throw AnkiError("field '\(name)' is \(value.kindName), not a string") }
            let text = AnkiFieldText(html: html)
            if index == 0, Box.normalized(text.markdown).isEmpty { throw AnkiError("cannot update a note to an empty first field") }
            sides[index] = Asset(name: index == 0 ? "front.md" : "back.md", text: text.markdown)
            media += text.media.filter { !media.contains($0) }
        }
        // `Edit` replaces sides only: a side may name the media the card has, not new ones.
        if let name = media.first(where: { !existing.media.contains($0) }) {
            throw AnkiError("updateNoteFields: '\(name)' is not a medium of this card; new media cannot be added to a card through this door yet")
        }
        try daemon("updateNoteFields") {
            _ = try box.edit(id: existing.boxID, front: sides[0], back: sides[1])
        }
        return .null
    }

    // MARK: Finding

    /// Every note of the box.
    func boxNotes(tags: [String]? = nil) throws(AnkiError) -> [AnkiBoxNote] {
        var cards: [Card] = []
        try daemon("reading the box") { try box.list(withText: true, tags: tags) { cards += $0.items } }
        var notes = AnkiBoxNote.all(cards)
        // A cloze card's sides are served with its deletion hidden, and `ReadAsset` reads a card's
        // own files only: the note's text as written is read from the file its side names
        // (read only; the daemon's Unix socket is on this machine, and so is its store).
        for index in notes.indices where notes[index].model == .cloze {
            guard let path = cards.first(where: { $0.id == notes[index].boxID })?.front.path,
                  let bytes = try? FileSystem.readFile(atPath: path, limit: 64 << 10) else { continue }
            notes[index].fields[0] = String(decoding: bytes, as: UTF8.self)
        }
        return notes
    }

    /// The notes a query names. The door answers the queries a dictionary sends — a first field
    /// (`"front:食べる"`, `"text:…"`), a deck (`"deck:Japanese"`) with one, note ids (`nid:1,2`) —
    /// and refuses any other, so that no query lists the box. A field matches when its
    /// Markdown equals the value's (HTML made Markdown as a note's is), without surrounding
    /// white space; `*` and `_` are no wildcards.
    func find(_ query: String) throws(AnkiError) -> [AnkiBoxNote] {
        var deck: String??
        var ids: Set<Int64>?
        var field: (family: Int, key: String)?
        for term in Self.terms(query) {
            let parts = term.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw Self.unanswered(term) }
            let name = parts[0].lowercased(), value = String(parts[1])
            switch name {
            case "deck":
                deck = .some(try decks.tag(of: value))
            case "nid":
                let numbers = value.split(separator: ",").map { Int64($0) }
                guard !numbers.isEmpty, numbers.allSatisfy({ $0 != nil }) else { throw AnkiError("'\(term)' is not nid:ID,ID…") }
                ids = Set(numbers.compactMap { $0 })
            default:
                guard let model = AnkiModel.allCases.first(where: { $0.fields[0].lowercased() == name }) else { throw Self.unanswered(term) }
                field = (model.family, Box.normalized(AnkiFieldText(html: value).markdown))
            }
        }
        guard ids != nil || field != nil else { throw Self.unanswered(query) }
        return try boxNotes().filter { note in
            if let ids, !ids.contains(note.id) { return false }
            if let field, note.model.family != field.family || note.key != field.key { return false }
            if let deck, !note.isIn(deck: deck) { return false }
            return true
        }
    }

    static func unanswered(_ term: String) -> AnkiError {
        AnkiError("the query '\(term)' is not answered: this door finds notes by their first field (\"front:TEXT\", \"text:TEXT\"), in a deck (\"deck:NAME\"), or by id (nid:ID,…), and lists nothing else")
    }

    /// A query's terms: separated by spaces outside double quotes, the quotes taken off, `\x` is x.
    static func terms(_ query: String) -> [String] {
        var terms: [String] = []
        var term = "", quoted = false, escaped = false, started = false
        for character in query {
            if escaped { term.append(character); escaped = false; continue }
            switch character {
            case "\\": escaped = true; started = true
            case "\"": quoted.toggle(); started = true
            case " " where !quoted, "\t" where !quoted:
                if started { terms.append(term) }
                term = ""
                started = false
            default: term.append(character); started = true
            }
        }
        if started { terms.append(term) }
        return terms
    }

    /// `notesInfo`: each note asked for, its fields as the box keeps them (Markdown), or `{}`
    /// for a number that is no note, as AnkiConnect answers.
    func notesInfo(_ params: [String: JSONValue]) throws(AnkiError) -> JSONValue {
        guard let asked = params["notes"]?.arrayValue else { throw AnkiError("\"notes\" must be a list of note ids") }
        let notes = try boxNotes()
        return .array(asked.map { value in
            guard let number = value.intValue, let note = notes.first(where: { $0.id == number }) else { return .object([:]) }
            var fields: [String: JSONValue] = [:]
            for (order, name) in note.model.fields.enumerated() {
                fields[name] = .object(["value": .string(note.fields[order]), "order": .int(Int64(order))])
            }
            return .object(["noteId": .int(note.id), "modelName": .string(note.model.rawValue),
                            "tags": .array(note.tags.map(JSONValue.string)), "fields": .object(fields),
                            "cards": .array(note.cards.map(JSONValue.int))])
        })
    }

    /// `guiBrowse`: leitner-web's page of the first card the query finds (its card list when
    /// none), opened in the learner's browser. - Returns: the cards found, as AnkiConnect does.
    func browse(_ query: String) throws(AnkiError) -> JSONValue {
        let found = try find(query)
        let path = found.first.map { "/cards/" + PercentEncoding.encode($0.boxID) } ?? "/cards"
        guard opener(webAddress + path) else {
            throw AnkiError("guiBrowse: cannot open \(webAddress + path) in a browser (is xdg-open installed?)")
        }
        return .array(found.flatMap(\.cards).map(JSONValue.int))
    }

    // MARK: Media

    /// `storeMediaFile`: the file's bytes (`data`, base64) or a file of this machine (`path`)
    /// kept on the shelf for the note that names it. A `url` is refused: the door fetches
    /// nothing from the network. - Returns: the name it is kept under, which the fields must
    /// use: the name sent, its characters that no media name may hold made `_`.
    func storeMedia(_ params: [String: JSONValue]) throws(AnkiError) -> String {
        guard let sent = params["filename"]?.stringValue, !sent.isEmpty else {
            throw AnkiError("storeMediaFile needs a \"filename\"")
        }
        let name = Self.mediaName(sent)
        if let problem = MediaName.problem(name) { throw AnkiError("storeMediaFile: '\(sent)' \(problem)") }
        let bytes: [UInt8]
        if let data = params["data"]?.stringValue {
            guard let decoded = Base64.decode(data) else { throw AnkiError("storeMediaFile: \"data\" of '\(sent)' is not base64") }
            bytes = decoded
        } else if let path = params["path"]?.stringValue {
            guard path.hasPrefix("/") else { throw AnkiError("storeMediaFile: \"path\" '\(path)' is not an absolute path") }
            do throws(Errno) {
                bytes = try FileSystem.readFile(atPath: path, limit: AnkiMediaShelf.maxFileSize + 1)
            } catch {
                throw AnkiError("storeMediaFile: cannot read '\(path)': \(error)")
            }
        } else if params["url"]?.stringValue != nil {
            throw AnkiError("storeMediaFile: this door fetches nothing from the network; send the file as \"data\" (base64) or a \"path\" on this machine")
        } else {
            throw AnkiError("You must provide a \"data\", \"path\", or \"url\" field.")
        }
        guard bytes.count <= AnkiMediaShelf.maxFileSize else {
            throw AnkiError("storeMediaFile: '\(sent)' is larger than \(AnkiMediaShelf.maxFileSize >> 20) MiB")
        }
        try shelf.store(name, bytes, now: clock())
        return name
    }

    /// `name` as a media file name (R31, `MediaName`) written bare: each character no such name
    /// may hold becomes `_`, a leading dot too, and a long name keeps its end (its extension).
    static func mediaName(_ name: String) -> String {
        var made = String(String.UnicodeScalarView(name.unicodeScalars.map { scalar in
            scalar == "/" || scalar == "\\" || scalar.properties.generalCategory == .control
                || AnkiFieldText.unwritable.contains(scalar) ? "_" : scalar
        }))
        while made.hasPrefix(".") { made = "_" + made.dropFirst() }
        while made.utf8.count > MediaName.maxBytes { made.removeFirst() }
        return made
    }

    /// The files the fields name, from the shelf. A name never stored is refused: the card would
    /// show a picture or a sound that is not there.
    func mediaAssets(_ names: [String]) throws(AnkiError) -> [Asset] {
        var assets: [Asset] = []
        for name in names {
            guard let bytes = try shelf.read(name) else {
                throw AnkiError("the media file '\(name)' was not stored: send it with storeMediaFile before the note that names it")
            }
            assets.append(Asset(name: name, content: bytes))
        }
        return assets
    }

    // MARK: The daemon

    /// Runs calls to the daemon; a refusal or a failure becomes the action's error in words,
    /// a duplicate AnkiConnect's own.
    func daemon<R>(_ action: String, _ body: () throws -> R) throws(AnkiError) -> R {
        do {
            return try body()
        } catch {
            throw Self.problem(action, error)
        }
    }

    /// A refusal or a failure of the daemon's in words, a duplicate in AnkiConnect's own.
    static func problem(_ action: String, _ error: any Error) -> AnkiError {
        if let call = error as? VarlinkCallError, case .duplicateFront? = BoxError(call) {
            return AnkiError("cannot create note because it is a duplicate")
        }
        return AnkiError("\(action): \(DaemonProblem(error).message)")
    }
}
