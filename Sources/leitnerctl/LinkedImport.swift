import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// The part of an import that is not cards with sides of their own: cloze notes with their
/// cards (R30) and reverse cards (R28), as `export` writes them. The notes go in `AddClozes`
/// batches — each note with its `type-answer`, its media and every card in one change, each card
/// in the place the source names for it — and the cards are then given the ids and tags the
/// source names, where those are not what the note gave them; each reverse by `AddReverse`, with
/// its own tags and `type-answer`, once the card it names is in. A note or a reverse whose card
/// is already in the box is already present, so importing again adds nothing.
struct LinkedImport {
    var path: String
    var defaultLevel: Level?
    /// `import --type-answer`: every card added asks for typing.
    var typeAnswer: Bool
    /// `import --tag`: given to every card added, beside its own.
    var tags: [String]

    func add(_ records: [ImportRecord], context: Context, summary: inout ImportCommand.Summary) throws {
        guard !records.isEmpty else { return }
        var existing = Set<String>()
        try context.box.list { part in for card in part.items { existing.insert(card.id) } }
        var notes: [String: ImportRecord] = [:]
        var cards: [String: [ImportRecord]] = [:]
        var order: [String] = []
        var reverses: [ImportRecord] = []
        for record in records {
            switch record.kind {
            case .card: continue
            case .reverse: reverses.append(record)
            case .note:
                guard let id = record.id else { continue }
                if notes[id] == nil && cards[id] == nil { order.append(id) }
                notes[id] = record
            case .cloze(let link):
                if notes[link.note] == nil && cards[link.note] == nil { order.append(link.note) }
                cards[link.note, default: []].append(record)
            }
        }
        var batch: [PlannedNote] = []
        var bytes = 0
        for note in order {
            guard let planned = try plan(note, record: notes[note], cards: cards[note] ?? [], existing: existing, summary: &summary) else { continue }
            let size = planned.note.json.jsonText.utf8.count
            if !batch.isEmpty && (batch.count >= ImportCommand.batchCards || bytes + size > ImportCommand.batchBytes) {
                try send(batch, context: context, summary: &summary)
                batch = []
                bytes = 0
            }
            batch.append(planned)
            bytes += size
        }
        if !batch.isEmpty { try send(batch, context: context, summary: &summary) }
        for reverse in reverses {
            try addReverse(reverse, existing: existing, context: context, summary: &summary)
        }
    }

    /// A note as `AddClozes` takes it, with the rows or directories it was read from.
    private struct PlannedNote {
        var note: NewNote
        var place: String
        var cards: [ImportRecord]
    }

    /// A note and its cards: the note's text, extra, tags, `type-answer` and media from its
    /// directory, or, from a file's rows, the text and extra of its first card's row and the tags
    /// all its rows share; each card's place its row's. Nil when it is in the box already.
    private func plan(_ note: String, record: ImportRecord?, cards: [ImportRecord], existing: Set<String>,
                      summary: inout ImportCommand.Summary) throws -> PlannedNote? {
        guard let source = record ?? cards.first else { return nil }
        let place = source.location.place(in: path)
        let present = cards.isEmpty ? existing.contains { $0.hasPrefix(note + ".c") } : cards.contains { existing.contains($0.id ?? "") }
        if present {
            summary.present.append(.init(place: place, reason: "note '\(note)' is already in the box"))
            return nil
        }
        let text = try Self.text(source.front)
        let extra = try Self.text(source.back)
        let noteTags = record?.tags ?? cards.dropFirst().reduce(cards[0].tags) { shared, card in shared.filter(card.tags.contains) }
        let media = try (record?.media ?? []).map { try AssetFile.file($0, named: String($0.split(separator: "/").last ?? "")) }
        let level = try (cards.first?.level).map { try Arguments.level($0, command: "import") } ?? defaultLevel
        var cardLevels: [Int: String] = [:]
        for card in cards {
            guard case .cloze(let link) = card.kind, let name = card.level ?? defaultLevel?.name else { continue }
            let cardLevel = try Arguments.level(name, command: "import")
            if cardLevel != level { cardLevels[link.number] = cardLevel.name }
        }
        return PlannedNote(note: NewNote(text: text, id: note, level: level?.name, extra: extra.isEmpty ? nil : extra,
                                         tags: Self.joined(noteTags, tags),
                                         typeAnswer: typeAnswer || (record?.typeAnswer ?? cards.contains(where: \.typeAnswer)),
                                         media: media, cardLevels: cardLevels),
                           place: place, cards: cards)
    }

