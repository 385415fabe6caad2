import LeitnerWeb
import Testing

/// The door (pairing, devices, the cookie), the served names, the origin and CSRF checks,
/// through `WebApp.respond` with a daemon that is down: what is refused must be refused before
/// any call reaches the daemon.
@Suite struct WebAppTests {
    let transport = DaemonDownTransport()
    var app: WebApp { TestSite.app(transport) }

    func get(_ app: WebApp, _ target: String, cookie: String? = nil, headers: [HTTPRequest.Header] = []) -> HTTPResponse {
        TestSite.get(app, target, headers: headers + (cookie.map { [HTTPRequest.Header(name: "cookie", value: $0)] } ?? []))
    }

    func post(_ app: WebApp, _ path: String, body: String, cookie: String?, headers: [HTTPRequest.Header] = []) -> HTTPResponse {
        var all = [HTTPRequest.Header(name: "host", value: "127.0.0.1:8470"),
                   HTTPRequest.Header(name: "content-type", value: "application/x-www-form-urlencoded")] + headers
        if let cookie { all.append(HTTPRequest.Header(name: "cookie", value: cookie)) }
        return app.respond(to: HTTPRequest(method: .post, path: path, headers: all, body: Array(body.utf8)))
    }

    func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    func login(_ app: WebApp) -> String {
        let response = get(app, TestSite.pairingPath(app))
        #expect(response.status == 303 && response.header("Location") == "/")
        let cookie = response.header("Set-Cookie") ?? ""
        #expect(cookie.hasPrefix("leitner_default_8470=") && cookie.contains("; Path=/; Max-Age=34560000; HttpOnly; SameSite=Strict"))
        #expect(!cookie.contains("Secure"))
        return String(cookie.split(separator: ";")[0])
    }

    @Test func withoutTheCookieEveryPageIs401AndCallsNothing() {
        let app = app
        for path in ["/", "/review", "/review/answer?card=x", "/cards", "/cards/a", "/cards/a/asset/front", "/stats", "/devices"] {
            let response = get(app, path)
            #expect(response.status == 401 && text(response).contains("Pair this browser"), "\(path)")
            #expect(get(app, path, cookie: "leitner_default_8470=" + String(repeating: "0", count: 64)).status == 401)
        }
        #expect(post(app, "/review/undo", body: "csrf=x", cookie: nil).status == 401)
        #expect(transport.calls.load(ordering: .relaxed) == 0)
    }

    @Test func aPairingLinkOpensOnceAndOnlyWithinTenMinutes() {
        let app = app
        let path = TestSite.pairingPath(app)
        #expect(get(app, path).status == 303)
        let again = get(app, path)
        #expect(again.status == 401 && again.header("Set-Cookie") == nil && text(again).contains("used already"))
        // A code made 10 minutes and one second before the clock's time has expired; one made
        // 9 minutes before has not.
        #expect(get(app, TestSite.pairingPath(app, now: 1_800_000_000 - 601)).status == 401)
        #expect(get(app, TestSite.pairingPath(app, now: 1_800_000_000 - 540)).status == 303)
        for wrong in ["", "ab", String(repeating: "0", count: 32)] {
            #expect(get(app, "/pair/\(wrong)").header("Set-Cookie") == nil)
        }
        // A POST pairs nothing.
        let code = TestSite.pairingPath(app)
        #expect(post(app, code, body: "", cookie: nil).header("Set-Cookie") == nil)
        #expect(get(app, code).status == 303)
    }

    @Test func theOldTokenLinkIsRefusedWithWhatToDo() {
        let response = get(app, "/?token=" + String(repeating: "ab", count: 32))
        #expect(response.status == 410 && response.header("Set-Cookie") == nil)
        #expect(text(response).contains("no longer open it") && text(response).contains("leitnerctl web"))
    }

