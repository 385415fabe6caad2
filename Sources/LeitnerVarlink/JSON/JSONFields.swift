/// Reads the members of a JSON object by name and type, for decoding the types of
/// `io.leitner.Box`; every error names the member's full dotted path. A nullable member may be
/// absent or `null`.
package struct JSONFields {
    package let members: [String: JSONValue]
    /// The dotted path of this object ("" for the top level).
    package let path: String

    /// The members of `value`, which must be an object.
    public init(_ value: JSONValue, path: String) throws(JSONFieldError) {
        guard case .object(let members) = value else {
            throw JSONFieldError(field: path, reason: "is not an object but \(value.kindName)")
        }
        self.members = members
        self.path = path
    }

    /// The members of an object already taken apart (a reply's or a call's parameters).
    public init(members: [String: JSONValue], path: String = "") {
        self.members = members
        self.path = path
    }

    /// The full path of member `key`.
    public func field(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The member `key`, which must be present and not null.
    public func required(_ key: String) throws(JSONFieldError) -> JSONValue {
        #if LEITNER_TEST_HOOKS
        JSONFieldReads.current?.record(field(key))
        #endif
        guard let value = members[key] else { throw JSONFieldError(field: field(key), reason: "is missing") }
        if value == .null { throw JSONFieldError(field: field(key), reason: "is null") }
        return value
    }

    /// The member `key`, nil when absent or null.
    public func optional(_ key: String) -> JSONValue? {
        #if LEITNER_TEST_HOOKS
        JSONFieldReads.current?.record(field(key))
        #endif
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    /// The error for member `key` holding `value` where `expected` was needed.
    public func mistyped(_ key: String, _ value: JSONValue, expected: String) -> JSONFieldError {
        JSONFieldError(field: field(key), reason: "is not \(expected) but \(value.kindName)")
    }

    /// The member `key`, of the kind `get` takes (`\.stringValue`); `expected` names it.
    /// - Throws: `JSONFieldError` when missing or of another kind.
    public func required<T>(_ key: String, _ expected: String, _ get: (JSONValue) -> T?) throws(JSONFieldError) -> T {
        let value = try required(key)
        guard let typed = get(value) else { throw mistyped(key, value, expected: expected) }
        return typed
    }

    /// Like `required(_:_:_:)`, nil when the member is absent or null.
    public func optional<T>(_ key: String, _ expected: String, _ get: (JSONValue) -> T?) throws(JSONFieldError) -> T? {
        guard let value = optional(key) else { return nil }
        guard let typed = get(value) else { throw mistyped(key, value, expected: expected) }
        return typed
    }

    /// The member `key` as a string. - Throws: `JSONFieldError` when missing or mistyped.
    public func string(_ key: String) throws(JSONFieldError) -> String { try required(key, "a string", \.stringValue) }

    /// The member `key` as a string, nil when absent or null. - Throws: `JSONFieldError` when mistyped.
    public func optionalString(_ key: String) throws(JSONFieldError) -> String? { try optional(key, "a string", \.stringValue) }

    /// The member `key` as a boolean. - Throws: `JSONFieldError` when missing or mistyped.
    public func bool(_ key: String) throws(JSONFieldError) -> Bool { try required(key, "a boolean", \.boolValue) }

    /// The member `key` as a boolean, nil when absent or null. - Throws: `JSONFieldError` when mistyped.
    public func optionalBool(_ key: String) throws(JSONFieldError) -> Bool? { try optional(key, "a boolean", \.boolValue) }

    /// The member `key` as an array of strings, nil when absent or null. - Throws: `JSONFieldError` when mistyped.
    public func optionalStrings(_ key: String) throws(JSONFieldError) -> [String]? {
        try optional(key, "an array of strings") { value in
            value.arrayValue.flatMap { items in
                let strings = items.compactMap(\.stringValue)
                return strings.count == items.count ? strings : nil
            }
        }
    }

    /// The member `key` as an integer. - Throws: `JSONFieldError` when missing or mistyped.
    public func int(_ key: String) throws(JSONFieldError) -> Int { try required(key, "an integer", \.intValue) }

    /// The member `key` as an integer, nil when absent or null. - Throws: `JSONFieldError` when mistyped.
    public func optionalInt(_ key: String) throws(JSONFieldError) -> Int? { try optional(key, "an integer", \.intValue) }

    /// The member `key` as an array. - Throws: `JSONFieldError` when missing or mistyped.
    public func array(_ key: String) throws(JSONFieldError) -> [JSONValue] { try required(key, "an array", \.arrayValue) }

    /// The member `key` as an object, to read its own members.
    public func object(_ key: String) throws(JSONFieldError) -> JSONFields {
        try JSONFields(required(key), path: field(key))
    }

    /// A member whose string is one of a fixed set of names (a level, an enum of the interface).
    public func named<T>(_ key: String, _ what: String, _ make: (String) -> T?) throws(JSONFieldError) -> T {
        let name = try string(key)
        guard let value = make(name) else { throw JSONFieldError(field: field(key), reason: "'\(name)' is not \(what)") }
        return value
    }

    /// Like `named`, nil when the member is absent or null.
    public func optionalNamed<T>(_ key: String, _ what: String, _ make: (String) -> T?) throws(JSONFieldError) -> T? {
        guard let name = try optionalString(key) else { return nil }
        guard let value = make(name) else { throw JSONFieldError(field: field(key), reason: "'\(name)' is not \(what)") }
        return value
    }

    /// An array of objects, each decoded by `decode` with its own path (`cards.3`).
    public func objects<T>(_ key: String, _ decode: (JSONValue, String) throws(JSONFieldError) -> T) throws(JSONFieldError) -> [T] {
        var result: [T] = []
        for (index, element) in try array(key).enumerated() {
            result.append(try decode(element, "\(field(key)).\(index)"))
        }
        return result
    }

    /// Like `objects`, nil when the member is absent or null (a member a newer peer added).
    public func optionalObjects<T>(_ key: String, _ decode: (JSONValue, String) throws(JSONFieldError) -> T) throws(JSONFieldError) -> [T]? {
        guard optional(key) != nil else { return nil }
        return try objects(key, decode)
    }
}
