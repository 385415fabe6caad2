/// A JSON value, as Varlink messages carry them. Parsing and serialising live in
/// `JSONValue+Parse.swift` and `JSONValue+Serialize.swift`.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}
