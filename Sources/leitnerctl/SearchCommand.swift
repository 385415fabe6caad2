import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem

/// `search PATTERN` (and `find`): the lines of the cards whose id, front or back holds PATTERN,
/// ignoring case, as `Search` finds them in the daemon's index.
enum SearchCommand {
    static func run(_ context: Context, _ arguments: ParsedArguments) throws {
        let pattern = arguments.positionals[0]
        let regex = arguments.has("--regex")
        var parameters: [String: JSONValue] = ["pattern": .string(pattern), "regex": .bool(regex),
                                               "limit": .int(Int64(Box.maxSearchLines))]
        let sides = ["front", "back"].filter { arguments.has("--\($0)") }
        if !sides.isEmpty { parameters["fields"] = .array(sides.map { .string($0) }) }
        if let level = arguments["--level"] { parameters["level"] = .string(try Arguments.level(level, command: "search")) }
        let reply: [String: JSONValue]
        do {
            reply = try context.call("Search", parameters)
        } catch let error as VarlinkCallError {
            // A pattern that is not a regular expression is a wrong command line (64), not the
            // "nothing matches" of exit status 1 that scripts test for.
            if case .invalidPattern(_, let reason)? = BoxError(error) {
                throw Failure.usage(.invalidValue(pattern, what: "search pattern", reason: reason, command: "search"))
            }
            throw error
        }
        if context.json { return context.printJSON(reply) }
        let matches = reply.value("matches").arrayValue ?? []
        if arguments.has("--ids") {
            var seen = Set<String>()
            for match in matches where seen.insert(match.string("id")).inserted { Console.out(match.string("id")) }
        } else {
            let style = context.style
            let highlighter = try? MatchHighlighter(pattern: pattern, regex: regex)
            let terminal = Console.stdoutTerminal.isTerminal
            for match in matches {
                let line = CardList.flat(["text": match.value("line")])
                if terminal {
                    let shown = highlighter?.highlight(line, style: style) ?? line
                    Console.out(style.apply(style.dim, Views(style: style, width: 0).pad(match.string("level"), 8)) + " "
                                + style.apply(style.bold, match.string("id")) + style.apply(style.dim, " \(match.string("field")): ") + shown)
                } else {
                    Console.out([match.string("level"), match.string("id"), match.string("field"), line].joined(separator: "\t"))
                }
            }
        }
        if reply.value("truncated").boolValue == true {
            Console.error("only the first \(matches.count) lines are shown (of \(reply.value("cards").intValue ?? 0) matching cards): narrow the search")
        }
        // As grep: nothing found is exit status 1, so that scripts can test for it.
        if matches.isEmpty { throw Failure.quiet(ExitStatus.failure) }
    }
}
