import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// Answers one message: reads it as a Varlink call, routes it to its interface and method, checks
/// its parameters against the method's declaration in the interface's IDL text (the one place
/// they are declared), and turns what went wrong into the error a Varlink client expects
/// (docs/protocol.md). Which methods there are, and how each is answered, is `methods`, the one
/// table: a call that replies once or streams goes to the box's one owner, `BoxOwner`; the
/// daemon's own (`Stop`, and all of `org.varlink.service`) need no box. Runs on the connection's
/// thread, and waits there for its turn at the box.
struct Dispatcher: Sendable {
    let box: BoxOwner
    /// Where `Stop()` asks the listener to stop.
    let stop: StopRequest

    /// How a method is answered: an entry of the method table says it once, so that a method
    /// cannot be in two kinds at a time.
    enum Method: Sendable {
        /// One reply, made under the box's turn (`BoxOwner.call`).
        case once(BoxMethods.Handler)
        /// Replies that grow with the box, begun under its turn and sent in parts
        /// (docs/daemon.md, "Streamed replies").
        case streams(BoxMethods.StreamHandler)
        /// The daemon's own: never waits for the box, so that a daemon whose box is stuck still
        /// describes itself and can be stopped.
        case daemon(DaemonMethods.Handler)
    }

    /// An interface the daemon serves: its parsed IDL text, the one place its methods and their
    /// parameters are declared, and how each declared method is answered.
    struct Interface: Sendable {
        let declaration: VarlinkInterfaceDescription
        /// By the method's short name, as a call carries it after the interface's name.
        let methods: [String: Method]

        /// The table is written with the interface's own enumeration of its methods
        /// (`BoxMethod`, `VarlinkServiceMethod`), so that a method's name is spelled only there.
        init<Name: RawRepresentable<String> & Hashable>(declaration: VarlinkInterfaceDescription,
                                                         methods: [Name: Method]) {
            self.declaration = declaration
            self.methods = Dictionary(uniqueKeysWithValues: methods.map { ($0.key.rawValue, $0.value) })
        }
    }

    /// The method table: every method the daemon answers, by interface, keyed by the interface's
    /// enumeration of its methods. A unit test (`MethodTableTests`) holds each interface's keys
    /// to the methods its IDL text declares, so that no declared method goes unanswered and no
    /// entry is unreachable. A method written twice traps when the table is first read (a
    /// dictionary literal's repeated key), which that test does.
    static let methods: [String: Interface] = [
        BoxInterface.name: Interface(declaration: BoxInterface.declaration, methods: [
            .status: .once(BoxMethods.status),
            .prepare: .once(BoxMethods.prepare),
            .next: .once(BoxMethods.next),
            .grade: .once(BoxMethods.grade),
            .takeKeptGrade: .once(BoxMethods.takeKeptGrade),
            .keepTest: .once(BoxMethods.keepTest),
            .undo: .once(BoxMethods.undo),
            .add: .once(BoxMethods.add),
            .addMany: .once(BoxMethods.addMany),
            .move: .once(BoxMethods.move),
            .suspend: .once(BoxMethods.suspend),
            .unsuspend: .once(BoxMethods.unsuspend),
            .delete: .once(BoxMethods.delete),
            .edit: .once(BoxMethods.edit),
            .rename: .once(BoxMethods.rename),
            .show: .once(BoxMethods.show),
            .readAsset: .once(BoxMethods.readAsset),
            .readMedium: .once(BoxMethods.readMedium),
            .speech: .once(BoxMethods.speech),
            .addMedia: .once(BoxMethods.addMedia),
            .stats: .once(BoxMethods.stats),
            .resolveConflict: .once(BoxMethods.resolveConflict),
            .addReverse: .once(BoxMethods.addReverse),
            .addCloze: .once(BoxMethods.addCloze),
            .addClozes: .once(BoxMethods.addClozes),
            .tag: .once(BoxMethods.tag),
            .untag: .once(BoxMethods.untag),
            .practice: .once(BoxMethods.practice),
            .tags: .streams(BoxMethods.tags),
            .practiceCards: .streams(BoxMethods.practiceCards),
            .list: .streams(BoxMethods.list),
            .calendar: .streams(BoxMethods.calendar),
            .log: .streams(BoxMethods.log),
            .search: .streams(BoxMethods.search),
            .doctor: .streams(BoxMethods.doctor),
            .stop: .daemon(DaemonMethods.stop),
        ] as [BoxMethod: Method]),
        ServiceInterface.name: Interface(declaration: VarlinkServiceInterface.declaration, methods: [
            .getInfo: .daemon { _, parameters in try ServiceInterface.getInfo(parameters) },
            .getInterfaceDescription: .daemon { _, parameters in try ServiceInterface.getInterfaceDescription(parameters) },
        ] as [VarlinkServiceMethod: Method]),
    ]

