import Glibc
import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// `import FILE|DIR`: reads every card first, and reports each line that cannot be imported as
/// `FILE:LINE: reason`; the other cards go to the daemon in a few `AddMany` batches of bounded
/// size (docs/protocol.md), each one durable change. A card whose front or id is already in the
/// box is counted as already present, one the daemon refuses is reported with its line, the
/// others are added; the summary says how many of each.
enum ImportCommand {
    /// A batch is at most this many bytes of JSON, well inside the daemon's default message
    /// limit (16 MiB) and its 64 KiB-a-connection reading: a larger message waits for a share of
    /// the daemon's memory budget (docs/daemon.md, "Memory").
    static let batchBytes = 1 << 20
    /// And at most this many cards, so that the progress bar moves and the daemon's watch of
    /// its own renames stays within the kernel's event queue (16,384 by default).
    static let batchCards = 4096
    /// The first batch is this many cards, and each next one four times the last, up to
    /// `batchCards`: on a slow disk the progress bar appears soon after its second, not only
    /// when 4,096 cards are in.
    static let firstBatchCards = 256

    struct Summary {
        var added = 0
        /// Reverse cards added beside them (`--reverse`), not counted in `added`.
        var reverses = 0
        var present: [Reported] = []
        var refused: [Reported] = []
    }

    /// A card the summary names: where it was read, as a message leads with it (`FILE:LINE`).
    struct Reported {
        var place: String
        var reason: String
    }

    static func run(_ context: Context, _ arguments: ParsedArguments) throws {
        let path = arguments.positionals[0]
        if AnkiImportCommand.isPackage(path) { return try AnkiImportCommand.run(context, arguments, path: path) }
        let defaultLevel = try arguments[.level].map { try Arguments.level($0, command: "import") }
        let format = try arguments[.format].map { name in
            guard let format = ImportFormat(rawValue: name) else {
                throw Failure.usage(.invalidValue(name, what: "format", reason: "expected tsv, csv or anki", command: "import"))
            }
            return format
        }
        var (records, problems) = try read(path, format: format)
        for problem in problems { Console.error("\(problem.location.place(in: path)): \(problem.reason)") }
        // Levels travel only when asked for, both ways (export --with-levels, import --with-levels):
        // a shared deck starts in level 1 (R1) in every box it goes to.
        if !arguments.has(.withLevels), records.contains(where: { $0.level != nil }) {
            for index in records.indices { records[index].level = nil }
            Console.error("the levels in '\(path)' are ignored: 'import --with-levels' keeps them")
        }
        var progress = ImportProgress(total: records.count,
                                      enabled: Console.stderrTerminal.isTerminal && !arguments.has(.quiet))
        let tags = try TagOptions.tags(arguments.all(.tag), command: "import")
        var summary = try add(records.filter { $0.kind == .card }, defaultLevel: defaultLevel, reverse: arguments.has(.reverse),
                              typeAnswer: arguments.has(.typeAnswer), path: path, context: context, progress: &progress, tags: tags)
        // Notes and the cards that show another's sides go in once the cards they name are in.
        let linked = LinkedImport(path: path, defaultLevel: defaultLevel, typeAnswer: arguments.has(.typeAnswer), tags: tags)
        try linked.add(records.filter { $0.kind != .card }, context: context, summary: &summary)
        progress.clear()
        summary.refused = problems.map { Reported(place: $0.location.place(in: path), reason: $0.reason) } + summary.refused
        report(summary, path: path, context: context)
        if !summary.refused.isEmpty { throw Failure.quiet(ExitStatus.failure) }
    }

    /// The cards of a file or a directory, and what is wrong in it.
    static func read(_ path: String, format: ImportFormat?) throws -> (records: [ImportRecord], problems: [ImportProblem]) {
        let info: stat
        do { info = try FileSystem.status(path, in: nil) } catch {
            throw Failure.failed("cannot import '\(path)': \(error)")
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            do {
                return try CardDirectories.read(path)
            } catch {
                throw Failure.failed("cannot read directory '\(path)': \(error)")
            }
        }
        let bytes: [UInt8]
        do { bytes = try FileSystem.readFile(atPath: path, limit: 256 << 20) } catch {
            throw Failure.failed("cannot read '\(path)': \(error)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw notUTF8(path, bytes) }
        let chosen = format ?? ImportFormat.detect(fileName: path, text: text[...])
        return CardFileParser(format: chosen).parse(text)
    }

    /// The refusal of a file that is not UTF-8, saying what to do: a spreadsheet's "Unicode
    /// text" is UTF-16 (its byte order mark says so), anything else is named by the first line
    /// that breaks, where a stray byte of another encoding most often stands alone.
    static func notUTF8(_ path: String, _ bytes: [UInt8]) -> Failure {
        func convert(from encoding: String) -> String { "save it as UTF-8, or convert it with 'iconv -f \(encoding) -t UTF-8'" }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return Failure.failed("cannot import '\(path)': it is UTF-16 text (a spreadsheet's \"Unicode text\"), not UTF-8: "
                                  + convert(from: "UTF-16"))
        }
        var line = 1
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            if String(validating: bytes[start..<index], as: UTF8.self) == nil { break }
            line += 1
            start = index + 1
        }
        return Failure.failed("cannot import '\(path)': line \(line) is not UTF-8 text (Windows-1252, say): "
                              + convert(from: "WINDOWS-1252"))
    }

