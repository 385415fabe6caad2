/// The help texts, generated from the command table.
public struct HelpText: Sendable {
    public var program: String
    public var summary: String
    public var commands: [CommandSpec]
    public var globals: [OptionSpec]
    /// Text shown at the end of the overview (exit statuses, environment).
    public var epilogue: String

    public init(program: String, summary: String, commands: [CommandSpec], globals: [OptionSpec], epilogue: String) {
        self.program = program
        self.summary = summary
        self.commands = commands
        self.globals = globals
        self.epilogue = epilogue
    }

    /// `leitnerctl help`: the synopsis, every command with its abstract, the global options.
    public var overview: String {
        var text = "\(program) — \(summary)\n\n"
        text += "Usage: \(program) [OPTIONS] [COMMAND] [ARGS]\n\nCommands:\n"
        text += table(commands.map { ($0.name, $0.abstract) })
        text += "\nOptions:\n" + table(globals.map { ($0.synopsis, $0.help) })
        text += "\nSee '\(program) help COMMAND' for the options of a command.\n"
        if !epilogue.isEmpty { text += "\n" + epilogue + (epilogue.hasSuffix("\n") ? "" : "\n") }
        return text
    }

    /// `leitnerctl help COMMAND`: its usage, what it does, its options, more text.
    public func command(_ spec: CommandSpec) -> String {
        var text = "Usage: \(program) \(spec.usageLine)\n\n\(spec.abstract)\n"
        if !spec.options.isEmpty {
            text += "\nOptions:\n" + table(spec.options.map { ($0.synopsis, $0.help) })
        }
        if !spec.discussion.isEmpty { text += "\n" + spec.discussion + (spec.discussion.hasSuffix("\n") ? "" : "\n") }
        text += "\nGlobal options: " + globals.map(\.synopsis).joined(separator: ", ") + "\n"
        return text
    }

    private func table(_ rows: [(String, String)]) -> String {
        let width = min(24, (rows.map(\.0.count).max() ?? 0) + 2)
        var text = ""
        for (left, right) in rows {
            let gap = left.count < width ? String(repeating: " ", count: width - left.count)
                                         : "\n" + String(repeating: " ", count: width + 2)
            text += "  \(left)\(gap)\(right)\n"
        }
        return text
    }
}
