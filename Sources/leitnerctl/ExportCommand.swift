import Glibc
import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// `export [LEVEL] [--with-levels]`: the text cards as TSV on standard output, with a header line
/// `id front back frontext backext` (and `level` with `--with-levels`; `tags`, `type-answer`,
/// `reverse-of`, `cloze-of` and `cloze` when a card has them) that `import` reads back: ids,
/// both sides byte for byte, Markdown as Markdown, a reverse card as a reverse (R28), a cloze
/// card with its note's text and extra (R30). `--dir DIR` copies every card, its media
/// included, into a store's layout (`DIR/ID/…`, `DIR/LEVEL/ID/…` with `--with-levels`, the notes
/// in `DIR/notes/`), which `import DIR` reads back.
enum ExportCommand {
    static func run(_ context: Context, _ arguments: ParsedArguments) throws {
        let level = try arguments.positionals.first.map { try Arguments.level($0, command: "export") }
        let withLevels = arguments.has(.withLevels)
        let filter = try TagOptions.given(arguments, command: "export")
        if let directory = arguments[.dir] {
            try prepare(directory, force: arguments.has(.force))
            // The cards first (with their text, which names their media), then the files on the
            // same connection: a part of a listing must be taken within the daemon's
            // IdleTimeout=, and copying large media may take longer.
            var cards: [Card] = []
            try context.box.list(level: level, withText: true, tags: filter?.tags, notTags: filter?.notTags) { part in
                cards += part.items
            }
            return try copy(cards, to: directory, withLevels: withLevels, context: context)
        }
        // The columns a round trip needs, chosen from a listing without text: tags (R25), typed
        // answers (R32), reverse and cloze cards (R28, R30); a box without them exports as it
        // always did.
        var anyTag = false, anyReverse = false, anyCloze = false
        var typed = Set<String>()
        try context.box.list(level: level, tags: filter?.tags, notTags: filter?.notTags) { part in
            for card in part.items {
                anyTag = anyTag || !card.tags.isEmpty
                anyReverse = anyReverse || card.reverseOf != nil
                anyCloze = anyCloze || card.clozeOf != nil
                if asksForTyping(card) { typed.insert(card.id) }
            }
        }
        Console.out(((withLevels ? ["id", "level", "front", "back", "frontext", "backext"]
                                 : ["id", "front", "back", "frontext", "backext"]) + (anyTag ? ["tags"] : [])
                     + (typed.isEmpty ? [] : ["type-answer"]) + (anyReverse ? ["reverse-of"] : [])
                     + (anyCloze ? ["cloze-of", "cloze"] : [])).joined(separator: "\t"))
        var skipped = 0
        var withMedia = 0
        func printLine(_ card: Card) throws {
            guard let front = try text(of: card, .front, context: context), let back = try text(of: card, .back, context: context) else {
                skipped += 1
                return
            }
            if !card.front.media.isEmpty || !card.back.media.isEmpty { withMedia += 1 }
            var fields = [card.id]
            if withLevels { fields.append(card.level.name) }
            fields += [escape(front.text), escape(back.text), front.ext, back.ext]
            if anyTag { fields.append(card.tags.joined(separator: " ")) }
            if !typed.isEmpty { fields.append(typed.contains(card.id) ? "yes" : "") }
            if anyReverse { fields.append(card.reverseOf ?? "") }
            if anyCloze { fields += [card.clozeOf?.note ?? "", card.clozeOf.map { "\($0.number)" } ?? ""] }
            Console.out(fields.joined(separator: "\t"))
        }
        // Printed as the daemon's replies arrive (docs/protocol.md, "Streamed replies"). A side
        // longer than `List` carries, and a cloze card's note (listed as the card is asked, its
        // deletion hidden), is read whole with `ReadAsset` once the listing is over: the
        // connection carries no other call while the listing's parts are coming.
        var later: [Card] = []
        try context.box.list(level: level, withText: true, tags: filter?.tags, notTags: filter?.notTags) { part in
            for card in part.items {
                if mayBeCut(card.front) || mayBeCut(card.back) || card.clozeOf != nil {
                    later.append(card)
                } else {
                    try printLine(card)
                }
            }
            Console.flush()
        }
        for card in later { try printLine(card) }
        if skipped > 0 {
            Console.error("\(skipped) card\(skipped == 1 ? "" : "s") with a side that is not text or Markdown left out (export --dir DIR copies them)")
        }
        if withMedia > 0 {
            Console.error("\(withMedia) card\(withMedia == 1 ? "" : "s") show\(withMedia == 1 ? "s" : "") pictures or sounds, which TSV does not carry (export --dir DIR copies them)")
        }
    }

