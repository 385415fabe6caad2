import LeitnerClient

/// A command of leitnerctl: its grammar and the code that runs it.
struct Command: Sendable {
    let spec: CommandSpec
    let run: @Sendable (Context, ParsedArguments) throws -> Void

    init(name: String, abstract: String, usage: String = "", arguments: ClosedRange<Int> = 0...0,
         options: [OptionSpec] = [], discussion: String = "",
         run: @escaping @Sendable (Context, ParsedArguments) throws -> Void) {
        spec = CommandSpec(name: name, abstract: abstract, usage: usage, arguments: arguments,
                           options: options, discussion: discussion)
        self.run = run
    }

    var name: String { spec.name }
}
