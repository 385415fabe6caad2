import LeitnerCore

/// What an Anki collection becomes in the box (R34, docs/anki-import.md): each Anki card one
/// card, a reverse template a reverse card (R28), a cloze note a cloze note and its cards
/// (R30), with the places and, when asked, the levels of their progress; and everything that
/// cannot be carried, each with its reason. Made from the collection alone, before anything is
/// sent, so that the import reports what it will do whatever the daemon answers.
public struct AnkiImportPlan: Sendable {
    /// A card of a basic note type, and its reverse when its note type has a reverse template.
    public struct PlannedCard: Sendable {
        public var id: String
        public var front: String
        public var back: String
        public var tags: [String]
        /// `new`, `suspended`, `1` … `7` or `finished`.
        public var level: String
        /// The media its sides name, by name (R31), each in the package.
        public var media: [String]
        public var typeAnswer: Bool
        /// The level of its reverse card (`ID.rev`, R28), nil when it has none.
        public var reverseLevel: String?
        /// The template it was rendered from, for the report.
        public var kind: String
    }

    /// A cloze note (R30): its text with Anki's deletions, its extra, and the place of each
    /// deletion's card (`ID.cN`).
    public struct PlannedCloze: Sendable {
        public var id: String
        public var text: String
        public var extra: String
        public var tags: [String]
        public var media: [String]
        public var typeAnswer: Bool
        public var levels: [Int: String]
    }

    /// Something of the collection not carried, and why.
    public struct NotCarried: Sendable, Equatable {
        public var what: String
        public var reason: String

        public init(what: String, reason: String) {
            self.what = what
            self.reason = reason
        }
    }

    public var cards: [PlannedCard] = []
    public var clozes: [PlannedCloze] = []
    public var notCarried: [NotCarried] = []