    /// Whether the card's own directory, or its note's, holds `type-answer` (R32). The export
    /// runs beside the store, as the review does, and looks for the file by the sides' paths.
    static func asksForTyping(_ card: Card) -> Bool {
        guard let files = TypedAnswer.files(of: card) else { return false }
        return FileSystem.exists(files.own, in: nil) || files.note.map { FileSystem.exists($0, in: nil) } == true
    }

    /// A side's whole text and extension, nil when it is not plain text or Markdown. `List`
    /// carries at most 64 KiB of a side's text: a side that may have been cut is read whole.
    static func text(of card: Card, _ side: SideName, context: Context) throws -> (text: String, ext: String)? {
        let value = card.side(side)
        let ext: String
        switch value.mediaType {
        case "text/plain": ext = "txt"
        case "text/markdown": ext = "md"
        default: return nil
        }
        guard let text = value.text else { return nil }
        if !mayBeCut(value) && card.clozeOf == nil { return (text, ext) }
        // A cloze card's sides, read so, are its note's text and extra, as written.
        let asset = try context.box.readAsset(id: card.id, side: side).value
        guard let whole = String(validating: asset.content, as: UTF8.self) else {
            throw Failure.failed("the daemon sent an unreadable \(side) for '\(card.id)'")
        }
        return (whole, MediaType.fileExtension(asset.name) ?? ext)
    }

    /// Whether a listed side's text may have been cut: `List` carries at most 64 KiB of it.
    static func mayBeCut(_ side: Side) -> Bool {
        (side.text?.utf8.count ?? 0) >= 64 * 1024 - 4
    }