    /// One card ready to send: the card (its tags in it, R25), its size in the message, and
    /// where it was read.
    private struct Pending {
        var card: NewCard
        var bytes: Int
        var location: String
    }

    /// Sends the cards in batches and gathers what became of each.
    /// - Parameter reverse: each card added gets its reverse card beside it (R28), with the
    ///   card's tags.
    /// - Parameter typeAnswer: each card added (and its reverse) asks for its answer typed (R32).
    static func add(_ records: [ImportRecord], defaultLevel: Level?, reverse: Bool = false, typeAnswer: Bool = false,
                    path: String, context: Context,
                    progress: inout ImportProgress, tags: [String] = []) throws -> Summary {
        var summary = Summary()
        var batch: [Pending] = []
        var batchSize = 0
        var limit = batchBytes
        var cardLimit = firstBatchCards
        var done = 0
        func refuse(_ place: String, _ reason: String) {
            progress.clear()
            Console.error("\(place): \(reason)")
            summary.refused.append(Reported(place: place, reason: reason))
        }
        func flush() throws {
            var queue = [batch]
            batch = []
            batchSize = 0
            cardLimit = min(batchCards, cardLimit * 4)
            while let cards = queue.first {
                queue.removeFirst()
                guard !cards.isEmpty else { continue }
                let outcome: BatchOutcome
                do {
                    outcome = try context.box.addMany(cards.map(\.card), allowDuplicate: false, reverse: reverse ? true : nil).value
                } catch let error as VarlinkCallError where isTooLarge(error) && cards.count > 1 {
                    // A daemon configured with a smaller MaxMessageSize= closed the connection
                    // without carrying anything out: send halves, and smaller batches from now on.
                    context.dropConnection()
                    limit = max(512, limit / 2)
                    queue.insert(contentsOf: [Array(cards[..<(cards.count / 2)]), Array(cards[(cards.count / 2)...])], at: 0)
                    continue
                }
                summary.added += outcome.added.count
                summary.reverses += outcome.added.filter { $0.reverse != nil }.count
                for card in outcome.present {
                    summary.present.append(Reported(place: cards[card.index].location,
                                                         reason: "already in the box as '\(card.id)'"))
                }
                for card in outcome.refused {
                    refuse(cards[card.index].location, DaemonErrors.message(VarlinkCallError(
                        name: card.error.varlinkName, parameters: card.error.varlinkParameters)))
                }
                done += cards.count
                progress.update(done: done)
            }
        }
        for record in records {
            let location = record.location.place(in: path)
            // The tags go in the batch, written with the card in the change that adds it: a
            // card already present keeps its own, and a reverse added beside a card gets a
            // copy (its own from then on, R28).
            let card: NewCard
            do {
                card = NewCard(front: try side(record.front, .front), back: try side(record.back, .back),
                               id: record.id, level: record.level ?? defaultLevel?.name, typeAnswer: typeAnswer || record.typeAnswer,
                               tags: LinkedImport.joined(record.tags, tags),
                               media: try record.media.map { try AssetFile.file($0, named: String($0.split(separator: "/").last ?? "")) })
            } catch let failure as Failure {
                if case .failed(let message) = failure { refuse(location, message) }
                done += 1
                continue
            }
            let bytes = card.json.jsonText.utf8.count + 1
            if !batch.isEmpty && (batchSize + bytes > limit || batch.count >= cardLimit) { try flush() }
            batch.append(Pending(card: card, bytes: bytes, location: location))
            batchSize += bytes
        }
        try flush()
        return summary
    }

    /// The daemon's refusal of a message longer than its `MaxMessageSize=` (docs/daemon.md).
    private static func isTooLarge(_ error: VarlinkCallError) -> Bool {
        VarlinkServiceError(error) == .invalidParameter(parameter: VarlinkServiceInterface.messageParameter)
    }

    static func side(_ side: ImportSide, _ name: SideName) throws -> Asset {
        switch side {
        case .text(let text, let ext): AssetFile.text(text, side: name, extension: ext)
        case .file(let path): try AssetFile.file(path, side: name)
        }
    }

    /// Reports a card or note the daemon refused, and counts it.
    static func refuse(_ place: String, _ error: VarlinkCallError, in summary: inout Summary) {
        let reason = DaemonErrors.message(error)
        Console.error("\(place): \(reason)")
        summary.refused.append(Reported(place: place, reason: reason))
    }

    static func report(_ summary: Summary, path: String, context: Context) {
        if context.json {
            func list(_ problems: [Reported]) -> JSONValue {
                .array(problems.map { ["location": .string($0.place), "reason": .string($0.reason)] })
            }
            var members: [String: JSONValue] = ["added": .int(Int64(summary.added)), "present": list(summary.present),
                                                "refused": list(summary.refused)]
            if summary.reverses > 0 { members["reverses"] = .int(Int64(summary.reverses)) }
            context.printJSON(members)
            return
        }
        let style = context.style
        let refused = summary.refused.isEmpty ? "0 refused" : style.apply(style.red, "\(summary.refused.count) refused")
        let reverses = summary.reverses > 0 ? " (and \(summary.reverses) reverse card\(summary.reverses == 1 ? "" : "s"))" : ""
        Console.out("Imported '\(path)': \(summary.added) added\(reverses), \(summary.present.count) already present, \(refused).")
    }
}
