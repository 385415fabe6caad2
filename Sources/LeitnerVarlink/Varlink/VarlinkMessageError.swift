/// Why a Varlink message (a request or a reply) is not one: each case names the member and what
/// was found instead, so that the daemon can answer precisely and a client can report it.
public enum VarlinkMessageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The message is not valid JSON.
    case invalidJSON(JSONParseError)
    /// The message is JSON but not an object; `found` is its kind ("an array").
    case notAnObject(found: String)
    /// A request without `method`.
    case missingMethod
    /// A request whose `method` is not a string.
    case methodNotString(found: String)
    /// `parameters` is present and not an object.
    case parametersNotObject(found: String)
    /// A flag (`oneway`, `more`, `upgrade`, `continues`) is present and not a boolean.
    case flagNotBoolean(name: String, found: String)
    /// A reply whose `error` is not a string.
    case errorNotString(found: String)

    public var description: String {
        switch self {
        case .invalidJSON(let error): "\(error)"
        case .notAnObject(let found): "message is not a JSON object but \(found)"
        case .missingMethod: "request has no 'method'"
        case .methodNotString(let found): "'method' is not a string but \(found)"
        case .parametersNotObject(let found): "'parameters' is not an object but \(found)"
        case .flagNotBoolean(let name, let found): "'\(name)' is not a boolean but \(found)"
        case .errorNotString(let found): "'error' is not a string but \(found)"
        }
    }
}
