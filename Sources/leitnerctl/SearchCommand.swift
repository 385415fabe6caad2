import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// `search PATTERN` (and `find`): the lines of the cards whose id, front or back holds PATTERN,
/// ignoring case, as `Search` finds them in the daemon's index, printed as the daemon's replies
/// arrive (docs/protocol.md, "Streamed replies").
enum SearchCommand {
    static func run(_ context: Context, _ arguments: ParsedArguments) throws {
        let pattern = arguments.positionals[0]
        let regex = arguments.has(.regex)
        var sides = Set<SearchMatch.Field>()
        if arguments.has(.front) { sides.insert(.front) }
        if arguments.has(.back) { sides.insert(.back) }
        let level = try arguments[.level].map { try Arguments.level($0, command: "search") }
        let idsOnly = arguments.has(.ids)
        let style = context.style
        let highlighter = try? MatchHighlighter(pattern: pattern, regex: regex)
        let terminal = Console.stdoutTerminal.isTerminal
        var found = false
        // A card's lines come together (the daemon sends them sorted by level then id), so the
        // last id printed is enough to print each id once.
        var lastID: String?
        do {
            let filter = try TagOptions.given(arguments, command: "search")
            try context.box.search(pattern, regex: regex, fields: sides.isEmpty ? nil : sides, level: level,
                                   tags: filter?.tags, notTags: filter?.notTags) { part in
                found = found || !part.items.isEmpty
                if context.json { return context.printJSONLines(part.json) }
                for match in part.items {
                    if idsOnly {
                        if match.id != lastID { Console.out(match.id) }
                        lastID = match.id
                        continue
                    }
                    let line = CardList.flat(text: match.line)
                    if terminal {
                        let shown = highlighter?.highlight(line, style: style) ?? line
                        Console.out(style.apply(style.dim, Views(style: style, width: 0).pad(match.level.name, 8)) + " "
                                    + style.apply(style.bold, match.id) + style.apply(style.dim, " \(match.field.rawValue): ") + shown)
                    } else {
                        Console.out([match.level.name, match.id, match.field.rawValue, line].joined(separator: "\t"))
                    }
                }
                Console.flush()
            }
        } catch let error as VarlinkCallError {
            // A pattern that is not a regular expression is a wrong command line (64), not the
            // "nothing matches" of exit status 1 that scripts test for.
            if case .invalidPattern(_, let reason)? = BoxError(error) {
                throw Failure.usage(.invalidValue(pattern, what: "search pattern", reason: reason, command: "search"))
            }
            throw error
        }
        // As grep: nothing found is exit status 1, so that scripts can test for it; a person at
        // a terminal gets a sentence rather than a prompt that looks like a hang up (#35).
        if !found {
            if terminal && !context.json {
                let sides = sides.isEmpty ? "id, front or back" : sides.map(\.rawValue).sorted().reversed().joined(separator: " or ")
                Console.out("No card's \(sides) holds \(regex ? "a match of " : "")'\(pattern)'"
                            + (level.map { " in " + Views.place($0) } ?? "") + ".")
            }
            throw Failure.quiet(ExitStatus.failure)
        }
    }
}
