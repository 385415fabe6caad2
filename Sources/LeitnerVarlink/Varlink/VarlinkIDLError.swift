/// IDL text that does not parse: the line and what was expected there.
public struct VarlinkIDLError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var reason: String

    public var description: String { "line \(line): \(reason)" }
}