    @Test func aDeviceIsNamedAfterItsBrowserAndRevokingItLetsItOut() throws {
        let app = app
        let android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36"
        let phone = TestSite.login(app, userAgent: android)
        let second = TestSite.login(app, userAgent: android)
        let iphone = TestSite.login(app, userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1")
        #expect(try app.devices.devices().map(\.name) == ["Chrome on Android", "Chrome on Android 2", "Safari on iPhone"])
        #expect(get(app, "/devices", cookie: phone).status == 503 || get(app, "/devices", cookie: phone).status == 200)
        #expect(try app.devices.revoke("Chrome on Android 2")?.name == "Chrome on Android 2")
        #expect(get(app, "/", cookie: second).status == 401 && text(get(app, "/", cookie: second)).contains("was revoked"))
        #expect(get(app, "/", cookie: iphone).status != 401)
        #expect(try app.devices.revoke("Nothing") == nil)
    }

    @Test func theDevicesPageRenamesAndRevokes() throws {
        let app = app
        let mine = login(app)
        let other = login(app)
        let page = text(get(app, "/devices", cookie: mine))
        #expect(page.contains("(this browser)") && page.contains("paired today, last seen today"))
        let csrf = try #require(page.split(separator: "name=\"csrf\" value=\"").dropFirst().first?.prefix { $0 != "\"" })
        let devices = try app.devices.devices()
        let renamed = post(app, "/devices/\(devices[1].id)/rename", body: "csrf=\(csrf)&name=Kitchen%09tablet%0A", cookie: mine)
        #expect(renamed.status == 303 && renamed.header("Location") == "/devices?done=renamed")
        #expect(try app.devices.devices()[1].name == "Kitchen tablet")
        #expect(text(get(app, "/devices?done=renamed", cookie: mine)).contains("Kitchen tablet"))
        #expect(post(app, "/devices/\(devices[1].id)/rename", body: "csrf=\(csrf)&name=%20", cookie: mine).status == 422)
        #expect(post(app, "/devices/\(devices[1].id)/revoke", body: "csrf=" + String(repeating: "0", count: 64), cookie: mine).status == 403)
        #expect(post(app, "/devices/ffffffff/revoke", body: "csrf=\(csrf)", cookie: mine).status == 404)
        #expect(post(app, "/devices/\(devices[1].id)/revoke", body: "csrf=\(csrf)", cookie: mine).status == 303)
        #expect(get(app, "/devices", cookie: other).status == 401)
        // Revoking this browser is logging out: its cookie is cleared.
        let out = post(app, "/devices/\(devices[0].id)/revoke", body: "csrf=\(csrf)", cookie: mine)
        #expect(out.header("Set-Cookie") == "leitner_default_8470=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict")
        #expect(try app.devices.devices().isEmpty && get(app, "/devices", cookie: mine).status == 401)
    }

    @Test func theCookieIsRenewedAsItIsUsed() {
        let app = app
        let cookie = login(app)
        let page = get(app, "/devices", cookie: cookie)
        #expect(page.header("Set-Cookie") == cookie + "; Path=/; Max-Age=34560000; HttpOnly; SameSite=Strict")
    }

    @Test func aCookieShadowedByAnotherPortsPageStillWorks() {
        // Another program on another port of the host sets a cookie of the same name for a
        // narrower path; the browser sends it first. The server tries each value.
        let app = app
        let cookie = login(app)
        #expect(get(app, "/devices", cookie: "leitner_default_8470=0000; " + cookie).status == 200)
    }

    @Test func foreignHostsAreRefusedBeforeAnything() {
        let app = TestSite.app(transport, serverNames: ["leitner.example.org"])
        let cookie = login(app)
        for host in ["evil.example:8470", "evil.example", "127.0.0.1.evil.example", "[::2]:8470", "a:b:c", "leitner.example.org.evil"] {
            let response = TestSite.get(app, "/", host: host, headers: [HTTPRequest.Header(name: "cookie", value: cookie)])
            #expect(response.status == 421 && text(response).contains("ServerName="), "\(host)")
        }
        for host in ["127.0.0.1:8470", "localhost:8470", "LOCALHOST", "[::1]:8470", "leitner.example.org", "Leitner.Example.Org.:443"] {
            #expect(TestSite.get(app, "/devices", host: host, headers: [HTTPRequest.Header(name: "cookie", value: cookie)]).status == 200,
                    "\(host)")
        }
        #expect(transport.calls.load(ordering: .relaxed) == 0)
    }

