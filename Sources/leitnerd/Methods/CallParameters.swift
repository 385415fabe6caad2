import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink

/// Typed access to the parameters of one call, already checked against the method's declaration
/// (`Dispatcher`). Each accessor still throws `InvalidParameter` naming the parameter when it is
/// missing or of another type, so that a handler asking for what its method does not declare
/// fails the call rather than the daemon; an optional one may be absent or null.
struct CallParameters {
    let values: [String: JSONValue]

    init(_ values: [String: JSONValue]) {
        self.values = values
    }

    func string(_ name: String) throws(InvalidParameter) -> String {
        guard let value = try optionalString(name) else { throw InvalidParameter(name: name) }
        return value
    }

    func optionalString(_ name: String) throws(InvalidParameter) -> String? {
        try optional(name) { $0.stringValue }
    }

    func bool(_ name: String) throws(InvalidParameter) -> Bool {
        guard let value = try optionalBool(name) else { throw InvalidParameter(name: name) }
        return value
    }

    func optionalBool(_ name: String) throws(InvalidParameter) -> Bool? {
        try optional(name) { $0.boolValue }
    }

    /// An integer parameter, checked before any arithmetic touches it (docs/protocol.md, "Numbers
    /// from clients"): below `range` it is `InvalidParameter`; above, it is the range's upper
    /// bound with `clampingAbove`, else `InvalidParameter`. The only way a handler reads an
    /// integer: a client's number is never used unbounded.
    func optionalInt(_ name: String, in range: ClosedRange<Int>, clampingAbove: Bool) throws(InvalidParameter) -> Int? {
        guard let value = try optional(name, { $0.intValue }) else { return nil }
        if value < range.lowerBound { throw InvalidParameter(name: name) }
        if value > range.upperBound {
            guard clampingAbove else { throw InvalidParameter(name: name) }
            return range.upperBound
        }
        return value
    }

    /// A parameter of an enum type: one of `cases`, else `InvalidParameter`.
    func enumeration<E: RawRepresentable<String>>(_ name: String, as type: E.Type) throws(InvalidParameter) -> E {
        guard let value = E(rawValue: try string(name)) else { throw InvalidParameter(name: name) }
        return value
    }

    /// An optional array of strings; an element that is no string is `InvalidParameter`.
    func optionalStrings(_ name: String) throws(InvalidParameter) -> [String]? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let array = value.arrayValue else { throw InvalidParameter(name: name) }
        var strings: [String] = []
        strings.reserveCapacity(array.count)
        for element in array {
            guard let string = element.stringValue else { throw InvalidParameter(name: name) }
            strings.append(string)
        }
        return strings
    }

    /// An optional array of level names (`levels`); a name that is no level is
    /// `InvalidParameter`.
    func optionalLevels(_ name: String) throws(InvalidParameter) -> [Level]? {
        guard let names = try optionalStrings(name) else { return nil }
        var levels: [Level] = []
        for level in names {
            guard let parsed = Level(name: level) else { throw InvalidParameter(name: name) }
            levels.append(parsed)
        }
        return levels
    }

    /// An optional `ListPosition` (`List`'s `after`, `before`): a level's name and a valid id,
    /// else `InvalidParameter`.
    func optionalPosition(_ name: String) throws(InvalidParameter) -> ListPosition? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let level = value["level"]?.stringValue.flatMap({ Level(name: $0) }) else { throw InvalidParameter(name: name + ".level") }
        guard let id = value["id"]?.stringValue, CardID.isValid(id) else { throw InvalidParameter(name: name + ".id") }
        return ListPosition(level: level, id: id)
    }

    /// The filter by tag of the parameters `tags` and `notTags` (R25).
    /// - Throws: `InvalidParameter` for a list that is not of strings; `BoxError.invalidTag`
    ///   for a tag that breaks the rules.
    func tagFilter() throws -> TagFilter {
        try TagFilter(tags: optionalStrings("tags") ?? [], notTags: optionalStrings("notTags") ?? [])
    }

    /// An array of strings (`Suspend`'s ids): absent is none; every element a string, else
    /// `InvalidParameter`.
    func strings(_ name: String) throws(InvalidParameter) -> [String] {
        try optionalStrings(name) ?? []
    }

    /// A parameter that must be present and not null, as it is.
    func required(_ name: String) throws(InvalidParameter) -> JSONValue {
        guard let value = values[name], !value.isNull else { throw InvalidParameter(name: name) }
        return value
    }

    /// Absent and null are nil; another type than `extract` accepts is `InvalidParameter`.
    private func optional<T>(_ name: String, _ extract: (JSONValue) -> T?) throws(InvalidParameter) -> T? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let typed = extract(value) else { throw InvalidParameter(name: name) }
        return typed
    }
}
