import LeitnerProtocol
import LeitnerVarlink

/// Tells an answer the daemon may give from one it must never give, for any call: each call gets
/// replies or one error, in time; an error is one its interface declares (or Varlink's own),
/// with the members declared; a reply has the method's declared members; only a call with
/// `more` gets parts.
struct ReplyJudge {
    /// The interfaces the daemon serves, from its own `GetInterfaceDescription`, by name.
    let interfaces: [String: VarlinkInterfaceDescription]
    let socketPath: String

    /// A new connection to the daemon.
    func connect() throws(FuzzFailure) -> FuzzConnection {
        do { return try FuzzConnection(socketPath: socketPath) } catch {
            throw FuzzFailure("cannot connect to '\(socketPath)': \(error)")
        }
    }

    /// Checks the outcome of `call`; returns its replies.
    @discardableResult
    func judge(_ call: FuzzCall, _ outcome: FuzzConnection.Outcome) throws(FuzzFailure) -> [VarlinkReply] {
        let replies: [VarlinkReply]
        switch outcome {
        case .replies(let all):
            replies = all
        case .closed(let after):
            throw FuzzFailure("the connection was closed after \(after.count) replies, without the last", call: call)
        case .timedOut(let after):
            throw FuzzFailure("no reply within 30 s after \(after.count) replies (a hang)", call: call)
        }
        for (index, reply) in replies.enumerated() {
            if reply.continues, !call.more { throw FuzzFailure("a reply with continues to a call without more", call: call) }
            if let error = reply.error {
                if index != replies.count - 1 { throw FuzzFailure("error \(error) followed by more replies", call: call) }
                try declaredError(error, reply.parameters, call)
            } else {
                try declaredReply(reply.parameters, call)
            }
        }
        return replies
    }

    /// A call that must succeed (the invariants' own calls).
    func expectSuccess(_ connection: FuzzConnection, _ method: String, _ parameters: [String: JSONValue],
                       more: Bool = false) throws(FuzzFailure) -> [VarlinkReply] {
        let call = FuzzCall(method: method, parameters: parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value.jsonText) },
                            more: more, purpose: "invariant")
        let replies = try judge(call, connection.send(call))
        if let error = replies.last?.error {
            throw FuzzFailure("invariant: \(error) \(JSONValue.object(replies.last!.parameters).jsonText)", call: call)
        }
        return replies
    }

    /// An error: declared by the interface that names it, with its members.
    private func declaredError(_ name: String, _ parameters: [String: JSONValue], _ call: FuzzCall) throws(FuzzFailure) {
        guard let dot = name.lastIndex(of: "."), let interface = interfaces[String(name[..<dot])],
              let fields = interface.errors[String(name[name.index(after: dot)...])] else {
            throw FuzzFailure("error '\(name)' is declared by no interface the daemon serves", call: call)
        }
        if let bad = interface.invalidMember(of: parameters, declared: fields) {
            let text = JSONValue.object(parameters).jsonText.prefix(300)
            throw FuzzFailure("error '\(name)' has member '\(bad)' missing or of another type: \(text)", call: call)
        }
    }

    /// A reply: the declared output of the method called.
    private func declaredReply(_ parameters: [String: JSONValue], _ call: FuzzCall) throws(FuzzFailure) {
        guard let dot = call.method.lastIndex(of: "."), let interface = interfaces[String(call.method[..<dot])],
              let method = interface.methods[String(call.shortName)] else {
            throw FuzzFailure("a reply to a method no interface declares", call: call)
        }
        if let bad = interface.invalidMember(of: parameters, declared: method.output) {
            let text = JSONValue.object(parameters).jsonText.prefix(300)
            throw FuzzFailure("reply member '\(bad)' missing or of another type: \(text)", call: call)
        }
    }
}
