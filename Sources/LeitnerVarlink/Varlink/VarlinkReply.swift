/// A Varlink reply: `{"parameters": {…}}`, or an error `{"error": "io.leitner.Box.NoSuchCard",
/// "parameters": {"id": "hola"}}`; `continues` when more replies follow (a `more` call).
public struct VarlinkReply: Sendable, Equatable {
    /// The method's output parameters, or the error's parameters.
    public var parameters: [String: JSONValue]
    /// The qualified error name, nil for a successful reply.
    public var error: String?
    /// More replies follow this one.
    public var continues: Bool

    public init(parameters: [String: JSONValue] = [:], error: String? = nil, continues: Bool = false) {
        self.parameters = parameters
        self.error = error
        self.continues = continues
    }

    /// An error reply.
    /// - Parameters:
    ///   - name: the qualified error name (`org.varlink.service.InvalidParameter`).
    ///   - parameters: the error's parameters, as its interface declares them.
    public static func error(_ name: String, _ parameters: [String: JSONValue] = [:]) -> VarlinkReply {
        VarlinkReply(parameters: parameters, error: name)
    }

    /// `org.varlink.service.MethodNotFound`: no such method in a known interface.
    public static func methodNotFound(_ method: String) -> VarlinkReply {
        .error(VarlinkServiceInterface.methodNotFound, ["method": .string(method)])
    }

    /// `org.varlink.service.InterfaceNotFound`: the service has no such interface.
    public static func interfaceNotFound(_ interface: String) -> VarlinkReply {
        .error(VarlinkServiceInterface.interfaceNotFound, ["interface": .string(interface)])
    }

    /// `org.varlink.service.InvalidParameter`: a parameter is missing or mistyped.
    public static func invalidParameter(_ parameter: String) -> VarlinkReply {
        .error(VarlinkServiceInterface.invalidParameter, ["parameter": .string(parameter)])
    }

    /// `org.varlink.service.MethodNotImplemented`: the method exists but cannot serve this call.
    public static func methodNotImplemented(_ method: String) -> VarlinkReply {
        .error(VarlinkServiceInterface.methodNotImplemented, ["method": .string(method)])
    }

    /// `org.varlink.service.ExpectedMore`: the method needs a call with `more`.
    public static let expectedMore = VarlinkReply.error(VarlinkServiceInterface.expectedMore)

    /// Reads a reply from a parsed message (the client's side). A missing `parameters` is empty.
    /// - Throws: `VarlinkMessageError` naming the member that is wrong.
    public init(from message: JSONValue) throws(VarlinkMessageError) {
        guard case .object(let object) = message else { throw .notAnObject(found: message.kindName) }
        parameters = try VarlinkRequest.parametersMember(of: object)
        continues = try VarlinkRequest.flag("continues", of: object)
        switch object["error"] {
        case nil: error = nil
        case .string(let name)?: error = name
        case let other?: throw .errorNotString(found: other.kindName)
        }
    }

    /// Parses and reads one framed message (without its NUL).
    /// - Throws: `VarlinkMessageError`; `.invalidJSON` with the offset for bad JSON.
    public init(parsing bytes: [UInt8]) throws(VarlinkMessageError) {
        let value: JSONValue
        do { value = try JSONValue(parsing: bytes) } catch { throw .invalidJSON(error) }
        try self.init(from: value)
    }

    /// The message as JSON: `parameters` always, `error` and `continues` when set.
    public var json: JSONValue {
        var object: [String: JSONValue] = ["parameters": .object(parameters)]
        if let error { object["error"] = .string(error) }
        if continues { object["continues"] = true }
        return .object(object)
    }

    /// The message as sent: its JSON text and the ending NUL.
    public var frame: [UInt8] { json.frame }
}
