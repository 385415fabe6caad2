import LeitnerSystem

/// Which cards ask for their answer to be typed, and what they expect (docs/rules.md R32): the
/// one reading of it for the terminal's review and the web's.
public enum TypedAnswer {
    /// The file that makes a card (or a cloze note, for all its cards) ask for a typed answer.
    public static let fileName = "type-answer"

    /// The answer `card` expects typed when it asks for one (or `everyCard`) and its answer is
    /// text; nil: the card is reviewed as usual. `exists` tells whether a path exists (the
    /// file system's, but for tests).
    public static func expected(_ card: Card, everyCard: Bool,
                                exists: (String) -> Bool = { FileSystem.exists($0, in: nil) }) -> String? {
        guard MediaType.isText(card.back.mediaType) else { return nil }
        guard everyCard || asksForTyping(card, exists: exists) else { return nil }
        if let cloze = card.clozeOf {
            // A cloze card's answer is its deletion, not the whole revealed sentence: read from
            // the note's text, which both sides are made of.
            guard let bytes = try? FileSystem.readFile(atPath: card.front.path, limit: 1 << 20) else { return nil }
            return clozeAnswer(ClozeText(parsing: String(decoding: bytes, as: UTF8.self)), number: cloze.number,
                               mediaType: card.front.mediaType)
        }
        guard let text = card.back.text else { return nil }
        return AnswerText.plain(text, mediaType: card.back.mediaType)
    }

    /// The expected answer of deletion `number`: its answer, or, when the number occurs more than
    /// once with different answers, each once in the order they occur, joined by ", " (as Anki
    /// types them); nil when the note holds no such deletion.
    public static func clozeAnswer(_ text: ClozeText, number: Int, mediaType: String) -> String? {
        var answers: [String] = []
        for case .deletion(let n, let answer, _) in text.pieces where n == number {
            let plain = AnswerText.plain(answer, mediaType: mediaType)
            if !answers.contains(plain) { answers.append(plain) }
        }
        return answers.isEmpty ? nil : answers.joined(separator: ", ")
    }

    /// Whether the card's own directory holds `type-answer`, or, for a cloze card, its note's.
    /// Sides are served with their files' paths; a reverse or cloze card's are another
    /// directory's (the original's, the note's), so the card's own directory is found from the
    /// store's root, three steps above any side (`ROOT/LEVEL/ID/front.md`, `ROOT/notes/NOTE/text.md`).
    static func asksForTyping(_ card: Card, exists: (String) -> Bool) -> Bool {
        guard let files = files(of: card) else { return false }
        return exists(files.own) || files.note.map(exists) == true
    }

    /// The paths of the `type-answer` files that make `card` ask: its own directory's, and for a
    /// cloze card its note's (nil for any other card); nil when the sides' paths say no store.
    public static func files(of card: Card) -> (own: String, note: String?)? {
        let parts = card.front.path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count > 3 else { return nil }
        let root = parts.dropLast(3).joined(separator: "/")
        return (root + "/" + card.level.name + "/" + card.id + "/" + fileName,
                card.clozeOf == nil ? nil : parts.dropLast().joined(separator: "/") + "/" + fileName)
    }
}
