/// Typed access to parts of a value: each accessor is nil when the value is of another kind, so
/// that a handler can tell a missing parameter from a mistyped one.
extension JSONValue {
    /// The member `key` of an object; nil for a missing key or when this is not an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `index` of an array; nil when out of range or when this is not an array.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, when this is an integer that fits `Int`. A number with a fraction or an
    /// exponent is not an integer here, even when its value is whole.
    public var intValue: Int? {
        if case .int(let value) = self { return Int(exactly: value) }
        return nil
    }

    /// The number as a double, for an integer or a double.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The boolean, when this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, when this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// True for `null`.
    public var isNull: Bool { self == .null }

    /// The name of this value's kind as error messages say it: "a string", "an object", ….
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
