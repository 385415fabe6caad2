/// An error reply to a Varlink call: the qualified error name and its parameters, e.g.
/// `io.leitner.Box.NoSuchCard` with `["id": "hola"]`. `BoxError(reply:)` turns the box's own
/// errors back into `BoxError`.
public struct VarlinkCallError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The qualified error name.
    public var name: String
    /// The error's parameters.
    public var parameters: [String: JSONValue]

    public init(name: String, parameters: [String: JSONValue] = [:]) {
        self.name = name
        self.parameters = parameters
    }

    /// `io.leitner.Box.NoSuchCard (id: "hola")`: the name, then the parameters as JSON.
    public var description: String {
        if parameters.isEmpty { return name }
        let members = parameters.keys.sorted().map { "\($0): \(parameters[$0]!.jsonText)" }
        return "\(name) (\(members.joined(separator: ", ")))"
    }
}
