import Glibc
import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// `export [LEVEL] [--with-levels]`: the text cards as TSV on standard output, with a header line
/// `id front back frontext backext` (and `level` with `--with-levels`) that `import` reads back:
/// ids, both sides byte for byte, Markdown as Markdown. `--dir DIR` copies every card, any
/// media, into `DIR/ID/front.EXT` and `back.EXT` (`DIR/LEVEL/ID/…` with `--with-levels`, a
/// store's layout), which `import DIR` reads back.
enum ExportCommand {
    static func run(_ context: Context, _ arguments: ParsedArguments) throws {
        let level = try arguments.positionals.first.map { try Arguments.level($0, command: "export") }
        let withLevels = arguments.has(.withLevels)
        let filter = try TagOptions.given(arguments, command: "export")
        if let directory = arguments[.dir] {
            try prepare(directory, force: arguments.has(.force))
            // The ids first, then the assets on the same connection: a part of a listing must be
            // taken within the daemon's IdleTimeout=, and copying large media may take longer.
            var cards: [(id: String, level: String)] = []
            try context.box.list(level: level, tags: filter?.tags, notTags: filter?.notTags) { part in
                cards += part.items.map { ($0.id, $0.level.name) }
            }
            return try copy(cards, to: directory, withLevels: withLevels, context: context)
        }
        // A tags column when the cards have tags, so that a round trip keeps them (R25); a box
        // without tags exports as it always did.
        var anyTag = false
        try context.box.tags(tags: filter?.tags, notTags: filter?.notTags) { part in anyTag = anyTag || !part.items.isEmpty }
        Console.out(((withLevels ? ["id", "level", "front", "back", "frontext", "backext"]
                                 : ["id", "front", "back", "frontext", "backext"]) + (anyTag ? ["tags"] : [])).joined(separator: "\t"))
        var skipped = 0
        func printLine(_ card: Card) throws {
            guard let front = try text(of: card, .front, context: context), let back = try text(of: card, .back, context: context) else {
                skipped += 1
                return
            }
            var fields = [card.id]
            if withLevels { fields.append(card.level.name) }
            fields += [escape(front.text), escape(back.text), front.ext, back.ext]
            if anyTag { fields.append(card.tags.joined(separator: " ")) }
            Console.out(fields.joined(separator: "\t"))
        }
        // Printed as the daemon's replies arrive (docs/protocol.md, "Streamed replies"). A side
        // longer than `List` carries is read whole with `ReadAsset` once the listing is over:
        // the connection carries no other call while the listing's parts are coming.
        var cut: [Card] = []
        try context.box.list(level: level, withText: true, tags: filter?.tags, notTags: filter?.notTags) { part in
            for card in part.items {
                if mayBeCut(card.front) || mayBeCut(card.back) {
                    cut.append(card)
                } else {
                    try printLine(card)
                }
            }
            Console.flush()
        }
        for card in cut { try printLine(card) }
        if skipped > 0 {
            Console.error("\(skipped) card\(skipped == 1 ? "" : "s") with a side that is not text or Markdown left out (export --dir DIR copies them)")
        }
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
        if !mayBeCut(value) { return (text, ext) }
        let asset = try context.box.readAsset(id: card.id, side: side).value
        guard let whole = String(validating: asset.content, as: UTF8.self) else {
            throw Failure.failed("the daemon sent an unreadable \(side) for '\(card.id)'")
        }
        return (whole, ext)
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

    static func copy(_ cards: [(id: String, level: String)], to directory: String, withLevels: Bool, context: Context) throws {
        func fail(_ path: String, _ error: Errno) -> Failure { .failed("cannot write '\(path)': \(error)") }
        for card in cards {
            let parent = withLevels ? "\(directory)/\(card.level)" : directory
            let cardPath = "\(parent)/\(card.id)"
            do {
                try FileSystem.makeDirectory(parent, in: nil, existingOK: true)
                try FileSystem.makeDirectory(cardPath, in: nil, existingOK: true)
            } catch { throw fail(cardPath, error) }
            let cardDirectory: FileDescriptor
            do { cardDirectory = try FileDescriptor.openDirectory(cardPath) } catch { throw fail(cardPath, error) }
            defer { cardDirectory.close() }
            for side in SideName.allCases {
                let asset = try context.box.readAsset(id: card.id, side: side).value
                let data = asset.content
                let name = asset.name.split(separator: "/").last.map(String.init) ?? side.rawValue
                do {
                    // With --force over an earlier export: a side of another extension goes.
                    for old in try FileSystem.list(cardDirectory) where CardDirectories.isSide(old.name, side.rawValue) && old.name != name {
                        try FileSystem.removeFile(old.name, in: cardDirectory)
                    }
                    try FileSystem.writeAtomically(data, to: name, in: cardDirectory)
                } catch { throw fail("\(cardPath)/\(name)", error) }
            }
        }
        if context.json {
            context.printJSON(["copied": .int(Int64(cards.count)), "directory": .string(directory)])
        } else {
            Console.out("Copied \(cards.count) card\(cards.count == 1 ? "" : "s") to '\(directory)'.")
        }
    }
}
