import Glibc
import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// `stats [--days N] [--leeches N] [--html FILE]`: the box's figures on one screen, as JSON, or
/// as an HTML report (docs/leitnerctl.md, "Statistics").
enum StatsCommand {
    static func run(_ context: Context, _ arguments: ParsedArguments) throws {
        let days = try arguments[.days].map { days in
            guard let n = Int(days), (1...BoxStatistics.maxWindow).contains(n) else {
                throw Failure.usage(.invalidValue(days, what: "number of days", reason: "expected 1 to \(BoxStatistics.maxWindow)", command: "stats"))
            }
            return n
        }
        let leeches = try arguments[.leeches].map { leeches in
            guard let n = Int(leeches), (0...BoxStatistics.maxLeeches).contains(n) else {
                throw Failure.usage(.invalidValue(leeches, what: "number of cards", reason: "expected 0 to \(BoxStatistics.maxLeeches)", command: "stats"))
            }
            return n
        }
        let filter = try TagOptions.given(arguments, command: "stats")
        let reply = try context.box.stats(days: days, leeches: leeches, tags: filter?.tags, notTags: filter?.notTags)
        let stats = reply.value
        if let file = arguments[.html] {
            try write(StatsReport(stats).html(), to: file)
            if context.json { context.printJSON(reply.json) }
            return
        }
        if context.json { return context.printJSON(reply.json) }
        for line in StatsScreen(stats, style: context.style, width: width).lines() { Console.out(line) }
    }

    /// The terminal's width; not on a terminal, `COLUMNS` when set (as ls(1) does), else 80.
    static var width: Int {
        if let size = Console.stdoutTerminal.size { return size.columns }
        if let text = getenv("COLUMNS").map({ String(cString: $0) }), let columns = Int(text), columns > 0 { return columns }
        return 80
    }

    /// Writes the report durably under a temporary name and renames it over `path`, so that a
    /// browser never shows half of it.
    static func write(_ html: String, to path: String) throws {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty, name != ".", name != ".." else {
            throw Failure.failed("cannot write '\(path)': not a file name")
        }
        do {
            let fd = try FileDescriptor.open(directory, flags: O_RDONLY | O_DIRECTORY)
            defer { fd.close() }
            try FileSystem.writeAtomically(Array(html.utf8), to: name, in: fd)
        } catch {
            throw Failure.failed("cannot write '\(path)': \(error)")
        }
    }
}
