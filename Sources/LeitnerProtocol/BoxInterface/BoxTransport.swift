import LeitnerVarlink

/// How a `BoxClient` reaches the daemon: one call and its reply, or a call with `more` and its
/// replies as they arrive. leitnerctl's transport reconnects and starts the daemon; a plain
/// `VarlinkClient` is one too.
public protocol BoxTransport: AnyObject {
    /// Calls the qualified `method` and returns the reply's parameters.
    /// - Throws: `VarlinkCallError` for the daemon's errors; the transport's own failures.
    func call(_ method: String, _ parameters: [String: JSONValue]) throws -> [String: JSONValue]

    /// Calls the qualified `method` with `more` and hands each reply's parameters to `body`.
    /// - Throws: as `call`, and what `body` throws.
    func stream(_ method: String, _ parameters: [String: JSONValue],
                _ body: ([String: JSONValue]) throws -> Void) throws
}

extension VarlinkClient: BoxTransport {
    public func stream(_ method: String, _ parameters: [String: JSONValue],
                       _ body: ([String: JSONValue]) throws -> Void) throws {
        try callStreaming(method, parameters, body)
    }
}