    /// - Parameters:
    ///   - deck: only the cards of this deck and the decks below it; nil for all, each tagged
    ///     `deck:NAME`.
    ///   - keepProgress: a reviewed card's level from its interval (`level(interval:)`), a
    ///     learning card in 1; otherwise every card not suspended waits in `new`.
    ///   - hasMedium: whether the package holds a medium of that name.
    public init(_ collection: AnkiCollection, deck: String?, keepProgress: Bool, hasMedium: (String) -> Bool) {
        let order = collection.cards.sorted { a, b in
            // New cards in Anki's new order (their position, then the template); the others by id.
            let aNew = a.type == 0, bNew = b.type == 0
            if aNew != bNew { return !aNew }
            return aNew ? (a.due, a.ord, a.id) < (b.due, b.ord, b.id) : a.id < b.id
        }
        var reported = Set<String>()
        func report(_ what: String, _ reason: String) {
            if reported.insert(what + "\u{0}" + reason).inserted { notCarried.append(NotCarried(what: what, reason: reason)) }
        }
        var cardIndex: [String: Int] = [:]
        var clozeIndex: [Int64: Int] = [:]
        // Each note type's templates parsed once, not once a card: a deck of 10,000 notes has
        // one or two note types (docs/anki-import.md, "Speed").
        var prepared: [Int64: PreparedNotetype] = [:]
        for card in order {
            guard let note = collection.notes[card.note], let notetype = collection.notetypes[note.notetype] else {
                report("card \(card.id)", "its note or note type is missing from the collection")
                continue
            }
            let deckName = collection.decks[card.deck] ?? ""
            if let deck, deckName != deck && !deckName.hasPrefix(deck + "::") { continue }
            let noteID = AnkiImportPlan.id(guid: note.guid)
            var tags = note.tags.compactMap { tag -> String? in
                if let converted = AnkiImportPlan.tag(tag) { return converted }
                report("tag '\(tag)'", "it is no tag of the box's, even written with ':' and '-'")
                return nil
            }
            if deck == nil, let tag = AnkiImportPlan.tag("deck::" + deckName) { tags.append(tag) }
            let place = AnkiImportPlan.place(of: card, keepProgress: keepProgress)
            if notetype.isImageOcclusion {
                report("note type '\(notetype.name)'", "image occlusion draws its masks with a script on a picture, which a side cannot")
                continue
            }
            var fields: [String: String] = [:]
            for (index, name) in notetype.fields.enumerated() { fields[name] = index < note.fields.count ? note.fields[index] : "" }
            guard card.ord < notetype.templates.count || notetype.isCloze, let first = notetype.templates.first else {
                report("card \(card.id)", "its template \(card.ord + 1) is missing from note type '\(notetype.name)'")
                continue
            }
            let parsed = prepared[notetype.id] ?? PreparedNotetype(notetype)
            prepared[notetype.id] = parsed
            if parsed.runsScript {
                report("note type '\(notetype.name)'", "its template runs JavaScript, which is dropped; the rest of each side is carried")
            }
            var context = AnkiTemplate.Context(fields: fields, frontSide: nil, tags: note.tags, notetype: notetype.name, deck: deckName)
            if notetype.isCloze {
                if let index = clozeIndex[note.id] {
                    clozes[index].levels[card.ord + 1] = place
                    continue
                }
                let textField = AnkiImportPlan.clozeField(first.question) ?? notetype.fields.first ?? ""
                let text = AnkiMarkdown(html: fields[textField] ?? "")
                context.card = first.name
                context.fields[textField] = ""
                let question = parsed.questions[0].render(context)
                context.frontSide = ""
                let answer = parsed.answers[0].render(context)
                let extra = AnkiMarkdown(html: answer.html)
                for filter in question.unknownFilters + answer.unknownFilters {
                    report("note type '\(notetype.name)'", "its filter '\(filter):' is not rendered; the field is carried as it is")
                }
                clozeIndex[note.id] = clozes.count
                clozes.append(PlannedCloze(id: noteID, text: text.markdown, extra: extra.markdown, tags: tags,
                                           media: AnkiImportPlan.media(text.markdown + "\n" + extra.markdown, hasMedium, report),
                                           typeAnswer: question.typeAnswer, levels: [card.ord + 1: place]))
                continue
            }
            let template = notetype.templates[card.ord]
            context.card = template.name
            let question = parsed.questions[card.ord].render(context)
            context.frontSide = question.html
            var answerContext = context
            // The back is what the answer adds to the front: the front's own field is not repeated.
            answerContext.frontSide = ""
            let answer = parsed.answers[card.ord].render(answerContext)
            for filter in question.unknownFilters + answer.unknownFilters {
                report("note type '\(notetype.name)'", "its filter '\(filter):' is not rendered; the field is carried as it is")
            }
            let front = AnkiMarkdown(html: question.html)
            let back = AnkiMarkdown(html: AnkiImportPlan.afterAnswerRule(answer.html))
            let reverses = parsed.reverses
            if card.ord == 1 && reverses, let forward = cardIndex[noteID] {
                cards[forward].reverseLevel = place
                continue
            }
            if card.ord > 0 && !reverses {
                report("note type '\(notetype.name)'", "its template '\(template.name)' makes cards of their own, not linked to the first one's (only a reverse card is linked)")
            }
            let id = card.ord == 0 ? noteID : card.ord == 1 && reverses ? noteID + ".rev" : noteID + ".t\(card.ord + 1)"
            cardIndex[id] = cards.count
            cards.append(PlannedCard(id: id, front: front.markdown, back: back.markdown, tags: tags, level: place,
                                     media: AnkiImportPlan.media(front.markdown + "\n" + back.markdown, hasMedium, report),
                                     typeAnswer: question.typeAnswer, reverseLevel: nil,
                                     kind: card.ord == 1 && reverses ? "reverse" : question.typeAnswer ? "typed" : "basic"))
        }
    }

    /// A note type's templates parsed, and what the plan asks of them for every card.
    private struct PreparedNotetype {
        var questions: [AnkiTemplate]
        var answers: [AnkiTemplate]
        /// Its second template is its first one's reverse (`isReverse`).
        var reverses: Bool
        /// A template holds a `<script>`, which is dropped.
        var runsScript: Bool

        init(_ notetype: AnkiCollection.Notetype) {
            questions = notetype.templates.map { AnkiTemplate($0.question) }
            answers = notetype.templates.map { AnkiTemplate($0.answer) }
            reverses = AnkiImportPlan.isReverse(notetype)
            runsScript = notetype.templates.contains { $0.question.contains("<script") || $0.answer.contains("<script") }
        }
    }