    /// TSV escapes, as `DelimitedReader` reads them back.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\r\n": out += "\\r\\n"
            default: out.append(c)
            }
        }
        return out
    }

    /// Makes `directory`, or checks that it is empty: an export never mixes with what is there,
    /// unless `--force` (then its files are replaced, and other files left as they are).
    static func prepare(_ directory: String, force: Bool) throws {
        do { try FileSystem.makeDirectory(directory, in: nil, existingOK: true) } catch {
            throw Failure.failed("cannot export to '\(directory)': \(error)")
        }
        guard !force else { return }
        let entries: [DirectoryEntry]
        do {
            let handle = try FileDescriptor.openDirectory(directory)
            defer { handle.close() }
            entries = try FileSystem.list(handle)
        } catch {
            throw Failure.failed("cannot export to '\(directory)': \(error)")
        }
        if !entries.isEmpty {
            throw Failure.failed("cannot export to '\(directory)': it is not empty (\(entries.count) entr\(entries.count == 1 ? "y" : "ies")); "
                                 + "choose an empty or new directory, or add --force to write over its cards")
        }
    }

    /// Writes each card into `DIR/ID/` (`DIR/LEVEL/ID/`) as a store holds it: its sides and
    /// media, or the `reverse-of` or `cloze-of` that makes it show another's (R28, R30); its
    /// `tags` and `type-answer`. A cloze card's note goes once into `DIR/notes/NOTE/`: its text,
    /// extra, tags, `type-answer` and media.
    static func copy(_ cards: [Card], to directory: String, withLevels: Bool, context: Context) throws {
        var notes = Set<String>()
        for card in cards {
            let parent = withLevels ? "\(directory)/\(card.level.name)" : directory
            var files: [(name: String, bytes: [UInt8])] = []
            if let original = card.reverseOf {
                files.append((CardLayout.reverseFile, Array(CardLayout.reverseFileText(original).utf8)))
            } else if let link = card.clozeOf {
                files.append((CardLayout.clozeFile, Array(CardLayout.clozeFileText(link).utf8)))
                if notes.insert(link.note).inserted { try copyNote(of: card, to: directory + "/" + CardLayout.notesDirectory, context: context) }
            } else {
                for side in SideName.allCases {
                    let asset = try context.box.readAsset(id: card.id, side: side).value
                    files.append((asset.name.split(separator: "/").last.map(String.init) ?? side.rawValue, asset.content))
                }
                files += try media(of: card, context: context)
            }
            if !card.tags.isEmpty { files.append((CardTag.fileName, Array(CardTag.fileText(card.tags).utf8))) }
            if let own = TypedAnswer.files(of: card)?.own, FileSystem.exists(own, in: nil) { files.append((TypedAnswer.fileName, [])) }
            try write(files, into: "\(parent)/\(card.id)", in: parent)
        }
        if context.json {
            context.printJSON(["copied": .int(Int64(cards.count)), "notes": .int(Int64(notes.count)), "directory": .string(directory)])
        } else {
            let noted = notes.isEmpty ? "" : " and \(notes.count) note\(notes.count == 1 ? "" : "s")"
            Console.out("Copied \(cards.count) card\(cards.count == 1 ? "" : "s")\(noted) to '\(directory)'.")
        }
    }

    /// The note of the cloze card `card` into `notesPath/NOTE/`: its text and extra as `ReadAsset`
    /// gives them, its media as `ReadMedium` does, and its `tags` and `type-answer` read beside
    /// its text, whose path the card's sides give.
    static func copyNote(of card: Card, to notesPath: String, context: Context) throws {
        guard let link = card.clozeOf else { return }
        let text = try context.box.readAsset(id: card.id, side: .front).value
        let extra = try context.box.readAsset(id: card.id, side: .back).value
        let ext = MediaType.fileExtension(text.name) ?? "md"
        var files: [(name: String, bytes: [UInt8])] = [("text." + ext, text.content)]
        if !extra.content.isEmpty { files.append((CardLayout.noteExtra, extra.content)) }
        files += try media(of: card, context: context)
        let noteDirectory = String(card.front.path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/"))
        if let tags = try? FileSystem.readFile(atPath: noteDirectory + "/" + CardTag.fileName, limit: CardTag.maxFileSize) {
            files.append((CardTag.fileName, tags))
        }
        if let note = TypedAnswer.files(of: card)?.note, FileSystem.exists(note, in: nil) { files.append((TypedAnswer.fileName, [])) }
        try write(files, into: notesPath + "/" + link.note, in: notesPath)
    }

    /// The pictures and sounds the card's sides show (R31), each once.
    static func media(of card: Card, context: Context) throws -> [(name: String, bytes: [UInt8])] {
        var names: [String] = []
        for medium in card.front.media + card.back.media where !names.contains(medium.name) { names.append(medium.name) }
        return try names.map { name in (name, try context.box.readMedium(id: card.id, name: name).value.content) }
    }

    /// Writes `files` into the directory `path` (made, with `parent`, when missing), each
    /// atomically. With `--force` over an earlier export, a side or link file that is not
    /// written again goes, so the directory is one card.
    static func write(_ files: [(name: String, bytes: [UInt8])], into path: String, in parent: String) throws {
        func fail(_ path: String, _ error: Errno) -> Failure { .failed("cannot write '\(path)': \(error)") }
        do {
            try FileSystem.makeDirectory(parent, in: nil, existingOK: true)
            try FileSystem.makeDirectory(path, in: nil, existingOK: true)
        } catch { throw fail(path, error) }
        let directory: FileDescriptor
        do { directory = try FileDescriptor.openDirectory(path) } catch { throw fail(path, error) }
        defer { directory.close() }
        let written = Set(files.map(\.name))
        do {
            for old in try FileSystem.list(directory) where !written.contains(old.name) {
                let replaced = old.name == CardLayout.reverseFile || old.name == CardLayout.clozeFile
                    || SideName.allCases.contains { CardDirectories.isSide(old.name, $0.rawValue) }
                if replaced { try FileSystem.removeFile(old.name, in: directory) }
            }
        } catch { throw fail(path, error) }
        for file in files {
            do { try FileSystem.writeAtomically(file.bytes, to: file.name, in: directory) } catch { throw fail("\(path)/\(file.name)", error) }
        }
    }
}
