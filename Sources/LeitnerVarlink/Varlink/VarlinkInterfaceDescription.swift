/// An interface read from its IDL text: its name, types, methods and errors. The IDL text is the
/// one place where a method's parameters, a reply's fields and an error's fields are declared;
/// the daemon checks every call against it before a handler runs (`invalidMember`), and tests
/// check the handler table and the error table against it.
public struct VarlinkInterfaceDescription: Sendable {
    /// The interface's name (`io.leitner.Box`).
    public var name: String
    /// The types declared with `type Name …`, by name.
    public var types: [String: VarlinkType]
    /// The methods, by name.
    public var methods: [String: VarlinkMethod]
    /// The errors' fields, by the error's short name (`NoSuchCard`).
    public var errors: [String: [VarlinkField]]

    /// Reads the IDL text of one interface.
    /// - Throws: `VarlinkIDLError` naming the line and what was expected there.
    /// The description of an interface text compiled into the program: one that does not parse
    /// is a bug of the program, found by its first test, never an input error.
    public static func builtIn(_ text: String, name: String) -> VarlinkInterfaceDescription {
        do {
            return try VarlinkInterfaceDescription(parsing: text)
        } catch {
            preconditionFailure("the IDL text of \(name) does not parse: \(error)")
        }
    }

    public init(parsing text: String) throws(VarlinkIDLError) {
        var parser = VarlinkIDLParser(text)
        self = try parser.interface()
    }

    init(name: String) {
        self.name = name
        self.types = [:]
        self.methods = [:]
        self.errors = [:]
    }

    /// The first parameter of a call to `method` that the declaration does not allow, as the
    /// dotted path of the member (`front.name`), or nil when the call's parameters conform: no
    /// parameter the method does not declare, every one that is not optional present and not
    /// null, each of its declared type. Members of nested objects that the type does not declare
    /// are let through, so that a client may send fields a later version adds.
    /// - Precondition: the interface declares `method`.
    public func invalidParameter(in parameters: [String: JSONValue], of method: String) -> String? {
        guard let declared = methods[method] else { preconditionFailure("\(name) declares no method \(method)") }
        let names = Set(declared.input.map(\.name))
        if let unknown = parameters.keys.filter({ !names.contains($0) }).min() { return unknown }
        for field in declared.input {
            if let path = invalidMember(parameters[field.name], of: field.type, at: field.name) { return path }
        }
        return nil
    }

    /// The dotted path of the first of `fields` that `parameters` lacks or holds with another
    /// type, or nil: a reply's or an error's parameters against their declaration. Members not
    /// declared are let through, as a client lets through fields a later version adds.
    public func invalidMember(of parameters: [String: JSONValue], declared fields: [VarlinkField]) -> String? {
        for field in fields {
            if let path = invalidMember(parameters[field.name], of: field.type, at: field.name) { return path }
        }
        return nil
    }

    /// The dotted path of the first member of `value` that is not of `type`, or nil.
    /// `value` nil stands for an absent member.
    func invalidMember(_ value: JSONValue?, of type: VarlinkType, at path: String) -> String? {
        guard let value, value != .null else { return type.isOptional ? nil : path }
        switch type {
        case .optional(let wrapped):
            return invalidMember(value, of: wrapped, at: path)
        case .bool:
            return value.boolValue == nil ? path : nil
        case .int:
            return value.intValue == nil ? path : nil
        case .float:
            if case .double = value { return nil }
            return value.intValue == nil ? path : nil
        case .string:
            return value.stringValue == nil ? path : nil
        case .object:
            return value.objectValue == nil ? path : nil
        case .enumeration(let cases):
            guard let string = value.stringValue, cases.contains(string) else { return path }
            return nil
        case .named(let typeName):
            guard let declared = types[typeName] else { return path }
            return invalidMember(value, of: declared, at: path)
        case .array(let elementType):
            guard case .array(let elements) = value else { return path }
            for (index, element) in elements.enumerated() {
                if let bad = invalidMember(element, of: elementType, at: "\(path).\(index)") { return bad }
            }
            return nil
        case .map(let elementType):
            guard case .object(let members) = value else { return path }
            for key in members.keys.sorted() {
                if let bad = invalidMember(members[key], of: elementType, at: "\(path).\(key)") { return bad }
            }
            return nil
        case .structure(let fields):
            guard case .object(let members) = value else { return path }
            for field in fields {
                if let bad = invalidMember(members[field.name], of: field.type, at: "\(path).\(field.name)") {
                    return bad
                }
            }
            return nil
        }
    }
}
