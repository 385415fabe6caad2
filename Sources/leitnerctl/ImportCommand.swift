import Glibc
import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem

/// `import FILE|DIR`: reads every card first; a source with a bad line adds nothing (every
/// bad line is reported with its number). Then each card is added: one whose front or id is
/// already in the box is skipped as a duplicate, one the daemon refuses is reported with its
/// line, the others are added.
enum ImportCommand {
    /// Imports of at least this many cards show a progress line on a terminal.
    static let progressThreshold = 50

    struct Summary {
        var added = 0
        var duplicates: [ImportProblem] = []
        var refused: [ImportProblem] = []
    }

    static func run(_ context: Context, _ arguments: ParsedArguments) throws {
        let path = arguments.positionals[0]
        let defaultLevel = try arguments["--level"].map { try Arguments.level($0, command: "import") }
        let format = try arguments["--format"].map { name in
            guard let format = ImportFormat(rawValue: name) else {
                throw Failure.usage(.invalidValue(name, what: "format", reason: "expected tsv, csv or anki", command: "import"))
            }
            return format
        }
        var (records, problems) = try read(path, format: format)
        if !problems.isEmpty {
            // A file's problems are at its lines; a directory's at its entries, whose quoted
            // paths already start with the directory's.
            let lines = problems.allSatisfy { $0.location.hasPrefix("line ") }
            for problem in problems {
                Console.error((lines ? "'\(path)' " : "") + "\(problem.location): \(problem.reason)")
            }
            let what = lines ? (problems.count == 1 ? "line" : "lines") : (problems.count == 1 ? "entry" : "entries")
            Console.error("nothing imported from '\(path)': \(problems.count) bad \(what)")
            throw Failure.quiet(ExitStatus.failure)
        }
        // Levels travel only when asked for, both ways (export --with-levels, import --with-levels):
        // a shared deck starts in level 1 (R1) in every box it goes to.
        if !arguments.has("--with-levels"), records.contains(where: { $0.level != nil }) {
            for index in records.indices { records[index].level = nil }
            Console.error("the levels in '\(path)' are ignored: 'import --with-levels' keeps them")
        }
        let summary = try add(records, defaultLevel: defaultLevel, context: context)
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
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Failure.failed("cannot import '\(path)': it is not UTF-8 text")
        }
        let chosen = format ?? ImportFormat.detect(fileName: path, text: text[...])
        return CardFileParser(format: chosen).parse(text)
    }

    static func add(_ records: [ImportRecord], defaultLevel: String?, context: Context) throws -> Summary {
        var summary = Summary()
        let progress = records.count >= progressThreshold && Console.stderrTerminal.isTerminal
        // A message must not land on the progress line: clear it first.
        defer { if progress { Console.status("\r\u{1B}[K") } }
        for (index, record) in records.enumerated() {
            if progress && index > 0 && index % 10 == 0 { Console.status("\rimporting \(index)/\(records.count)…") }
            var parameters: [String: JSONValue] = ["allowDuplicate": false]
            do {
                parameters["front"] = try side(record.front, "front")
                parameters["back"] = try side(record.back, "back")
            } catch let failure as Failure {
                if case .failed(let message) = failure {
                    summary.refused.append(ImportProblem(location: record.location, reason: message))
                }
                continue
            }
            if let id = record.id { parameters["id"] = .string(id) }
            if let level = record.level ?? defaultLevel { parameters["level"] = .string(level) }
            do {
                _ = try context.call("Add", parameters)
                summary.added += 1
            } catch let error as VarlinkCallError {
                let problem = ImportProblem(location: record.location, reason: DaemonErrors.message(error))
                switch error.name {
                case BoxError.Name.duplicateFront, BoxError.Name.cardExists: summary.duplicates.append(problem)
                default: summary.refused.append(problem)
                }
            }
        }
        return summary
    }

    static func side(_ side: ImportSide, _ name: String) throws -> JSONValue {
        switch side {
        case .text(let text, let ext): AssetFile.text(text, side: name, extension: ext)
        case .file(let path): try AssetFile.file(path, side: name)
        }
    }

    static func report(_ summary: Summary, path: String, context: Context) {
        if context.json {
            func list(_ problems: [ImportProblem]) -> JSONValue {
                .array(problems.map { ["location": .string($0.location), "reason": .string($0.reason)] })
            }
            context.printJSON(["added": .int(Int64(summary.added)), "duplicates": list(summary.duplicates),
                               "refused": list(summary.refused)])
            return
        }
        let style = context.style
        Console.out("Imported '\(path)': \(summary.added) added, \(summary.duplicates.count) skipped as duplicate\(summary.duplicates.count == 1 ? "" : "s"), "
                    + (summary.refused.isEmpty ? "0 refused." : style.apply(style.red, "\(summary.refused.count) refused") + ":"))
        for problem in summary.refused { Console.out("  \(problem.location): \(problem.reason)") }
    }
}
