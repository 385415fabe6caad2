import LeitnerWeb
import Testing
@testable import leitner_fuzz

/// The HTTP mode's browser requests (docs/web.md, "Fuzzing"): made from leitner-web's route
/// table, so that every route is fuzzed, a new one included.
@Suite struct HTTPTemplatesTests {
    @Test func aRequestReachesEveryRouteOfTheTable() throws {
        var reached = Set<String>()
        for template in HTTPEdges.templates(cookie: "leitner_session=00", csrf: "c0", handle: "ab12") {
            var parser = HTTPRequestParser()
            // The one with `Expect: 100-continue` waits for the rest of its body: it reaches no route.
            guard case .complete(let request, _) = parser.parse(Array(template.utf8)) else { continue }
            let segments = try #require(PercentEncoding.pathSegments(request.path))
            if let (route, _) = WebRoute.find(request.method, segments) { reached.insert("\(route.method.rawValue) \(route.pattern)") }
        }
        #expect(reached == Set(WebRoute.table.map { "\($0.method.rawValue) \($0.pattern)" }))
    }

    /// The add page's multipart forms are whole: each is one request to `POST /cards/new` whose
    /// body the form's parser reads, with the token, and among them are photos and drawings.
    @Test func theMultipartFormsReachPastTheParser() throws {
        var random = FuzzRandom(seed: 7)
        var files = 0
        for _ in 0..<300 {
            let bytes = MultipartBodies.request(&random, cookie: "leitner_session=00", csrf: "c0")
            var parser = HTTPRequestParser()
            guard case .complete(let request, let consumed) = parser.parse(bytes) else {
                Issue.record("a form is not one whole request")
                return
            }
            #expect(consumed == bytes.count && request.method == .post && request.path == "/cards/new")
            let boundary = try #require(MultipartForm.boundary(contentType: request.header("content-type") ?? ""))
            let form = try #require(MultipartForm(body: request.body, boundary: boundary))
            #expect(form.fields["csrf"] != nil)
            files += form.files.count
        }
        #expect(files > 100)
    }
}
