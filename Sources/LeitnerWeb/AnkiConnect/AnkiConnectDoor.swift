import LeitnerProtocol
import LeitnerVarlink

/// The AnkiConnect door (`[Web] AnkiConnect=`, docs/web.md, "AnkiConnect"): AnkiConnect's
/// protocol, version 6, for a pop-up dictionary's "add card" button (Yomitan) and the scripts
/// that speak it. A POST of `{"action", "version", "params", "key"}` is answered with the
/// action's result — `{"result", "error"}` from version 5 on, the bare result before, as
/// AnkiConnect does, and Yomitan still sends version 2 — and `multi` answers a list of them.
///
/// Any web page may POST to 127.0.0.1, so the door is shut to pages: a request that says an
/// origin not in `[Web] AnkiConnectOrigins=` is refused with 403, no CORS headers and no
/// action on its body; a listed extension's gets the CORS headers (its preflight too).
/// A request with no origin is a program's (curl, a script), not a page's. Every action but
/// the door's own questions needs the key (`leitnerctl web --anki-key`), compared in constant
/// time. The cards are added through the daemon, as every client adds them (`AnkiActions`).
public final class AnkiConnectDoor: HTTPResponder {
    /// The protocol version answered by `version` and `requestPermission`.
    public static let version = 6
    /// The most actions one `multi` carries: far more than a dictionary's lookup sends, and a
    /// bound on the work one request asks.
    static let maxMultiActions = 1000

    let key: String
    let origins: Set<String>
    let served: ServedNames
    let actions: AnkiActions

    /// - Parameters:
    ///   - key: the API key every request must carry (`DeviceBook.ankiConnectKey`).
    ///   - origins: `[Web] AnkiConnectOrigins=`.
    ///   - served: the `Host` names answered, as the site's (a rebinding page's name is not).
    ///   - webAddress: the site's own address (`http://127.0.0.1:8470`), for `guiBrowse`.
    ///   - opener: opens a page of the site in the learner's browser (`guiBrowse`).
    public init(key: String, origins: [String], served: ServedNames, transport: any BoxTransport & Sendable,
                shelf: AnkiMediaShelf, boxName: String?, webAddress: String, opener: @escaping @Sendable (String) -> Bool) {
        self.key = key
        self.origins = Set(origins)
        self.served = served
        actions = AnkiActions(transport: transport, shelf: shelf, boxName: boxName, webAddress: webAddress, opener: opener)
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        var response = route(request)
        response.headers = SecurityHeaders.headers() + response.headers
        return response
    }

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        if let host = request.header("host"), !served.serves(host) {
            return Self.plain(421, "This AnkiConnect door does not answer to the name '\(host)' ([Web] ServerName=, docs/web.md).")
        }
        let origin = request.header("origin")
        if let origin, !origins.contains(origin) {
            // No CORS headers: the page that sent it cannot read even this refusal.
            return Self.plain(403, "The origin '\(origin)' is not in [Web] AnkiConnectOrigins=: nothing was done (docs/web.md, \"AnkiConnect\").")
        }
        var cors: [(name: String, value: String)] = []
        if let origin { cors = [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")] }
        switch request.method {
        case .options:
            cors += [("Access-Control-Allow-Methods", "POST"), ("Access-Control-Allow-Headers", "Content-Type"),
                     ("Access-Control-Max-Age", "600")]
            if request.header("access-control-request-private-network") == "true", origin != nil {
                cors.append(("Access-Control-Allow-Private-Network", "true"))
            }
            return HTTPResponse(status: 204, headers: cors)
        case .get, .head:
            // AnkiConnect's answer to a request with no body: a tool's check that it is there.
            var response = Self.plain(200, "AnkiConnect v.\(Self.version)")
            response.headers += cors
            return response
        case .post:
            break
        }
        guard request.path == "/" else {
            var response = Self.plain(404, "The AnkiConnect door answers at '/' only.")
            response.headers += cors
            return response
        }
        var response = HTTPResponse(status: 200, headers: [("Content-Type", "application/json")] + cors)
        if request.body.isEmpty {
            response.headers[0].value = "text/plain; charset=utf-8"
            response.body = Array("AnkiConnect v.\(Self.version)".utf8)
            return response
        }
        let reply: JSONValue
        do {
            reply = answer(try JSONValue(parsing: request.body), nested: false)
        } catch {
            reply = Self.failure("the request is not JSON: \(error)")
        }
        response.body = reply.serialized
        return response
    }

    /// One request object's reply, as AnkiConnect formats it for the version it asked.
    func answer(_ message: JSONValue, nested: Bool) -> JSONValue {
        guard case .object(let members) = message else {
            return Self.failure("the request is \(message.kindName), not an object {\"action\", \"version\", \"params\", \"key\"}")
        }
        guard let action = members["action"]?.stringValue, !action.isEmpty else {
            return Self.failure("the request has no \"action\" (a string)")
        }
        // AnkiConnect's default: the bare result, as before version 5.
        let version = members["version"]?.intValue ?? 4
        let params: [String: JSONValue]
        switch members["params"] {
        case nil, .null?: params = [:]
        case .object(let object)?: params = object
        case let other?: return Self.failure("\"params\" is \(other.kindName), not an object")
        }
        let offered = members["key"]?.stringValue ?? ""
        // Only the door's question of permission is answered without the key, as AnkiConnect does.
        guard action == "requestPermission" || ConstantTime.equal(offered, key) else {
            return Self.failure("valid api key must be provided")
        }
        let result: JSONValue
        do throws(AnkiError) {
            if action == "multi" {
                result = try multi(params, nested: nested)
            } else {
                result = try actions.perform(action, params)
            }
        } catch {
            return Self.failure(error.message)
        }
        return version <= 4 ? result : .object(["result": result, "error": .null])
    }

    /// `multi`: each action answered as it would be alone (its own key and version), in order.
    private func multi(_ params: [String: JSONValue], nested: Bool) throws(AnkiError) -> JSONValue {
        guard !nested else { throw AnkiError("a multi inside a multi is not answered") }
        guard let list = params["actions"]?.arrayValue else { throw AnkiError("multi needs \"actions\", a list of requests") }
        guard list.count <= Self.maxMultiActions else {
            throw AnkiError("multi of \(list.count) actions: at most \(Self.maxMultiActions) are answered at once")
        }
        return .array(list.map { answer($0, nested: true) })
    }

    /// AnkiConnect's error reply, whatever the version asked.
    static func failure(_ message: String) -> JSONValue {
        .object(["result": .null, "error": .string(message)])
    }

    static func plain(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")],
                     body: Array((text + "\n").utf8))
    }
}

/// An action refused, with AnkiConnect's words where a client reads them (`unsupported action`,
/// `cannot create note because it is a duplicate`).
struct AnkiError: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}