    /// Sends a batch of notes, then gives each card added the id and tags its row names when
    /// they are not its note's.
    private func send(_ batch: [PlannedNote], context: Context, summary: inout ImportCommand.Summary) throws {
        let outcome = try context.box.addClozes(batch.map(\.note)).value
        var made: [Int: [String]] = [:]
        for added in outcome.added { made[added.index, default: []].append(added.id) }
        for present in outcome.present {
            summary.present.append(.init(place: batch[present.index].place, reason: "note '\(present.id)' is already in the box"))
        }
        for refused in outcome.refused {
            ImportCommand.refuse(batch[refused.index].place, VarlinkCallError(name: refused.error.varlinkName,
                                                                              parameters: refused.error.varlinkParameters), in: &summary)
        }
        for (index, ids) in made {
            let planned = batch[index]
            summary.added += ids.count
            for card in planned.cards {
                guard case .cloze(let link) = card.kind, let id = card.id else { continue }
                let cardPlace = card.location.place(in: path)
                guard let added = ids.first(where: { $0 == "\(link.note).c\(link.number)" }) else {
                    summary.refused.append(.init(place: cardPlace, reason: "note '\(link.note)' holds no deletion \(link.number)"))
                    Console.error("\(cardPlace): note '\(link.note)' holds no deletion \(link.number)")
                    continue
                }
                do {
                    if added != id { _ = try context.box.rename(id: added, to: id) }
                    try Self.retag(id, from: planned.note.tags, to: Self.joined(card.tags, tags), context: context)
                } catch let error as VarlinkCallError {
                    ImportCommand.refuse(cardPlace, error, in: &summary)
                }
            }
        }
    }

    private func addReverse(_ record: ImportRecord, existing: Set<String>, context: Context,
                            summary: inout ImportCommand.Summary) throws {
        guard case .reverse(let original) = record.kind, let id = record.id else { return }
        let place = record.location.place(in: path)
        if existing.contains(id) {
            summary.present.append(.init(place: place, reason: "already in the box as '\(id)'"))
            return
        }
        do {
            // Without a level it goes beside its card (R28), wherever that went.
            let level = try record.level.map { try Arguments.level($0, command: "import") } ?? defaultLevel
            _ = try context.box.addReverse(of: original, reverseID: id, level: level, tags: Self.joined(record.tags, tags),
                                           typeAnswer: typeAnswer || record.typeAnswer).value
            summary.added += 1
        } catch let error as VarlinkCallError {
            ImportCommand.refuse(place, error, in: &summary)
        }
    }

    /// Gives card `id`, which has the tags `current`, exactly `tags`: the ones it has and should
    /// not are taken off, the missing put on.
    private static func retag(_ id: String, from current: [String], to tags: [String], context: Context) throws {
        let extra = current.filter { !tags.contains($0) }
        let missing = tags.filter { !current.contains($0) }
        if !extra.isEmpty { _ = try context.box.untag(id: id, tags: extra) }
        if !missing.isEmpty { _ = try context.box.tag(id: id, tags: missing) }
    }

    /// `own`, then those of `more` it lacks.
    static func joined(_ own: [String], _ more: [String]) -> [String] {
        own + more.filter { !own.contains($0) }
    }

    /// A note's text or extra as read: a row's text, or a directory's file.
    private static func text(_ side: ImportSide) throws -> String {
        switch side {
        case .text(let text, _): return text
        case .file(let path):
            let bytes: [UInt8]
            do { bytes = try FileSystem.readFile(atPath: path, limit: AssetFile.maxSize) } catch {
                throw Failure.failed("cannot read '\(path)': \(error)")
            }
            guard let text = String(validating: bytes, as: UTF8.self) else { throw ImportCommand.notUTF8(path, bytes) }
            return text
        }
    }
}
