import LeitnerClient
import Testing

/// Options are read back by the name the program declared (`OptionName`), and only those the
/// command declares: reading another is a programming error caught where it happens.
@Suite struct ParsedArgumentsTests {
    static let parser = CommandLineParser(
        commands: [CommandSpec(name: "add", abstract: "", options: [OptionSpec(OptionName("--level"), value: "LEVEL", help: ""),
                                                                     OptionSpec(OptionName("--force"), help: "")])],
        globals: [OptionSpec(OptionName("--json"), help: "")], defaultCommand: "add")

    @Test func optionsAreReadByTheirDeclaredNames() throws {
        guard case .run(_, let arguments, let globals) = try Self.parser.parse(["add", "--level", "3", "--json", "--force"]) else {
            Issue.record("not a run")
            return
        }
        #expect(arguments[OptionName("--level")] == "3")
        #expect(arguments.has(OptionName("--force")))
        #expect(globals.has(OptionName("--json")))
        #expect(arguments.declared == ["--level", "--force"])
    }

    @Test func readingAnOptionTheCommandDoesNotDeclareFails() async {
        await #expect(processExitsWith: .failure) {
            var arguments = ParsedArguments()
            arguments.declared = ["--level"]
            _ = arguments.has(OptionName("--levle"))
        }
    }
}
