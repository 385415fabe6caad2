import Glibc
import LeitnerClient
import LeitnerProtocol
import LeitnerSystem

/// `export [LEVEL]`: the text cards as TSV on standard output, with a header line
/// `id level front back` that `import` reads back; `--dir DIR` copies every card (any media)
/// into `DIR/LEVEL/ID/front.EXT` and `back.EXT`, the store's own layout.
enum ExportCommand {
    static func run(_ context: Context, _ arguments: ParsedArguments) throws {
        var parameters: [String: JSONValue] = [:]
        if let level = arguments.positionals.first {
            parameters["level"] = .string(try Arguments.level(level, command: "export"))
        }
        if let directory = arguments["--dir"] {
            // The ids first, then the assets on the same connection: a part of a listing must be
            // taken within the daemon's IdleTimeout=, and copying large media may take longer.
            var cards: [(id: String, level: String)] = []
            try context.stream("List", parameters, member: "cards") { part in
                cards += part.map { ($0.string("id"), $0.string("level")) }
            }
            return try copy(cards, to: directory, context: context)
        }
        parameters["withText"] = true
        Console.out("id\tlevel\tfront\tback")
        var skipped = 0
        // Printed as the daemon's replies arrive (docs/protocol.md, "Streamed replies").
        try context.stream("List", parameters, member: "cards") { cards in
            for card in cards {
                guard let front = card.value("front")["text"]?.stringValue, let back = card.value("back")["text"]?.stringValue else {
                    skipped += 1
                    continue
                }
                Console.out([card.string("id"), card.string("level"), escape(front), escape(back)].joined(separator: "\t"))
            }
            Console.flush()
        }
        if skipped > 0 {
            Console.error("\(skipped) card\(skipped == 1 ? "" : "s") with a side that is not text left out (export --dir DIR copies them)")
        }
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

    static func copy(_ cards: [(id: String, level: String)], to directory: String, context: Context) throws {
        func fail(_ path: String, _ error: Errno) -> Failure { .failed("cannot write '\(path)': \(error)") }
        do { try FileSystem.makeDirectory(directory, in: nil, existingOK: true) } catch { throw fail(directory, error) }
        for card in cards {
            let levelPath = "\(directory)/\(card.level)", cardPath = "\(levelPath)/\(card.id)"
            do { try FileSystem.makeDirectory(levelPath, in: nil, existingOK: true) } catch { throw fail(levelPath, error) }
            do { try FileSystem.makeDirectory(cardPath, in: nil) } catch { throw fail(cardPath, error) }
            for side in ["front", "back"] {
                let asset = try context.call("ReadAsset", ["id": .string(card.id), "side": .string(side)])
                guard let data = Base64.decode(asset.value("data").stringValue ?? "") else {
                    throw Failure.failed("the daemon sent invalid base64 for '\(card.id)' \(side)")
                }
                let name = asset.value("name").stringValue ?? side
                let path = "\(cardPath)/\(name.split(separator: "/").last.map(String.init) ?? side)"
                do {
                    let fd = try FileDescriptor.open(path, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
                    defer { fd.close() }
                    try fd.writeAll(Array(data))
                } catch { throw fail(path, error) }
            }
        }
        if context.json {
            context.printJSON(["copied": .int(Int64(cards.count)), "directory": .string(directory)])
        } else {
            Console.out("Copied \(cards.count) card\(cards.count == 1 ? "" : "s") to '\(directory)'.")
        }
    }
}
