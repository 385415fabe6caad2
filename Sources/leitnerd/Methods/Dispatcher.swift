import LeitnerCore
import LeitnerProtocol
import LeitnerSystem

/// Answers one message: reads it as a Varlink call, routes it to its interface and method, checks
/// its parameters against the method's declaration in the interface's IDL text (the one place
/// they are declared), and turns what went wrong into the error a Varlink client expects
/// (docs/protocol.md). Calls to `io.leitner.Box` go to the box's one owner, `BoxOwner`, except
/// the daemon's own (`DaemonMethods`: `Stop`); `org.varlink.service` needs no box. Runs on the
/// connection's thread, and waits there for its turn at the box.
struct Dispatcher: Sendable {
    let box: BoxOwner
    /// Where `Stop()` asks the listener to stop.
    let stop: StopRequest

    /// The answer to one message: the reply frame (nil for a `oneway` call), or the replies of a
    /// streamed method, made as they are sent; and whether the connection must close after it (a
    /// message that is not a JSON object).
    struct Answer {
        var frame: [UInt8]?
        var stream: StreamedReply?
        var closeReason: String?
    }

    /// The reply to a call: one message, or a stream of them.
    enum Reply {
        case one(VarlinkReply)
        case stream(StreamedReply)
    }

    /// A message as read: a call to answer, or already its answer (it is not a call).
    enum Message {
        case call(VarlinkRequest)
        case answered(Answer)
    }

    /// Reads a message in place, from the connection's buffer (docs/daemon.md, "Memory"): the
    /// call keeps what it parsed, not the message's bytes.
    static func read(_ bytes: UnsafeRawBufferPointer) -> Message {
        let request: VarlinkRequest
        do throws(VarlinkMessageError) {
            let value: JSONValue
            do { value = try JSONValue(parsing: bytes) } catch { throw .invalidJSON(error) }
            request = try VarlinkRequest(from: value)
        } catch {
            switch error {
            case .invalidJSON, .notAnObject:
                // The stream can no longer be trusted: answer, then close (docs/protocol.md).
                return .answered(Answer(frame: refusal(reason: "\(error)").frame, closeReason: "\(error)"))
            case .missingMethod, .methodNotString:
                return .answered(Answer(frame: VarlinkReply.invalidParameter("method").frame))
            case .parametersNotObject:
                return .answered(Answer(frame: VarlinkReply.invalidParameter("parameters").frame))
            case .flagNotBoolean(let name, _):
                return .answered(Answer(frame: VarlinkReply.invalidParameter(name).frame))
            case .errorNotString:
                return .answered(Answer(frame: VarlinkReply.invalidParameter("error").frame))
            }
        }
        return .call(request)
    }

    /// Answers a message read by `read(_:)`.
    /// - Parameters:
    ///   - limit: the connection's message size limit, which no reply of a streamed method passes.
    ///   - wake: the calling thread's doorbell, for its wait at the box.
    ///   - peer: who sent it.
    func answer(_ message: consuming Message, limit: Int, wake: Wake, peer: Socket.PeerCredentials) -> Answer {
        switch consume message {
        case .answered(let answer):
            return answer
        case .call(let request):
            switch route(request, limit: limit, wake: wake, peer: peer) {
            case .one(let reply): return Answer(frame: request.oneway ? nil : reply.frame)
            case .stream(let stream): return Answer(stream: request.oneway ? nil : stream)
            }
        }
    }

    /// The reply to a well-formed call, whose parameters are first checked against the method's
    /// declaration in the interface's IDL text. `more` is accepted by every method: one whose
    /// reply does not grow with the box answers it with one reply, without `continues`.
    private func route(_ request: VarlinkRequest, limit: Int, wake: Wake, peer: Socket.PeerCredentials) -> Reply {
        guard let interface = request.interface else { return .one(.interfaceNotFound(request.method)) }
        let name = String(request.method[request.method.index(after: interface.endIndex)...])
        switch interface {
        case ServiceInterface.name:
            guard let handler = ServiceInterface.handlers[name] else { return .one(.methodNotFound(request.method)) }
            if request.upgrade { return .one(.methodNotImplemented(request.method)) }
            if let bad = VarlinkServiceInterface.declaration.invalidParameter(in: request.parameters, of: name) {
                return .one(.invalidParameter(bad))
            }
            return .one(ErrorReplies.catching(storePath: box.storePath) { () throws -> [String: JSONValue] in
                try handler(CallParameters(request.parameters))
            })
        case BoxMethods.interface:
            guard BoxInterface.declaration.methods[name] != nil else { return .one(.methodNotFound(request.method)) }
            if request.upgrade { return .one(.methodNotImplemented(request.method)) }
            if let bad = BoxInterface.declaration.invalidParameter(in: request.parameters, of: name) {
                return .one(.invalidParameter(bad))
            }
            let parameters = CallParameters(request.parameters)
            // The daemon's own methods (Stop) never wait for the box.
            if let handler = DaemonMethods.handlers[name] {
                let context = DaemonMethods.Context(peer: peer, stop: stop)
                return .one(ErrorReplies.catching(storePath: box.storePath) { () throws -> [String: JSONValue] in
                    try handler(context, parameters)
                })
            }
            if let start = BoxMethods.streamed[name] {
                switch box.run(wake: wake, { context in try start(context, parameters) }) {
                case .failure(let error):
                    return .one(error.reply)
                case .success(let items):
                    let parts = VarlinkReplyParts(member: items.member, limit: limit, more: request.more)
                    return .stream(StreamedReply(items: items, parts: parts, owner: box))
                }
            }
            guard let handler = BoxMethods.handlers[name] else { return .one(.methodNotImplemented(request.method)) }
            return .one(box.call(handler, parameters, wake: wake))
        default:
            return .one(.interfaceNotFound(String(interface)))
        }
    }

    /// The error sent before closing a connection whose message is not a JSON object or is too
    /// large. Varlink has no standard error for a malformed stream; `InvalidParameter` naming
    /// the message itself is the closest a client understands, and `reason` says what was wrong.
    static func refusal(reason: String) -> VarlinkReply {
        .error("org.varlink.service.InvalidParameter", ["parameter": "message", "reason": .string(reason)])
    }

    /// `ConnectionClosed`, sent in place of a reply to an idle connection the daemon closes
    /// without reading further (docs/protocol.md): the client may send its call again elsewhere.
    static func goodbye(reason: String) -> VarlinkReply {
        .error(BoxInterface.connectionClosed, ["reason": .string(reason)])
    }

    /// `TooManyConnections`, sent to a connection refused at `MaxConnections=` before it is closed.
    static func refusal(limit: Int) -> VarlinkReply {
        .error(BoxInterface.tooManyConnections, ["limit": .int(Int64(limit))])
    }
}
