/// Everything that can be wrong with a command line. Rendered in one place, `message`, and
/// always followed by the usage line of the command concerned (exit status 64).
public enum UsageError: Error, Equatable, Sendable {
    /// No such command; `suggestion` is the nearest command name, if one is near.
    case unknownCommand(String, suggestion: String?)
    /// No such option for the command (nil: before the command); with a near option name.
    case unknownOption(String, command: String?, suggestion: String?)
    /// An option that needs a value came last.
    case missingValue(option: String, command: String?)
    /// A flag was given a value (`--yes=1`).
    case unexpectedValue(option: String, command: String?)
    /// Fewer arguments than the command needs; `name` is the first one missing, as the usage
    /// line names it (`LEVEL`), so that `move card` says what is left to type.
    case missingArgument(String, command: String)
    /// More arguments than the command takes; `extra` is the first one too many.
    case extraArgument(String, command: String)
    /// An argument or option value that is not what the command expects.
    case invalidValue(String, what: String, reason: String, command: String?)

    /// The command the error is about, for the usage line; nil before a command was named.
    public var command: String? {
        switch self {
        case .unknownCommand: nil
        case .unknownOption(_, let command, _), .missingValue(_, let command),
             .unexpectedValue(_, let command), .invalidValue(_, _, _, let command): command
        case .missingArgument(_, let command), .extraArgument(_, let command): command
        }
    }

    /// The first line, without the program name: `unknown option '--foo'`.
    public var message: String {
        switch self {
        case .unknownCommand(let name, let suggestion):
            "unknown command '\(name)'" + (suggestion.map { ", did you mean '\($0)'?" } ?? "")
        case .unknownOption(let name, _, let suggestion):
            "unknown option '\(name)'" + (suggestion.map { ", did you mean '\($0)'?" } ?? "")
        case .missingValue(let option, _): "option '\(option)' needs a value"
        case .unexpectedValue(let option, _): "option '\(option)' takes no value"
        case .missingArgument(let name, _): "missing argument \(name)"
        case .extraArgument(let extra, _): "unexpected argument '\(extra)'"
        case .invalidValue(let value, let what, let reason, _): "invalid \(what) '\(value)': \(reason)"
        }
    }

    /// The whole message, three lines as the program prints it on standard error:
    /// ```
    /// leitnerctl: unknown option '--foo'
    /// Usage: leitnerctl move ID LEVEL
    /// See 'leitnerctl help move'.
    /// ```
    public func rendered(program: String, commands: [CommandSpec]) -> String {
        var lines = ["\(program): \(message)"]
        if let name = command, let spec = commands.first(where: { $0.name == name }) {
            lines.append("Usage: \(program) \(spec.usageLine)")
            lines.append("See '\(program) help \(name)'.")
        } else {
            lines.append("Usage: \(program) [--box NAME] [--socket PATH] [--config PATH] [--json] COMMAND [ARGS]")
            lines.append("See '\(program) help'.")
        }
        return lines.joined(separator: "\n")
    }
}