    @Test func aPostFromAnotherSiteIsRefused() throws {
        let app = app
        let cookie = login(app)
        let page = text(get(app, "/devices", cookie: cookie))
        let csrf = try #require(page.split(separator: "name=\"csrf\" value=\"").dropFirst().first?.prefix { $0 != "\"" })
        let id = try app.devices.devices()[0].id
        let foreign: [[HTTPRequest.Header]] = [
            [HTTPRequest.Header(name: "origin", value: "http://evil.example")],
            [HTTPRequest.Header(name: "origin", value: "http://127.0.0.1:9999")],
            [HTTPRequest.Header(name: "origin", value: "null"), HTTPRequest.Header(name: "sec-fetch-site", value: "cross-site")],
            [HTTPRequest.Header(name: "origin", value: "http://127.0.0.1:8470"), HTTPRequest.Header(name: "sec-fetch-site", value: "cross-site")],
            [HTTPRequest.Header(name: "sec-fetch-site", value: "cross-site")],
            [HTTPRequest.Header(name: "sec-fetch-site", value: "same-site")],
        ]
        for headers in foreign {
            let response = post(app, "/devices/\(id)/rename", body: "csrf=\(csrf)&name=x", cookie: cookie, headers: headers)
            #expect(response.status == 403 && text(response).contains("another site"), "\(headers)")
        }
        #expect(try app.devices.devices()[0].name != "x")
        let same = [HTTPRequest.Header(name: "origin", value: "http://127.0.0.1:8470"), HTTPRequest.Header(name: "sec-fetch-site", value: "same-origin")]
        #expect(post(app, "/devices/\(id)/rename", body: "csrf=\(csrf)&name=x", cookie: cookie, headers: same).status == 303)
        // Our own form under Referrer-Policy: no-referrer, as Chromium sends it.
        #expect(ServedNames.sameSite(origin: "null", fetchSite: "same-origin", host: "127.0.0.1:8470"))
        #expect(ServedNames.sameSite(origin: "https://leitner.example.org", fetchSite: nil, host: "leitner.example.org:443"))
        #expect(!ServedNames.sameSite(origin: "https://leitner.example.org", fetchSite: nil, host: "leitner.example.org:8443"))
    }

    @Test func behindHTTPSTheCookieIsHostPrefixedAndSecure() {
        let app = app
        let response = get(app, TestSite.pairingPath(app), headers: [HTTPRequest.Header(name: "x-forwarded-proto", value: "https")])
        let set = response.header("Set-Cookie") ?? ""
        #expect(set.hasPrefix("__Host-leitner_default_8470=") && set.hasSuffix("; Secure"))
        // Over HTTPS only the __Host- cookie is read: a plain one of the same value opens nothing.
        let secret = set.split(separator: ";")[0].split(separator: "=")[1]
        let https = [HTTPRequest.Header(name: "x-forwarded-proto", value: "https")]
        #expect(get(app, "/devices", cookie: "leitner_default_8470=\(secret)", headers: https).status == 401)
        #expect(get(app, "/devices", cookie: "__Host-leitner_default_8470=\(secret)", headers: https).status == 200)
        let configured = TestSite.app(transport, secureCookie: true)
        #expect(get(configured, TestSite.pairingPath(configured)).header("Set-Cookie")?.hasSuffix("; Secure") == true)
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
                               headers: [HTTPRequest.Header(name: "host", value: "127.0.0.1"), HTTPRequest.Header(name: "cookie", value: cookie),
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
