/// A method as declared: `method Name(input) -> (output)`.
public struct VarlinkMethod: Sendable, Equatable {
    public var name: String
    public var input: [VarlinkField]
    public var output: [VarlinkField]
}
