/// An input that cannot be imported: where, and why.
public struct ImportProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var location: ImportLocation
    public var reason: String

    public init(location: ImportLocation, reason: String) {
        self.location = location
        self.reason = reason
    }

    public var description: String { "\(location): \(reason)" }
}
