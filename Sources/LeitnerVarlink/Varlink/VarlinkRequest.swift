/// A Varlink call: `{"method": "io.leitner.Box.Grade", "parameters": {…}, "oneway": …}`.
public struct VarlinkRequest: Sendable, Equatable {
    /// The fully qualified method name, `interface.Method`.
    public var method: String
    public var parameters: [String: JSONValue]
    /// The caller wants no reply.
    public var oneway: Bool
    /// The caller accepts several replies (`continues`).
    public var more: Bool
    /// The caller asks to switch the connection to another protocol after the reply.
    public var upgrade: Bool

    public init(method: String, parameters: [String: JSONValue] = [:],
                oneway: Bool = false, more: Bool = false, upgrade: Bool = false) {
        self.method = method
        self.parameters = parameters
        self.oneway = oneway
        self.more = more
        self.upgrade = upgrade
    }

    /// Reads a request from a parsed message. A missing `parameters` is an empty object, a
    /// missing flag is false; members the protocol does not know are ignored.
    /// - Throws: `VarlinkMessageError` naming the member that is wrong.
    public init(from message: JSONValue) throws(VarlinkMessageError) {
        guard case .object(let object) = message else { throw .notAnObject(found: message.kindName) }
        guard let method = object["method"] else { throw .missingMethod }
        guard case .string(let name) = method else { throw .methodNotString(found: method.kindName) }
        self.method = name
        parameters = try VarlinkRequest.parametersMember(of: object)
        oneway = try VarlinkRequest.flag("oneway", of: object)
        more = try VarlinkRequest.flag("more", of: object)
        upgrade = try VarlinkRequest.flag("upgrade", of: object)
    }

    /// Parses and reads one framed message (without its NUL).
    /// - Throws: `VarlinkMessageError`; `.invalidJSON` with the offset for bad JSON.
    public init(parsing bytes: [UInt8]) throws(VarlinkMessageError) {
        let value: JSONValue
        do { value = try JSONValue(parsing: bytes) } catch { throw .invalidJSON(error) }
        try self.init(from: value)
    }

    /// The interface part of `method` (`io.leitner.Box`), nil when the name has no dot.
    public var interface: Substring? {
        guard let dot = method.lastIndex(of: ".") else { return nil }
        return method[..<dot]
    }

    /// The message as JSON; flags appear only when true.
    public var json: JSONValue {
        var object: [String: JSONValue] = ["method": .string(method), "parameters": .object(parameters)]
        if oneway { object["oneway"] = true }
        if more { object["more"] = true }
        if upgrade { object["upgrade"] = true }
        return .object(object)
    }

    /// The message as sent: its JSON text and the ending NUL.
    public var frame: [UInt8] { json.frame }

    /// The `parameters` member: an object, or absent (empty).
    static func parametersMember(of object: [String: JSONValue]) throws(VarlinkMessageError) -> [String: JSONValue] {
        guard let value = object["parameters"] else { return [:] }
        guard case .object(let parameters) = value else { throw .parametersNotObject(found: value.kindName) }
        return parameters
    }

    /// A boolean member: true, false, or absent (false).
    static func flag(_ name: String, of object: [String: JSONValue]) throws(VarlinkMessageError) -> Bool {
        guard let value = object[name] else { return false }
        guard case .bool(let flag) = value else { throw .flagNotBoolean(name: name, found: value.kindName) }
        return flag
    }
}
