import LeitnerCore

/// Answers one message: reads it as a Varlink call, routes it to its interface and method, and
/// turns what went wrong into the error a Varlink client expects (SPEC §4). Calls to
/// `io.leitner.Box` go to the one owner of the box, `BoxService`; `org.varlink.service` needs no box.
/// Runs on the connection's thread, and waits there for its turn at the box.
struct Dispatcher: Sendable {
    let service: BoxService

    /// The answer to one message: the reply frame (nil for a `oneway` call), and whether the
    /// connection must close after it (a message that is not a JSON object).
    struct Answer {
        var frame: [UInt8]?
        var closeReason: String?
    }

    func answer(_ message: [UInt8]) -> Answer {
        let request: VarlinkRequest
        do throws(VarlinkMessageError) {
            request = try VarlinkRequest(parsing: message)
        } catch {
            switch error {
            case .invalidJSON, .notAnObject:
                // The stream can no longer be trusted: answer, then close (SPEC §4).
                return Answer(frame: Self.refusal(reason: "\(error)").frame, closeReason: "\(error)")
            case .missingMethod, .methodNotString:
                return Answer(frame: VarlinkReply.invalidParameter("method").frame)
            case .parametersNotObject:
                return Answer(frame: VarlinkReply.invalidParameter("parameters").frame)
            case .flagNotBoolean(let name, _):
                return Answer(frame: VarlinkReply.invalidParameter(name).frame)
            case .errorNotString:
                return Answer(frame: VarlinkReply.invalidParameter("error").frame)
            }
        }
        let reply = route(request)
        return Answer(frame: request.oneway ? nil : reply.frame)
    }

    /// The reply to a well-formed call.
    private func route(_ request: VarlinkRequest) -> VarlinkReply {
        guard let interface = request.interface else { return .interfaceNotFound(request.method) }
        let name = String(request.method[request.method.index(after: interface.endIndex)...])
        switch interface {
        case ServiceInterface.name:
            guard let handler = ServiceInterface.handlers[name] else { return .methodNotFound(request.method) }
            if request.more || request.upgrade { return .methodNotImplemented(request.method) }
            return ErrorReplies.catching(storePath: service.storePath) { () throws -> [String: JSONValue] in
                try handler(CallParameters(request.parameters))
            }
        case BoxMethods.interface:
            guard let handler = BoxMethods.handlers[name] else { return .methodNotFound(request.method) }
            if request.more || request.upgrade { return .methodNotImplemented(request.method) }
            return service.callNow(handler, CallParameters(request.parameters))
        default:
            return .interfaceNotFound(String(interface))
        }
    }

    /// The error sent before closing a connection whose message is not a JSON object or is too
    /// large. Varlink has no standard error for a malformed stream; `InvalidParameter` naming
    /// the message itself is the closest a client understands, and `reason` says what was wrong.
    static func refusal(reason: String) -> VarlinkReply {
        .error("org.varlink.service.InvalidParameter", ["parameter": "message", "reason": .string(reason)])
    }
}