    /// The answer to one message: the reply frame (nil for a `oneway` call), or the replies of a
    /// streamed method, made as they are sent; and whether the connection must close after it (a
    /// message that is not a JSON object).
    struct Answer {
        var frame: [UInt8]?
        var stream: (any ReplyStream)?
        var closeReason: String?
    }

    /// The reply to a call: one message, or a stream of them.
    enum Reply {
        case one(VarlinkReply)
        case stream(any ReplyStream)
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
        guard let interfaceName = request.interface else { return .one(.interfaceNotFound(request.method)) }
        guard let interface = Self.methods[String(interfaceName)] else {
            return .one(.interfaceNotFound(String(interfaceName)))
        }
        let name = String(request.method[request.method.index(after: interfaceName.endIndex)...])
        guard interface.declaration.methods[name] != nil else { return .one(.methodNotFound(request.method)) }
        if request.upgrade { return .one(.methodNotImplemented(request.method)) }
        if let bad = interface.declaration.invalidParameter(in: request.parameters, of: name) {
            return .one(.invalidParameter(bad))
        }
        // Declared but not in the table: the unit test keeps this from happening.
        guard let method = interface.methods[name] else { return .one(.methodNotImplemented(request.method)) }
        let parameters = CallParameters(request.parameters)
        switch method {
        case .daemon(let handler):
            let context = DaemonMethods.Context(peer: peer, stop: stop)
            return .one(ErrorReplies.catching(storePath: box.storePath) { () throws -> [String: JSONValue] in
                try handler(context, parameters)
            })
        case .streams(let start):
            switch box.run(wake: wake, { context in try start(context, parameters) }) {
            case .failure(let error):
                return .one(error.reply)
            case .success(let items):
                return .stream(streamedReply(items, limit: limit, more: request.more))
            }
        case .once(let handler):
            return .one(box.call(handler, parameters, wake: wake))
        }
    }

    /// The replies of a streamed method, made as they are sent.
    private func streamedReply<Items: ReplyItems>(_ items: Items, limit: Int, more: Bool) -> any ReplyStream {
        StreamedReply(items: items, parts: VarlinkReplyParts(member: items.member, limit: limit, more: more), owner: box)
    }

    /// The error sent before closing a connection whose message is not a JSON object or is too
    /// large. Varlink has no standard error for a malformed stream; `InvalidParameter` naming
    /// the message itself is the closest a client understands, and `reason` says what was wrong.
    static func refusal(reason: String) -> VarlinkReply {
        .error(VarlinkServiceInterface.invalidParameter,
               ["parameter": .string(VarlinkServiceInterface.messageParameter), "reason": .string(reason)])
    }

    /// `ConnectionClosed`, sent in place of a reply to an idle connection the daemon closes
    /// without reading further (docs/protocol.md): the client may send its call again elsewhere.
    static func goodbye(reason: String) -> VarlinkReply {
        BoxConnectionError.connectionClosed(reason: reason).varlinkReply
    }

    /// `TooManyConnections`, sent to a connection refused at `MaxConnections=` before it is closed.
    static func refusal(limit: Int) -> VarlinkReply {
        BoxConnectionError.tooManyConnections(limit: limit).varlinkReply
    }
}
