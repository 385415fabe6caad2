/// The name of an option, `--level`, as a program declares it once and reads it back: a
/// misspelt name is then a compile error, not a silent nil (`ParsedArguments.has`, its
/// subscript). Deliberately not a string literal type.
public struct OptionName: Hashable, Sendable, CustomStringConvertible {
    /// The long name with its dashes.
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    public var description: String { text }
}
