import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import Synchronization

/// The site: the names it serves (`ServedNames`), the routes (`WebRoute.table`), the pairing of
/// a device (one-time link → cookie), the CSRF check, and the pages, each a call or two to the
/// daemon through `BoxClient`. It knows nothing of sockets: a request in, a response out, so the
/// unit tests drive it with a transport and a clock of their own.
public final class WebApp: Sendable {
    /// The paired devices and the pairing codes (docs/web.md, "What is stored where").
    public let devices: DeviceBook
    /// The `Host` names answered.
    let served: ServedNames
    let cookie: CookieHeader
    /// Mark the cookie `Secure` (and `__Host-`) on every response, not only behind a proxy that says HTTPS.
    let secureCookie: Bool
    let transport: any BoxTransport & Sendable
    let sessions: SessionTable
    /// The box served (`leitner-web --box NAME`), named in the pages' titles; nil: the default box.
    let boxName: String?
    /// Whether a typed answer is compared without its accents (`[Review] IgnoreAccents=`, R32).
    let ignoresAccents: Bool
    /// Seconds since the epoch, for pairing codes' and devices' times.
    let clock: @Sendable () -> Int64
    /// The statistics page last drawn and the figures it shows: drawn again only when the
    /// daemon's figures differ (a grade, a day, a card moved). Drawing the year's heatmap and
    /// charts took more than half of the page's time in leitner-web.
    private let statisticsPage = Mutex<(stats: BoxStatistics, page: HTML)?>(nil)

    public init(devices: DeviceBook, served: ServedNames, cookie: CookieHeader, secureCookie: Bool,
                transport: any BoxTransport & Sendable, maxSessions: Int = 64, boxName: String? = nil, ignoresAccents: Bool = false,
                clock: @escaping @Sendable () -> Int64 = { RealTime.nanoseconds / 1_000_000_000 }) {
        self.devices = devices
        self.served = served
        self.cookie = cookie
        self.boxName = boxName
        self.ignoresAccents = ignoresAccents
        self.secureCookie = secureCookie
        self.transport = transport
        self.clock = clock
        sessions = SessionTable(capacity: maxSessions)
    }

    var box: BoxClient { BoxClient(transport) }

    /// The statistics page of `stats`: the one last drawn when its figures are the same.
    func statisticsPage(_ stats: BoxStatistics) -> HTML {
        if let kept = statisticsPage.withLock({ $0 }), kept.stats == stats { return kept.page }
        let page = StatsPage.html(stats, box: boxName)
        statisticsPage.withLock { $0 = (stats, page) }
        return page
    }

    /// The response to `request`, with the security headers.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        var (response, policy) = route(request)
        response.headers = SecurityHeaders.headers(policy: policy) + response.headers
        // A malformed request (a broken escape) closes its connection, as the parser's refusals do.
        if response.status == 400 { response.closes = true }
        return response
    }

    /// Whether the request came over HTTPS: a proxy said so, or the configuration says it always does.
    func isSecure(_ request: HTTPRequest) -> Bool {
        secureCookie || request.header("x-forwarded-proto")?.lowercased() == "https"
    }

    private func route(_ request: HTTPRequest) -> (HTTPResponse, String) {
        // A request without Host is HTTP/1.0 (the parser requires it in 1.1): no browser, nothing to rebind.
        if let host = request.header("host"), !served.serves(host) {
            return (problem(421, "Not this server's name",
                            "This server does not answer to the name '\(host)'. If that name is meant to reach it, add it to [Web] ServerName= (docs/web.md).",
                            section: nil), SecurityHeaders.pagePolicy)
        }
        if request.method == .post,
           !ServedNames.sameSite(origin: request.header("origin"), fetchSite: request.header("sec-fetch-site"), host: request.header("host")) {
            return (problem(403, "Sent from another site",
                            "This change came from a page of another site, so nothing was changed. Use the box's own pages.",
                            section: nil), SecurityHeaders.pagePolicy)
        }
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
        let secure = isSecure(request)
        if segments.isEmpty, query["token"] != nil {
            return (HTTPResponse.html(410, DoorPage.html(.oldLink)), SecurityHeaders.pagePolicy)
        }
        let offered = CookieHeader.values(named: cookie.name(secure: secure), in: request.headers.filter { $0.name == "cookie" }.map(\.value))
        guard let device = offered.lazy.compactMap({ self.devices.device(secret: $0) }).first else {
            return (HTTPResponse.html(401, DoorPage.html(offered.isEmpty ? .none : .forgotten)), SecurityHeaders.pagePolicy)
        }
        let session: Session
        do {
            session = try sessions.use(device.secret, now: now)
        } catch {
            return (problem(500, "No session", "Cannot make a session's random CSRF token: \(error).", section: nil), SecurityHeaders.pagePolicy)
        }
        devices.seen(device, now: clock())
        let visit = Visit(app: self, request: request, segments: segments, query: query, device: device, session: session, now: now)
        var (response, policy) = visit.answer()
        // Renewed as it is used: each page sets the cookie's 400 days again.
        if response.header("Set-Cookie") == nil, response.header("Content-Type")?.hasPrefix("text/html") == true || response.status == 303 {
            response.headers.append(("Set-Cookie", cookie.set(device.secret, secure: secure)))
        }
        return (response, policy)
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

    /// `/worker.js`: the service worker of reviewing offline (`OfflineWorker`), at the root so
    /// that its scope is the whole site; checked for a new version at every visit (`no-cache`).
    func worker(request: HTTPRequest) -> (HTTPResponse, String) {
        guard request.method != .post else { return (notFound(section: nil), SecurityHeaders.pagePolicy) }
        return (HTTPResponse(status: 200, headers: [("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "no-cache")],
                             body: Array(OfflineWorker.text.utf8)), SecurityHeaders.pagePolicy)
    }

    /// `/pair/CODE`: a pairing code not yet used nor past its time makes this browser a device,
    /// sets its cookie, and sends it to Today; the code is used up, so the link opens once.
    func pair(_ code: String, request: HTTPRequest) -> (HTTPResponse, String) {
        guard request.method != .post else { return (notFound(section: nil), SecurityHeaders.pagePolicy) }
        let device: Device?
        do {
            device = try devices.pair(code: code, userAgent: request.header("user-agent"), now: clock())
        } catch {
            return (problem(500, "Not paired", "\(error)", section: nil), SecurityHeaders.pagePolicy)
        }
        guard let device else { return (HTTPResponse.html(401, DoorPage.html(.usedLink)), SecurityHeaders.pagePolicy) }
        var response = HTTPResponse.redirect("/")
        response.headers.append(("Set-Cookie", cookie.set(device.secret, secure: isSecure(request))))
        return (response, SecurityHeaders.pagePolicy)
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

    /// Forgets a device: its cookie opens nothing from then on.
    func revoke(_ device: Device) throws(DeviceBook.Failure) {
        try devices.revoke(device.id)
        sessions.close(device.secret)
    }
}
