/// The options and arguments given to one command, after parsing.
public struct ParsedArguments: Sendable, Equatable {
    /// Flags given (long names, `--yes`), whatever alias was typed.
    public var flags: Set<String> = []
    /// Option values by long name; an option given twice keeps the last value.
    public var values: [String: String] = [:]
    /// The positional arguments, in order.
    public var positionals: [String] = []

    public init(flags: Set<String> = [], values: [String: String] = [:], positionals: [String] = []) {
        self.flags = flags
        self.values = values
        self.positionals = positionals
    }

    /// True when the flag `name` (`--yes`) was given.
    public func has(_ name: String) -> Bool { flags.contains(name) }

    /// The value of option `name` (`--level`), nil when not given.
    public subscript(_ name: String) -> String? { values[name] }
}
