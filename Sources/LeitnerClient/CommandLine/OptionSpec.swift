/// One option of a command line: `--name`, maybe a one-letter alias, maybe a value.
public struct OptionSpec: Sendable, Equatable {
    /// The long name with its dashes (`--level`).
    public var name: String
    /// A one-letter alias with its dash (`-y`), if any.
    public var short: String?
    /// The value's placeholder (`LEVEL`) when the option takes one; nil for a flag.
    public var valueName: String?
    /// One line of help.
    public var help: String
    /// What the value may be, for the shells' completion; from the placeholder unless given.
    public var values: ArgumentValues

    public init(_ name: String, short: String? = nil, value: String? = nil, values: ArgumentValues? = nil, help: String) {
        self.name = name
        self.short = short
        self.valueName = value
        self.help = help
        self.values = values ?? value.map(ArgumentValues.init(placeholder:)) ?? .any
    }

    /// The option `name`, declared once by the program (`OptionName`) and read back by it.
    public init(_ name: OptionName, short: String? = nil, value: String? = nil, values: ArgumentValues? = nil, help: String) {
        self.init(name.text, short: short, value: value, values: values, help: help)
    }

    /// `--level LEVEL` or `-y, --yes`, as help shows it.
    public var synopsis: String {
        var text = short.map { "\($0), " } ?? ""
        text += name
        if let valueName { text += " \(valueName)" }
        return text
    }
}
