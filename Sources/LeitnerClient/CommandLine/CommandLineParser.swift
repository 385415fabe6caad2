import LeitnerCore
/// Parses `PROGRAM [GLOBAL OPTIONS] [COMMAND] [OPTIONS] [ARGS]` against a table of commands.
/// Global options are accepted before and after the command; `--` ends the options (so a
/// card's text may start with a dash); `--name=value` and `--name value` are the same.
public struct CommandLineParser: Sendable {
    public var commands: [CommandSpec]
    public var globals: [OptionSpec]
    /// The command run when none is named (`status`).
    public var defaultCommand: String

    public init(commands: [CommandSpec], globals: [OptionSpec], defaultCommand: String) {
        self.commands = commands
        self.globals = globals
        self.defaultCommand = defaultCommand
    }

    /// Parses `arguments` (without the program name).
    /// - Throws: `UsageError` saying what is wrong.
    public func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var globalValues = ParsedArguments()
        var commandName: String?
        var parsed = ParsedArguments()
        var wantsHelp = false
        var optionsEnded = false
        var index = 0

        while index < arguments.count {
            let word = arguments[index]
            index += 1
            // A negative number (`calendar -7`) is an argument, not an option; so is a word with
            // a single dash and white space in it, which no option is: a card's text such as
            // "- a list item" or "-ar verbs".
            let isNumber = word.count > 1 && word.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
            let isText = !word.hasPrefix("--") && word.contains { $0.isWhitespace }
            if optionsEnded || word == "-" || !word.hasPrefix("-") || ((isNumber || isText) && commandName != nil) {
                if commandName == nil && !optionsEnded {
                    guard commands.contains(where: { $0.name == word }) else {
                        throw .unknownCommand(word, suggestion: Suggestion.nearest(to: word, among: commands.map(\.name)))
                    }
                    commandName = word
                } else {
                    parsed.positionals.append(word)
                }
                continue
            }
            if word == "--" {
                optionsEnded = true
                if commandName == nil { commandName = defaultCommand }
                continue
            }
            if word == "--help" || word == "-h" {
                wantsHelp = true
                continue
            }
            if word == "--version" && commandName == nil {
                return .version
            }
            let (name, inlineValue) = split(word)
            let spec = commandName.flatMap { name in commands.first { $0.name == name } }
            let local = spec?.options ?? []
            if let option = find(name, in: local) {
                try take(option, inlineValue, &parsed, arguments, &index, commandName)
            } else if let option = find(name, in: globals) {
                try take(option, inlineValue, &globalValues, arguments, &index, commandName)
            } else {
                let known = (local + globals).map(\.name)
                throw .unknownOption(name, command: commandName, suggestion: Suggestion.nearest(to: name, among: known))
            }
        }

        let name = commandName ?? defaultCommand
        globalValues.declared = Set(globals.map(\.name))
        if wantsHelp { return .help(command: commandName, globals: globalValues) }
        if name == "help" {
            if let topic = parsed.positionals.first, !commands.contains(where: { $0.name == topic }) {
                throw .unknownCommand(topic, suggestion: Suggestion.nearest(to: topic, among: commands.map(\.name)))
            }
            if parsed.positionals.count > 1 { throw .extraArgument(parsed.positionals[1], command: "help") }
            return .help(command: parsed.positionals.first, globals: globalValues)
        }
        guard let spec = commands.first(where: { $0.name == name }) else {
            throw .unknownCommand(name, suggestion: nil)
        }
        if parsed.positionals.count < spec.arguments.lowerBound {
            throw .missingArgument(spec.argumentName(at: parsed.positionals.count), command: name)
        }
        if parsed.positionals.count > spec.arguments.upperBound {
            throw .extraArgument(parsed.positionals[spec.arguments.upperBound], command: name)
        }
        parsed.declared = Set(spec.options.map(\.name))
        return .run(command: name, arguments: parsed, globals: globalValues)
    }

    private func split(_ word: String) -> (String, String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    private func find(_ name: String, in options: [OptionSpec]) -> OptionSpec? {
        options.first { $0.name == name || $0.short == name }
    }

    private func take(_ option: OptionSpec, _ inlineValue: String?, _ into: inout ParsedArguments,
                      _ arguments: [String], _ index: inout Int, _ command: String?) throws(UsageError) {
        guard option.valueName != nil else {
            if inlineValue != nil { throw .unexpectedValue(option: option.name, command: command) }
            into.flags.insert(option.name)
            return
        }
        let value: String
        if let inlineValue {
            value = inlineValue
        } else {
            guard index < arguments.count else { throw .missingValue(option: option.name, command: command) }
            value = arguments[index]
            index += 1
        }
        // Every value is kept for a repeatable option (`--tag`); `values` keeps the last.
        if let earlier = into.values[option.name] { into.repeated[option.name, default: [earlier]].append(value) }
        into.values[option.name] = value
    }
}
