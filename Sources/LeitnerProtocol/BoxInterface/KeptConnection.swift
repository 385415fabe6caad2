import LeitnerVarlink

/// A client's one kept connection to the daemon, and the rule that keeps a call from being
/// carried out twice (docs/protocol.md, "Connections"): leitnerctl's and leitner-web's
/// transports both call through one of these.
///
/// The daemon closes a connection that sat idle when it needs the place for another client, and
/// every idle one when it stops; a review leaves its connection idle while the person thinks.
/// Such a call is sent once more, on a new connection, only when the daemon cannot have read it:
/// it says so in place of a reply (`ConnectionClosed`), or it had closed the connection before
/// the call was written (`EPIPE`, `VarlinkClientError.closedBeforeCall`). A connection that ends
/// after the call was written, with no word, may have carried the call out (a `Grade` whose
/// reply never came): that is an error, never a second call.
public struct KeptConnection {
    private var client: VarlinkClient?
    /// Makes a new connection: leitnerctl's starts the daemon when nothing answers.
    private let connect: () throws -> VarlinkClient

    /// A kept connection made by `connect` at the first call, and again after one is lost.
    public init(connect: @escaping () throws -> VarlinkClient) {
        self.connect = connect
    }

    /// Calls `method` on the kept connection (made first when there is none), and keeps the
    /// connection the reply came on.
    /// - Throws: `VarlinkCallError` for the daemon's errors, `VarlinkClientError` when the
    ///   connection failed (the next call makes a new one), and what `connect` throws.
    public mutating func call(_ method: String, _ parameters: [String: JSONValue]) throws -> [String: JSONValue] {
        let kept = try client ?? connect()
        client = kept
        do {
            return try kept.call(method, parameters)
        } catch let error where Self.wasNotRead(error) {
            client = nil
            let fresh = try connect()
            client = fresh
            return try fresh.call(method, parameters)
        } catch let error as VarlinkClientError {
            client = nil
            throw error
        }
    }

    /// Calls `method` with `more` on the kept connection and hands each reply's parameters to
    /// `body` as it arrives (docs/protocol.md, "Streamed replies"). Sent again on a new
    /// connection only as `call` does, and only when no reply had come yet.
    /// - Throws: as `call`, and what `body` throws.
    public mutating func stream(_ method: String, _ parameters: [String: JSONValue],
                                _ body: ([String: JSONValue]) throws -> Void) throws {
        let kept = try client ?? connect()
        client = kept
        var received = false
        do {
            try kept.callStreaming(method, parameters) { reply in
                received = true
                try body(reply)
            }
        } catch let error where !received && Self.wasNotRead(error) {
            client = nil
            let fresh = try connect()
            client = fresh
            try fresh.callStreaming(method, parameters, body)
        } catch {
            // A stream cut short leaves the connection in its middle: the next call makes a new one.
            client = nil
            throw error
        }
    }

    /// Closes the kept connection, if any: the next call makes a new one.
    public mutating func drop() {
        client = nil // its socket closes with it
    }

    /// True when the daemon closed the connection without reading the call (see the type).
    public static func wasNotRead(_ error: any Error) -> Bool {
        if let call = error as? VarlinkCallError, case .connectionClosed? = BoxConnectionError(call) { return true }
        if case .closedBeforeCall? = error as? VarlinkClientError { return true }
        return false
    }
}
