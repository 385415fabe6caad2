/// ANSI SGR styles for text on a terminal; every style is the empty string when colour is off
/// (not a terminal, or `NO_COLOR` set).
public struct TextStyle: Sendable {
    public let enabled: Bool

    public init(enabled: Bool) { self.enabled = enabled }

    public var bold: String { code("1") }
    public var dim: String { code("2") }
    public var italic: String { code("3") }
    public var underline: String { code("4") }
    public var reverse: String { code("7") }
    public var red: String { code("31") }
    public var green: String { code("32") }
    public var yellow: String { code("33") }
    public var blue: String { code("34") }
    public var cyan: String { code("36") }
    public var reset: String { code("0") }
    /// One of the 256 colours of xterm, as foreground.
    public func color(_ index: Int) -> String { code("38;5;\(index)") }

    /// `text` in `style`, reset after.
    public func apply(_ style: String, _ text: String) -> String {
        enabled ? style + text + reset : text
    }

    private func code(_ parameters: String) -> String { enabled ? "\u{1B}[\(parameters)m" : "" }
}
