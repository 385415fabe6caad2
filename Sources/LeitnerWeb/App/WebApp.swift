import LeitnerCore
import LeitnerProtocol
import LeitnerSystem

/// The site: the routes (`WebRoute.table`), the door (token → cookie), the CSRF check, and the pages, each a call
/// or two to the daemon through `BoxClient`. It knows nothing of sockets: a request in, a response
/// out, so the unit tests drive it with a transport of their own.
public final class WebApp: Sendable {
    /// The box's secret (`WebToken`).
    let token: String
    /// Mark the cookie `Secure` on every response, not only behind a proxy that says HTTPS.
    let secureCookie: Bool
    let transport: any BoxTransport & Sendable
    let sessions: SessionTable
    /// The box served (`leitner-web --box NAME`), named in the pages' titles; nil: the default box.
    let boxName: String?

    public init(token: String, secureCookie: Bool, transport: any BoxTransport & Sendable, maxSessions: Int = 64,
                boxName: String? = nil) {
        self.token = token
        self.boxName = boxName
        self.secureCookie = secureCookie
        self.transport = transport
        sessions = SessionTable(capacity: maxSessions)
    }

    var box: BoxClient { BoxClient(transport) }

    /// The response to `request`, with the security headers.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        var (response, policy) = route(request)
        response.headers = SecurityHeaders.headers(policy: policy) + response.headers
        // A malformed request (a broken escape) closes its connection, as the parser's refusals do.
        if response.status == 400 { response.closes = true }
        return response
    }

    private func route(_ request: HTTPRequest) -> (HTTPResponse, String) {
        guard let segments = PercentEncoding.pathSegments(request.path) else {
            return (notFound(section: nil), SecurityHeaders.pagePolicy)
        }
        // The routes outside the door, whatever the method: their handlers refuse a POST.
        for route in WebRoute.table {
            if case .open(let handler) = route.handler, let values = route.values(segments) { return handler(self, request, values) }
        }
        guard let query = PercentEncoding.formFields(request.query) else {
            return (problem(400, "A broken link", "The address has a broken %-escape.", section: nil), SecurityHeaders.pagePolicy)
        }
        let now = MonotonicTime.now
        if segments.isEmpty, let offered = query["token"] {
            return (door(offered, request: request, now: now), SecurityHeaders.pagePolicy)
        }
        let cookie = CookieHeader.value(in: request.headers.filter { $0.name == "cookie" }.map(\.value))
        guard let id = cookie, let session = sessions.use(id, now: now) else {
            return (HTTPResponse.html(401, DoorPage.html(wrongToken: false)), SecurityHeaders.pagePolicy)
        }
        let visit = Visit(app: self, request: request, segments: segments, query: query, sessionID: id, session: session, now: now)
        return visit.answer()
    }

    /// `/static/FILE`: a file compiled into the program, never a POST's answer.
    func staticFile(_ name: String, request: HTTPRequest) -> (HTTPResponse, String) {
        guard request.method != .post, let file = EmbeddedAssets.file(named: name) else {
            return (notFound(section: nil), SecurityHeaders.pagePolicy)
        }
        return (HTTPResponse(status: 200, headers: [("Content-Type", file.contentType),
                                                    ("Cache-Control", "public, max-age=31536000, immutable")],
                             body: file.bytes), SecurityHeaders.pagePolicy)
    }

    /// `/?token=…`: a right token opens a session and sets its cookie, and the browser is sent
    /// to `/` so that the token leaves the address bar and the history.
    private func door(_ offered: String, request: HTTPRequest, now: MonotonicTime) -> HTTPResponse {
        guard request.method != .post, ConstantTime.equal(offered, token) else {
            return HTTPResponse.html(401, DoorPage.html(wrongToken: true))
        }
        let opened: (id: String, csrf: String)
        do {
            opened = try sessions.open(now: now)
        } catch {
            return problem(500, "No session", "Cannot make a session's random id: \(error).", section: nil)
        }
        var response = HTTPResponse.redirect("/")
        let secure = secureCookie || request.header("x-forwarded-proto")?.lowercased() == "https"
        response.headers.append(("Set-Cookie", CookieHeader.set(opened.id, secure: secure)))
        return response
    }

    func notFound(section: PageSection?) -> HTTPResponse {
        problem(404, "Not found", "There is no page at this address.", section: section)
    }

    func problem(_ status: Int, _ title: String, _ message: String, section: PageSection?) -> HTTPResponse {
        // Without a section the page is outside the door (no session): it names no box.
        HTTPResponse.html(status, ProblemPage.html(title: title, message: message, section: section,
                                                   box: section == nil ? nil : boxName))
    }

    func problem(_ error: any Error, section: PageSection?) -> HTTPResponse {
        let problem = DaemonProblem(error)
        return HTTPResponse.html(problem.status, ProblemPage.html(title: problem.title, message: problem.message, section: section,
                                                                  box: section == nil ? nil : boxName))
    }

    /// Forgets a session (its cookie is then worth nothing).
    func close(session id: String) {
        sessions.close(id)
    }
}
