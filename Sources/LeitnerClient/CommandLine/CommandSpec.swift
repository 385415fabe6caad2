
/// The grammar of one command: its name, what it does, the arguments and options it takes.
/// The program pairs each with the code that runs it; help, usage lines and "did you mean"
/// are generated from these.
public struct CommandSpec: Sendable, Equatable {
    /// The command's name (`move`).
    public var name: String
    /// One line saying what it does.
    public var abstract: String
    /// The arguments after the name as usage shows them (`ID LEVEL`, `[FROM [TO]]`).
    public var usage: String
    /// How many positional arguments it accepts.
    public var arguments: ClosedRange<Int>
    /// The options of this command (the global ones come on top).
    public var options: [OptionSpec]
    /// More help, shown by `help COMMAND` after the options; may be empty.
    public var discussion: String

    public init(name: String, abstract: String, usage: String = "", arguments: ClosedRange<Int> = 0...0,
                options: [OptionSpec] = [], discussion: String = "") {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.arguments = arguments
        self.options = options
        self.discussion = discussion
    }

    /// What the argument at `index` may be, for the shells' completion: from its name in the
    /// usage (`LEVEL`, `FILE|DIR`, `correct|wrong`).
    public func argumentValues(at index: Int) -> ArgumentValues {
        ArgumentValues(placeholder: argumentName(at: index))
    }

    /// The name of the argument at `index` as the usage shows it, brackets left out (`LEVEL`
    /// of `ID LEVEL`, `FILE|DIR`); `ARGUMENT` past the names the usage gives.
    public func argumentName(at index: Int) -> String {
        let names = usage.split(separator: " ").map { $0.filter { $0 != "[" && $0 != "]" } }
        return index < names.count ? String(names[index]) : "ARGUMENT"
    }

    /// The usage line without the program name: `move ID LEVEL` or `add [OPTIONS] FRONT BACK`.
    public var usageLine: String {
        var parts = [name]
        if !options.isEmpty { parts.append("[OPTIONS]") }
        if !usage.isEmpty { parts.append(usage) }
        return parts.joined(separator: " ")
    }
}
