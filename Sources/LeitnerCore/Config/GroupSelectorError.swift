/// A group that cannot be looked up: `cannot find group 'NAME': reason`.
public struct GroupSelectorError: Error, Equatable, Sendable, CustomStringConvertible {
    public var group: String
    public var reason: String

    public var description: String { "cannot find group '\(group)': \(reason)" }
}
