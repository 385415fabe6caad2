import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// `import FILE.apkg|FILE.colpkg` (R34, docs/anki-import.md): the package is read and planned
/// whole first (`AnkiImportPlan`), then the cards not yet in the box go to the daemon as the
/// other importers send theirs — `AddMany` batches, each one durable change that leaves each
/// card whole or absent (R18) — and the cloze notes in `AddClozes` batches, each note with its
/// cards.
/// A card whose id (from its note's guid) is in the box is left alone, so a second import adds
/// nothing and a newer export adds only its new notes.
enum AnkiImportCommand {
    /// The most cards a batch holds: a batch is one message and one durable change. Four times
    /// the text importers' batch: each batch costs its sync, its record and its checkpoint, and a
    /// picture the deck's notes share is linked within a batch in one call where one an earlier
    /// batch wrote is read and compared first (docs/anki-import.md, "Speed"); the byte limit
    /// below still bounds a batch of sounds and pictures.
    static let batchCards = 4096
    /// And at most this many bytes of JSON, media included, well inside the daemon's default
    /// message limit (16 MiB, docs/daemon.md).
    static let batchBytes = 4 << 20

    static func isPackage(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".apkg") || lower.hasSuffix(".colpkg")
    }

    struct Summary {
        /// Cards added by kind (`basic`, `reverse`, `typed`, `cloze`).
        var kinds: [String: Int] = [:]
        var clozeNotes = 0
        var leftAlone = 0
        var media = 0
        var refused: [(place: String, reason: String)] = []
        var added: Int { kinds.values.reduce(0, +) }
    }

    static func run(_ context: Context, _ arguments: ParsedArguments, path: String) throws {
        let deck = arguments[.deck]
        let package: AnkiPackage
        let collection: AnkiCollection
        do {
            package = try AnkiPackage(path)
        } catch {
            throw Failure.failed("cannot import '\(path)': \(error)")
        }
        defer { package.close() }
        do { collection = try AnkiCollection(path: package.collectionPath) } catch {
            throw Failure.failed("cannot import '\(path)': \(error)")
        }
        if let deck, !collection.decks.values.contains(deck) {
            throw Failure.failed("cannot import '\(path)': it has no deck '\(deck)'; its decks are "
                                 + collection.decks.values.sorted().map { "'\($0)'" }.joined(separator: ", "))
        }
        let plan = AnkiImportPlan(collection, deck: deck, keepProgress: arguments.has(.keepProgress),
                                  hasMedium: package.hasMedium)
        var existing = Set<String>()
        try context.box.list { part in for card in part.items { existing.insert(card.id) } }
        var progress = ImportProgress(total: plan.cards.count + plan.clozes.count,
                                      enabled: Console.stderrTerminal.isTerminal && !arguments.has(.quiet))
        var summary = Summary()
        try addCards(plan.cards, existing: existing, package: package, context: context, progress: &progress, summary: &summary)
        try addClozes(plan.clozes, existing: existing, package: package, context: context, progress: &progress, summary: &summary)
        progress.clear()
        report(summary, plan: plan, path: path, context: context)
        if !summary.refused.isEmpty { throw Failure.quiet(ExitStatus.failure) }
    }

    /// The basic cards, in the plan's order (new cards in Anki's), in batches: a run of cards
    /// with reverses goes in batches that ask for them (`AddMany`'s `reverse` is the batch's).
    static func addCards(_ cards: [AnkiImportPlan.PlannedCard], existing: Set<String>, package: AnkiPackage,
                         context: Context, progress: inout ImportProgress, summary: inout Summary) throws {
        var done = 0
        var start = 0
        var fresh: [AnkiImportPlan.PlannedCard] = []
        for card in cards {
            if existing.contains(card.id) { summary.leftAlone += card.cardCount } else { fresh.append(card) }
        }
        while start < fresh.count {
            let reverse = fresh[start].reverseLevel != nil
            var end = start
            var batch: [NewCard] = []
            var bytes = 0
            // The batch's media by name, counted once: a picture many notes show is sent once a
            // batch (`NewCard.batchJSON`). They are read together when the batch is full.
            var sizes: [String: Int] = [:]
            while end < fresh.count && batch.count < batchCards && (fresh[end].reverseLevel != nil) == reverse {
                let card = newCard(fresh[end])
                var size = card.json.jsonText.utf8.count
                var added: [String: Int] = [:]
                for name in fresh[end].media where sizes[name] == nil && added[name] == nil {
                    let medium = try mediumSize(name, package: package)
                    added[name] = medium
                    // Its base64 `data`, its name and the object's punctuation.
                    size += (medium + 2) / 3 * 4 + name.utf8.count + 32
                }
                if !batch.isEmpty && bytes + size > batchBytes { break }
                sizes.merge(added) { first, _ in first }
                batch.append(card)
                bytes += size
                end += 1
            }
            let planned = Array(fresh[start..<end])
            let media = try read(Array(sizes.keys), package: package)
            for index in batch.indices { batch[index].media = planned[index].media.compactMap { media[$0] } }
            let outcome = try context.box.addMany(batch, allowDuplicate: true, reverse: reverse ? true : nil).value
            for added in outcome.added {
                let card = planned[added.index]
                summary.kinds[card.kind, default: 0] += 1
                summary.media += card.media.count
                if added.reverse != nil { summary.kinds["reverse", default: 0] += 1 }
            }
            report(outcome, ids: planned.map(\.id), cards: planned.map(\.cardCount), progress: &progress, summary: &summary)
            done += batch.count
            progress.update(done: done)
            start = end
        }
    }

    /// Counts the cards of what a batch found in the box already (`cards`, by the batch's
    /// indexes: a card and its reverse, a note's cards), and reports each card or note it
    /// refused by its id in the package (`ids`).
    static func report(_ outcome: BatchOutcome, ids: [String], cards: [Int], progress: inout ImportProgress, summary: inout Summary) {
        summary.leftAlone += outcome.present.reduce(0) { $0 + cards[$1.index] }
        for refused in outcome.refused {
            progress.clear()
            let reason = DaemonErrors.message(VarlinkCallError(name: refused.error.varlinkName, parameters: refused.error.varlinkParameters))
            Console.error("\(ids[refused.index]): \(reason)")
            summary.refused.append((ids[refused.index], reason))
        }
    }

    /// A planned card as `AddMany` takes it, its media still to be added: Markdown sides, its
    /// tags and its reverse's level when that is not its own (`--keep-progress`), all written in
    /// the one change that adds it.
    static func newCard(_ card: AnkiImportPlan.PlannedCard) -> NewCard {
        NewCard(front: AssetFile.text(card.front, side: .front, extension: "md"),
                back: AssetFile.text(card.back, side: .back, extension: "md"), id: card.id, level: card.level,
                typeAnswer: card.typeAnswer, tags: card.tags,
                reverseLevel: card.reverseLevel.flatMap { $0 == card.level ? nil : $0 })
    }

    /// A medium's size, refused when no card could take it.
    static func mediumSize(_ name: String, package: AnkiPackage) throws -> Int {
        guard let size = package.mediumSize(name) else { throw Failure.failed("the package lost '\(name)'") }
        guard size <= AssetFile.maxSize else { throw Failure.failed("'\(name)' is larger than \(AssetFile.maxSize >> 20) MiB") }
        return size
    }

    /// The media `names` with their bytes from the package, read together, each one `Asset`
    /// however many cards show it.
    static func read(_ names: [String], package: AnkiPackage) throws -> [String: Asset] {
        let read: [String: [UInt8]]
        do { read = try package.media(names) } catch { throw Failure.failed("cannot read the package's media: \(error)") }
        return Dictionary(uniqueKeysWithValues: read.map { ($0.key, Asset(name: $0.key, content: $0.value)) })
    }

    /// The cloze notes in `AddClozes` batches, as the cards go: each note with all its cards in
    /// one change, every card in the place of its Anki card (`cardLevels`), none moved after.
    static func addClozes(_ clozes: [AnkiImportPlan.PlannedCloze], existing: Set<String>, package: AnkiPackage,
                          context: Context, progress: inout ImportProgress, summary: inout Summary) throws {
        var done = progress.total - clozes.count
        let present = noteIDs(of: existing)
        var batch: [NewNote] = []
        var planned: [AnkiImportPlan.PlannedCloze] = []
        var bytes = 0
        func send() throws {
            guard !batch.isEmpty else { return }
            // The batch's media read together, as the cards' are.
            let media = try read(planned.flatMap(\.media), package: package)
            for index in batch.indices { batch[index].media = planned[index].media.compactMap { media[$0] } }
            let outcome = try context.box.addClozes(batch).value
            var cards: [Int: Int] = [:]
            for added in outcome.added { cards[added.index, default: 0] += 1 }
            for (index, count) in cards {
                summary.clozeNotes += 1
                summary.kinds["cloze", default: 0] += count
                summary.media += planned[index].media.count
            }
            report(outcome, ids: planned.map(\.id), cards: planned.map(\.levels.count), progress: &progress, summary: &summary)
            done += batch.count
            progress.update(done: done)
            batch = []
            planned = []
            bytes = 0
        }
        for cloze in clozes {
            if present.contains(cloze.id) {
                summary.leftAlone += cloze.levels.count
                done += 1
                continue
            }
            let level = cloze.levels[cloze.levels.keys.min() ?? 1] ?? "new"
            let note = NewNote(text: cloze.text, id: cloze.id, level: level, extra: cloze.extra.isEmpty ? nil : cloze.extra,
                               tags: cloze.tags, typeAnswer: cloze.typeAnswer,
                               cardLevels: cloze.levels.filter { $0.value != level })
            // Its text and the base64 of its media, which are read when the batch is sent.
            var size = note.json.jsonText.utf8.count
            for name in cloze.media { size += (try mediumSize(name, package: package) + 2) / 3 * 4 + name.utf8.count + 32 }
            if !batch.isEmpty && (batch.count >= batchCards || bytes + size > batchBytes) { try send() }
            batch.append(note)
            planned.append(cloze)
            bytes += size
        }
        try send()
    }

    /// The notes whose cloze cards are among `ids`, by the cards' ids (`NOTE.cN`): a note of
    /// the package whose cards are in the box is left alone.
    static func noteIDs(of ids: Set<String>) -> Set<String> {
        var notes = Set<String>()
        for id in ids {
            guard let dot = id.lastIndex(of: ".") else { continue }
            let number = id[id.index(after: dot)...].dropFirst()
            guard id[id.index(after: dot)...].first == "c", !number.isEmpty, number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber) else { continue }
            notes.insert(String(id[..<dot]))
        }
        return notes
    }

    static func report(_ summary: Summary, plan: AnkiImportPlan, path: String, context: Context) {
        if context.json {
            context.printJSON([
                "added": .int(Int64(summary.added)),
                "kinds": .object(summary.kinds.mapValues { .int(Int64($0)) }),
                "clozeNotes": .int(Int64(summary.clozeNotes)),
                "leftAlone": .int(Int64(summary.leftAlone)),
                "media": .int(Int64(summary.media)),
                "notCarried": .array(plan.notCarried.map { ["what": .string($0.what), "reason": .string($0.reason)] }),
                "refused": .array(summary.refused.map { ["id": .string($0.place), "reason": .string($0.reason)] }),
            ])
            return
        }
        let kinds = ["basic", "reverse", "typed", "cloze"].compactMap { kind in
            summary.kinds[kind].map { "\($0) \(kind)" }
        }
        var line = "Imported '\(path)': \(summary.added) card\(summary.added == 1 ? "" : "s") added"
        if !kinds.isEmpty { line += " (\(kinds.joined(separator: ", "))\(summary.clozeNotes > 0 ? " in \(summary.clozeNotes) cloze note\(summary.clozeNotes == 1 ? "" : "s")" : ""))" }
        line += ", \(summary.media) media carried, \(summary.leftAlone) already in the box left alone"
        if !summary.refused.isEmpty { line += ", " + context.style.apply(context.style.red, "\(summary.refused.count) refused") }
        Console.out(line + ".")
        if !plan.notCarried.isEmpty {
            Console.out("Not carried:")
            for item in plan.notCarried { Console.out("  \(item.what): \(item.reason)") }
        }
    }
}

extension AnkiImportPlan.PlannedCard {
    /// The cards it makes: itself, and its reverse when it has one (R28). The report counts
    /// cards, left alone as added.
    var cardCount: Int { reverseLevel == nil ? 1 : 2 }
}
