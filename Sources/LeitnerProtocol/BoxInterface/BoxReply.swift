import LeitnerVarlink

/// A reply of the daemon as it came and as the interface's types: `json` is what a client that
/// prints JSON prints unchanged (the daemon's members, not a re-encoding), `value` what its views
/// show, decoded once where the reply arrives (`BoxClient`).
public struct BoxReply<Value> {
    /// The reply's parameters as the daemon sent them.
    public let json: [String: JSONValue]
    /// The parameters decoded.
    public let value: Value

    public init(json: [String: JSONValue], value: Value) {
        self.json = json
        self.value = value
    }
}

/// One part of a streamed reply (docs/protocol.md, "Streamed replies"): its items decoded, and
/// the same items as the daemon sent them.
public struct BoxReplyPart<Item> {
    public let items: [Item]
    public let json: [JSONValue]
}

/// A reply that does not decode as the interface says: the daemon answered, in a shape this
/// client does not know (an older or newer leitnerd).
public struct BoxReplyError: Error, CustomStringConvertible {
    /// The method answered, `Grade`.
    public let method: BoxMethod
    /// The member that does not decode, and why.
    public let error: JSONFieldError

    public var description: String { "the daemon's answer to \(method.rawValue) cannot be read: \(error)" }
}
