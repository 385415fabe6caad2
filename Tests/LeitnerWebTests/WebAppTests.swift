import LeitnerWeb
import Testing

/// The door, the session and the CSRF check, through `WebApp.respond` with a daemon that is
/// down: what is refused must be refused before any call reaches the daemon.
@Suite struct WebAppTests {
    let token = String(repeating: "ab", count: 32)
    let transport = DaemonDownTransport()
    var app: WebApp { WebApp(token: token, secureCookie: false, transport: transport) }

    func get(_ app: WebApp, _ target: String, cookie: String? = nil, headers: [HTTPRequest.Header] = []) -> HTTPResponse {
        let parts = target.split(separator: "?", maxSplits: 1)
        var all = [HTTPRequest.Header(name: "host", value: "x")] + headers
        if let cookie { all.append(HTTPRequest.Header(name: "cookie", value: cookie)) }
        return app.respond(to: HTTPRequest(method: .get, path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : "",
                                           headers: all))
    }

    func post(_ app: WebApp, _ path: String, body: String, cookie: String?) -> HTTPResponse {
        var headers = [HTTPRequest.Header(name: "host", value: "x"),
                       HTTPRequest.Header(name: "content-type", value: "application/x-www-form-urlencoded")]
        if let cookie { headers.append(HTTPRequest.Header(name: "cookie", value: cookie)) }
        return app.respond(to: HTTPRequest(method: .post, path: path, headers: headers, body: Array(body.utf8)))
    }

    func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    func login(_ app: WebApp) -> String {
        let response = get(app, "/?token=\(token)")
        #expect(response.status == 303 && response.header("Location") == "/")
        let cookie = response.header("Set-Cookie") ?? ""
        #expect(cookie.contains("; Path=/; HttpOnly; SameSite=Strict") && !cookie.contains("Secure"))
        return String(cookie.split(separator: ";")[0])
    }

    @Test func withoutTheCookieEveryPageIs401AndCallsNothing() {
        let app = app
        for path in ["/", "/review", "/review/answer?card=x", "/cards", "/cards/a", "/cards/a/asset/front", "/stats"] {
            let response = get(app, path)
            #expect(response.status == 401 && text(response).contains("Open the link"), "\(path)")
            #expect(get(app, path, cookie: "leitner_session=" + String(repeating: "0", count: 64)).status == 401)
        }
        #expect(post(app, "/review/undo", body: "csrf=x", cookie: nil).status == 401)
        #expect(transport.calls.load(ordering: .relaxed) == 0)
    }

    @Test func aWrongTokenLetsNobodyIn() {
        let app = app
        for wrong in ["", "ab", String(repeating: "ab", count: 31) + "ac", token + "0"] {
            let response = get(app, "/?token=\(wrong)")
            #expect(response.status == 401 && response.header("Set-Cookie") == nil)
            #expect(text(response).contains("not the box's token"))
        }
    }

    @Test func behindHTTPSTheCookieIsSecure() {
        let response = get(app, "/?token=\(token)", headers: [HTTPRequest.Header(name: "x-forwarded-proto", value: "https")])
        #expect(response.header("Set-Cookie")?.hasSuffix("; Secure") == true)
        let configured = WebApp(token: token, secureCookie: true, transport: transport)
        #expect(get(configured, "/?token=\(token)").header("Set-Cookie")?.hasSuffix("; Secure") == true)
    }

    @Test func aPostWithoutTheCSRFTokenChangesNothing() {
        let app = app
        let cookie = login(app)
        for body in ["", "card=a&correct=yes", "csrf=&card=a", "csrf=" + String(repeating: "0", count: 64)] {
            let response = post(app, "/review/grade", body: body, cookie: cookie)
            #expect(response.status == 403 && text(response).contains("nothing was changed"))
        }
        #expect(post(app, "/cards/a/move", body: "level=2", cookie: cookie).status == 403)
        var json = HTTPRequest(method: .post, path: "/review/undo",
                               headers: [HTTPRequest.Header(name: "host", value: "x"), HTTPRequest.Header(name: "cookie", value: cookie),
                                         HTTPRequest.Header(name: "content-type", value: "application/json")])
        json.body = Array("{}".utf8)
        #expect(app.respond(to: json).status == 415)
        #expect(transport.calls.load(ordering: .relaxed) == 0)
    }

    @Test func aDaemonThatIsDownIsSaidInWords() {
        let app = app
        let cookie = login(app)
        // The daemon is down: the page says so in words, with 503, after one call.
        let today = get(app, "/", cookie: cookie)
        #expect(today.status == 503 && text(today).contains("The daemon is not running"))
        #expect(text(today).contains("Nothing answers on &#39;/run/test/leitnerd.sock&#39;"))
        #expect(!text(today).contains("name=\"csrf\""))  // an error page carries no form
        let review = get(app, "/review", cookie: cookie)
        #expect(review.status == 503 && text(review).contains("The daemon is not running"))
        #expect(transport.calls.load(ordering: .relaxed) == 2)
        // A page number at the edge of Int (found by leitner-fuzz --http) is no crash.
        for page in ["9223372036854775807", "-9223372036854775808", "0", "x"] {
            #expect(get(app, "/cards?page=\(page)", cookie: cookie).status == 503)
        }
    }

    @Test func securityHeadersOnEveryAnswer() {
        let app = app
        let cookie = login(app)
        for response in [get(app, "/"), get(app, "/", cookie: cookie), get(app, "/../x"), get(app, "/nothing", cookie: cookie),
                         get(app, "/static/\(EmbeddedAssets.styleSheet.name)")] {
            #expect(response.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
            #expect(response.header("X-Content-Type-Options") == "nosniff")
            #expect(response.header("Referrer-Policy") == "no-referrer")
        }
        #expect(get(app, "/static/\(EmbeddedAssets.script.name)").header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(get(app, "/static/app.js").status == 404)
        #expect(get(app, "/static/..%2fPackage.swift").status == 404)
    }

    @Test func aBrokenEscapeIs400AndCloses() {
        let response = get(app, "/cards?q=%zz")
        #expect(response.status == 400 && response.closes)
    }
}
