/// A parsed command line: which command, with what; or a request for help.
public enum Invocation: Sendable, Equatable {
    /// Run `command` with `arguments`; `globals` holds the global options wherever they stood.
    case run(command: String, arguments: ParsedArguments, globals: ParsedArguments)
    /// Show help: for one command, or the overview when nil.
    case help(command: String?, globals: ParsedArguments)
    /// Show the version.
    case version
}
