import LeitnerSystem
import LeitnerWeb
import Testing

/// The route table (`WebRoute.table`): docs/web.md lists it as it is, and each address goes to its
/// entry, through `WebApp.respond` with a daemon in memory (`FakeDaemon`).
@Suite struct WebRouteTests {
    /// The package's root, from this file's path (Tests/LeitnerWebTests/WebRouteTests.swift).
    static let root: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The review's helpers: requests, a browser let in and shown the first card.
    let tools = ReviewToolsTests()

    func request(_ app: WebApp, _ method: HTTPMethod, _ target: String, body: String = "", cookie: String?) -> HTTPResponse {
        tools.request(app, method, target, body: body, cookie: cookie)
    }

    func text(_ response: HTTPResponse) -> String { tools.text(response) }

    @Test func theDocsListTheTable() throws {
        let docs = String(decoding: try FileSystem.readFile(atPath: "\(Self.root)/docs/web.md"), as: UTF8.self)
        let section = try #require(docs.split(separator: "### The routes", maxSplits: 1).last?.split(separator: "\n#").first)
        let listed = section.split(separator: "\n").filter { $0.hasPrefix("- `") }.map { $0.dropFirst(3).prefix { $0 != "`" } }
        #expect(listed.map(String.init) == WebRoute.table.map { "\($0.method.rawValue) \($0.pattern)" })
    }

    /// A side's file is sent under the files' policy (sandboxed, nothing allowed) at both of its
    /// addresses; the review's went out under the pages' policy before the table.
    @Test func aSidesFileIsSandboxedAtBothAddresses() throws {
        let (_, app, cookie, handle, _) = try tools.reviewStarted()
        for target in ["/review/asset/\(handle)/front", "/cards/hund/asset/front"] {
            let policy = request(app, .get, target, cookie: cookie).header("Content-Security-Policy")
            #expect(policy == SecurityHeaders.assetPolicy, "\(target)")
        }
        // An unknown handle or side is the review's 404, under the pages' policy.
        for target in ["/review/asset/00/front", "/review/asset/\(handle)/middle"] {
            let response = request(app, .get, target, cookie: cookie)
            #expect(response.status == 404 && response.header("Content-Security-Policy") == SecurityHeaders.pagePolicy)
            #expect(text(response).contains("<a href=\"/review\" aria-current=\"page\">"), "\(target)")
        }
    }

    /// An address with no route: 404 in its part of the site for a GET, 405 for a POST (after the
    /// CSRF check); a GET-only address refuses a POST, and a POST-only one is not a page.
    @Test func anAddressWithNoRouteIsRefused() throws {
        let (_, app, cookie, _, csrf) = try tools.reviewStarted()
        #expect(request(app, .get, "/review/grade", cookie: cookie).status == 404)
        #expect(text(request(app, .get, "/cards/hund/move", cookie: cookie)).contains("<a href=\"/cards\" aria-current=\"page\">"))
        #expect(request(app, .get, "/stats/x", cookie: cookie).status == 404)
        #expect(request(app, .post, "/stats", body: "csrf=\(csrf)", cookie: cookie).status == 405)
        #expect(request(app, .post, "/cards/hund", body: "csrf=\(csrf)", cookie: cookie).status == 405)
        #expect(request(app, .post, "/cards/hund", body: "csrf=no", cookie: cookie).status == 403)
        #expect(request(app, .post, "/static/\(EmbeddedAssets.styleSheet.name)", body: "", cookie: nil).status == 404)
        #expect(request(app, .get, "/static/\(EmbeddedAssets.styleSheet.name)", cookie: nil).status == 200)
    }
}
