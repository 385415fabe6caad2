import LeitnerProtocol
import LeitnerSystem
import LeitnerWeb

/// A `WebApp` for the unit tests: its devices in a new temporary directory, served on port 8470
/// of the loopback names, on a clock the test sets.
enum TestSite {
    static let port: UInt16 = 8470

    static func app(_ transport: any BoxTransport & Sendable, secureCookie: Bool = false, boxName: String? = nil,
                    serverNames: [String] = [], clock: @escaping @Sendable () -> Int64 = { 1_800_000_000 }) -> WebApp {
        let directory = try! FileSystem.makeTemporaryDirectory(prefix: "leitner-web-test")
        return WebApp(devices: DeviceBook(directory: directory + "/state", box: boxName), served: ServedNames(serverNames),
                      cookie: CookieHeader(box: boxName, port: port), secureCookie: secureCookie, transport: transport,
                      boxName: boxName, clock: clock)
    }

    /// A new pairing link's path, as `leitner-web --pair` makes it.
    static func pairingPath(_ app: WebApp, now: Int64 = 1_800_000_000) -> String {
        "/pair/" + (try! app.devices.newPairingCode(now: now))
    }

    /// A browser's GET of `target` (path and query), with `host`.
    static func get(_ app: WebApp, _ target: String, host: String = "127.0.0.1:8470", headers: [HTTPRequest.Header] = []) -> HTTPResponse {
        let parts = target.split(separator: "?", maxSplits: 1)
        return app.respond(to: HTTPRequest(method: .get, path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : "",
                                           headers: [HTTPRequest.Header(name: "host", value: host)] + headers))
    }

    /// Pairs a browser: its cookie, `name=value`.
    static func login(_ app: WebApp, userAgent: String? = nil) -> String {
        let headers = userAgent.map { [HTTPRequest.Header(name: "user-agent", value: $0)] } ?? []
        let response = get(app, pairingPath(app), headers: headers)
        return String((response.header("Set-Cookie") ?? "").split(separator: ";")[0])
    }
}
