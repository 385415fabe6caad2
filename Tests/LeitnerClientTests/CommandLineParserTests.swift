import Testing
@testable import LeitnerClient

@Suite struct CommandLineParserTests {
    let parser = CommandLineParser(
        commands: [
            CommandSpec(name: "status", abstract: "s"),
            CommandSpec(name: "move", abstract: "m", usage: "ID LEVEL", arguments: 2...2),
            CommandSpec(name: "add", abstract: "a", usage: "[FRONT BACK]", arguments: 0...2,
                        options: [OptionSpec("--level", value: "LEVEL", help: ""), OptionSpec("--force", help: "")]),
            CommandSpec(name: "delete", abstract: "d", usage: "ID", arguments: 1...1,
                        options: [OptionSpec("--yes", short: "-y", help: "")]),
            CommandSpec(name: "help", abstract: "h", usage: "[COMMAND]", arguments: 0...1),
        ],
        globals: [OptionSpec("--json", help: ""), OptionSpec("--socket", value: "PATH", help: "")],
        defaultCommand: "status")

    @Test func noCommandRunsTheDefault() throws {
        #expect(try parser.parse([]) == .run(command: "status", arguments: ParsedArguments(), globals: ParsedArguments()))
    }

    @Test func globalsBeforeAndAfterTheCommand() throws {
        let expected = Invocation.run(command: "move", arguments: ParsedArguments(positionals: ["a", "2"]),
                                      globals: ParsedArguments(flags: ["--json"], values: ["--socket": "/s"]))
        #expect(try parser.parse(["--socket", "/s", "move", "a", "2", "--json"]) == expected)
        #expect(try parser.parse(["move", "--socket=/s", "--json", "a", "2"]) == expected)
    }

    @Test func optionsValuesAndDoubleDash() throws {
        let invocation = try parser.parse(["add", "--level", "3", "--force", "--", "-x", "--y"])
        #expect(invocation == .run(command: "add",
                                   arguments: ParsedArguments(flags: ["--force"], values: ["--level": "3"], positionals: ["-x", "--y"]),
                                   globals: ParsedArguments()))
        // A single dash and white space: a card's text, not an option ("- a" is a Markdown list).
        #expect(try parser.parse(["add", "- a\n- b", "-ar verbs"]) == .run(command: "add",
            arguments: ParsedArguments(positionals: ["- a\n- b", "-ar verbs"]), globals: ParsedArguments()))
        #expect(throws: UsageError.unknownOption("-ar", command: "add", suggestion: nil)) { try parser.parse(["add", "-ar", "x"]) }
        #expect(try parser.parse(["delete", "-y", "c"]) == .run(command: "delete",
            arguments: ParsedArguments(flags: ["--yes"], positionals: ["c"]), globals: ParsedArguments()))
    }

    @Test func usageErrors() {
        #expect(throws: UsageError.unknownCommand("mvoe", suggestion: "move")) { try parser.parse(["mvoe"]) }
        #expect(throws: UsageError.unknownOption("--foo", command: "move", suggestion: nil)) { try parser.parse(["move", "--foo"]) }
        #expect(throws: UsageError.unknownOption("--levle", command: "add", suggestion: "--level")) { try parser.parse(["add", "--levle", "2"]) }
        #expect(throws: UsageError.missingValue(option: "--level", command: "add")) { try parser.parse(["add", "--level"]) }
        #expect(throws: UsageError.unexpectedValue(option: "--force", command: "add")) { try parser.parse(["add", "--force=1"]) }
        #expect(throws: UsageError.missingArgument("LEVEL", command: "move")) { try parser.parse(["move", "a"]) }
        #expect(throws: UsageError.missingArgument("ID", command: "move")) { try parser.parse(["move"]) }
        #expect(throws: UsageError.extraArgument("x", command: "move")) { try parser.parse(["move", "a", "1", "x"]) }
        // An option of another command is not accepted here.
        #expect(throws: UsageError.unknownOption("--yes", command: "move", suggestion: nil)) { try parser.parse(["move", "--yes", "a", "1"]) }
    }

    @Test func help() throws {
        #expect(try parser.parse(["help"]) == .help(command: nil, globals: ParsedArguments()))
        #expect(try parser.parse(["help", "move"]) == .help(command: "move", globals: ParsedArguments()))
        #expect(try parser.parse(["move", "--help"]) == .help(command: "move", globals: ParsedArguments()))
        #expect(try parser.parse(["-h"]) == .help(command: nil, globals: ParsedArguments()))
        #expect(throws: UsageError.unknownCommand("mov", suggestion: "move")) { try parser.parse(["help", "mov"]) }
    }

    @Test func renderedErrorNamesTheUsage() {
        let text = UsageError.unknownOption("--foo", command: "move", suggestion: nil).rendered(program: "leitnerctl", commands: parser.commands)
        #expect(text == "leitnerctl: unknown option '--foo'\nUsage: leitnerctl move ID LEVEL\nSee 'leitnerctl help move'.")
    }

    @Test func helpTextListsEveryCommand() {
        let help = HelpText(program: "p", summary: "s", commands: parser.commands, globals: parser.globals, epilogue: "Exit status: 0")
        for command in parser.commands { #expect(help.overview.contains("  \(command.name) ")) }
        #expect(help.overview.contains("Exit status: 0"))
        #expect(help.command(parser.commands[2]).hasPrefix("Usage: p add [OPTIONS] [FRONT BACK]\n"))
    }
}
