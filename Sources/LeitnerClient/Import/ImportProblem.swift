/// An input that cannot be imported: where, and why.
public struct ImportProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var location: String
    public var reason: String

    public init(location: String, reason: String) {
        self.location = location
        self.reason = reason
    }

    public var description: String { "\(location): \(reason)" }
}