    /// The level a reviewed card's interval in days gives (docs/anki-import.md, "Progress"):
    /// level k is seen every 2^(k-1) days, the nearest on a doubling scale (the boundary between
    /// k and k+1 is 2^(k-1)·√2 days); beyond level 7's 64 days, past 90, `finished`.
    public static func level(interval: Int) -> String {
        guard interval > 1 else { return "1" }
        var level = 1
        // 2^(k-1)·√2 squared is 2^(2k-1): compare squares, in integers.
        while level < 8 && interval * interval > 1 << (2 * level - 1) { level += 1 }
        return level == 8 ? "finished" : String(level)
    }

    /// Where a card goes: suspended ones to `suspended`; with `keepProgress` a reviewed card to
    /// its interval's level and a learning one to 1; every other to `new`.
    static func place(of card: AnkiCollection.Card, keepProgress: Bool) -> String {
        if card.queue == -1 { return "suspended" }
        guard keepProgress else { return "new" }
        switch card.type {
        case 2: return level(interval: card.interval)
        case 1, 3: return "1"
        default: return "new"
        }
    }

    /// A card id from a note's guid (R20): `anki-` and the guid, each character that no id may
    /// hold written `_XX` (its hex code, `_` itself too), so that two guids never give one id.
    public static func id(guid: String) -> String {
        var id = "anki-"
        for byte in guid.utf8 {
            let c = Unicode.Scalar(byte)
            if byte < 0x80 && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == ".") {
                id.unicodeScalars.append(c)
            } else {
                id += "_" + String(byte, radix: 16, uppercase: true)
            }
        }
        return id
    }

    /// An Anki tag as a tag of the box (R25): `::` as `:`, spaces as `-`; nil when still none.
    static func tag(_ anki: String) -> String? {
        let parts = anki.split(separator: "::", omittingEmptySubsequences: true)
            .map { String($0).split(separator: " ").joined(separator: "-") }
        let tag = parts.joined(separator: ":")
        return CardTag.problem(tag) == nil ? tag : nil
    }

    /// The field a cloze template deletes from (`{{cloze:Text}}`).
    static func clozeField(_ template: String) -> String? {
        guard let start = template.firstRange(of: "{{cloze:") else { return nil }
        return template[start.upperBound...].firstRange(of: "}}").map { String(template[start.upperBound..<$0.lowerBound]) }
    }

    /// What the answer adds to the question: what follows Anki's `<hr id=answer>`, the rule its
    /// templates put between the two (`{{FrontSide}}` or the question's fields again before it).
    static func afterAnswerRule(_ html: String) -> String {
        for rule in ["<hr id=answer>", "<hr id=\"answer\">", "<hr id='answer'>"] {
            if let found = html.firstRange(of: rule) { return String(html[found.upperBound...]) }
        }
        return html
    }

    /// A note type whose second template asks the first one's way back (Anki's "Basic (and
    /// reversed card)" and "optional reversed card", or one a user made so): two templates, the
    /// second's question showing what the first's answer adds.
    static func isReverse(_ notetype: AnkiCollection.Notetype) -> Bool {
        if notetype.stockKind == 2 || notetype.stockKind == 3 { return true }
        guard notetype.templates.count == 2 else { return false }
        let fields = { (text: String) in Set(AnkiTemplate(text).fieldNames) }
        let (first, second) = (notetype.templates[0], notetype.templates[1])
        let added = fields(first.answer).subtracting(fields(first.question)).subtracting(["FrontSide"])
        return !added.isEmpty && fields(second.question) == added && fields(first.question).isSubset(of: fields(second.answer))
    }

    /// The media a side's Markdown names (R31) that the package holds; each one it lacks reported.
    static func media(_ markdown: String, _ hasMedium: (String) -> Bool, _ report: (String, String) -> Void) -> [String] {
        var names: [String] = []
        for reference in SideMedia(parsing: markdown).references where !names.contains(reference.name) {
            if hasMedium(reference.name) {
                names.append(reference.name)
            } else {
                report("'\(reference.name)'", "the package does not hold it; the side shows its name")
            }
        }
        return names
    }
}
