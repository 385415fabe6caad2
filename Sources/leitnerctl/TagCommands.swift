import LeitnerClient
import LeitnerCore
import LeitnerProtocol

/// `tag`, `untag` and `tags` (R25).
enum TagCommands {
    /// `tag ID TAG…`.
    static func tag(_ context: Context, _ arguments: ParsedArguments) throws {
        let (id, tags) = try idAndTags(arguments, command: "tag")
        let reply = try context.box.tag(id: id, tags: tags)
        if context.json { return context.printJSON(reply.json) }
        Console.out("'\(id)' is tagged \(list(reply.value.tags)).")
    }

    /// `untag ID TAG…`.
    static func untag(_ context: Context, _ arguments: ParsedArguments) throws {
        let (id, tags) = try idAndTags(arguments, command: "untag")
        let reply = try context.box.untag(id: id, tags: tags)
        if context.json { return context.printJSON(reply.json) }
        Console.out(reply.value.tags.isEmpty ? "'\(id)' has no tags." : "'\(id)' is tagged \(list(reply.value.tags)).")
    }

    /// `tags`: each tag and its card count, a line each (`TAG<tab>COUNT`), or JSON Lines.
    static func tags(_ context: Context, _ arguments: ParsedArguments) throws {
        let filter = try TagOptions.given(arguments, command: "tags")
        var any = false
        try context.box.tags(tags: filter?.tags, notTags: filter?.notTags) { part in
            any = any || !part.items.isEmpty
            if context.json { return context.printJSONLines(part.json) }
            for count in part.items { Console.out("\(count.tag)\t\(count.cards)") }
            Console.flush()
        }
        if !any, !context.json, Console.stdoutTerminal.isTerminal { Console.out("No tags in the box.") }
    }

    private static func idAndTags(_ arguments: ParsedArguments, command: String) throws -> (String, [String]) {
        let id = arguments.positionals[0]
        return (id, try TagOptions.tags(Array(arguments.positionals.dropFirst()), command: command))
    }

    private static func list(_ tags: [String]) -> String {
        tags.map { "'\($0)'" }.joined(separator: ", ")
    }
}
