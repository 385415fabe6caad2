/// The options and arguments given to one command, after parsing.
public struct ParsedArguments: Sendable, Equatable {
    /// Flags given (long names, `--yes`), whatever alias was typed.
    public var flags: Set<String> = []
    /// Option values by long name; an option given twice keeps the last value.
    public var values: [String: String] = [:]
    /// The positional arguments, in order.
    public var positionals: [String] = []
    /// Every value of each option given more than once (`--tag ja --tag de`), in order, by long
    /// name; an option given once is in `values` only.
    public var repeated: [String: [String]] = [:]

    /// The options the command declares, when a parser made these arguments: an option read
    /// that the command does not declare is a programming error, caught where it is read.
    public var declared: Set<String>?

    public init(flags: Set<String> = [], values: [String: String] = [:], positionals: [String] = []) {
        self.flags = flags
        self.values = values
        self.positionals = positionals
    }

    /// True when the flag `option` (`--yes`) was given.
    public func has(_ option: OptionName) -> Bool {
        check(option)
        return flags.contains(option.text)
    }

    /// The value of `option` (`--level`), nil when not given.
    public subscript(_ option: OptionName) -> String? {
        check(option)
        return values[option.text]
    }

    /// Every value of `option` (`--tag`), in the order given; empty when not given.
    public func all(_ option: OptionName) -> [String] {
        check(option)
        return repeated[option.text] ?? values[option.text].map { [$0] } ?? []
    }

    private func check(_ option: OptionName) {
        assert(declared?.contains(option.text) ?? true, "\(option) is read but not declared by the command")
    }

    /// Equal when the same options and arguments were given, whoever made them.
    public static func == (a: ParsedArguments, b: ParsedArguments) -> Bool {
        a.flags == b.flags && a.values == b.values && a.positionals == b.positionals && a.repeated == b.repeated
    }
}
