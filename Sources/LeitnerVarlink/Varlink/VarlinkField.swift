/// A member of a structure: a method's parameter or reply field, an error's field.
public struct VarlinkField: Sendable, Equatable {
    public var name: String
    public var type: VarlinkType

    public init(name: String, type: VarlinkType) {
        self.name = name
        self.type = type
    }
}
