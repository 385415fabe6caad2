import LeitnerWeb
import Testing

@Suite struct HTTPRequestParserTests {
    func parse(_ text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPRequestParser.Outcome {
        var parser = HTTPRequestParser(limits: limits)
        return parser.parse(Array(text.utf8))
    }

    func rejection(_ text: String, limits: HTTPLimits = HTTPLimits()) -> Int? {
        if case .rejected(let rejection) = parse(text, limits: limits) { return rejection.status }
        return nil
    }

    @Test func readsAGetWithItsHeadersAndQuery() throws {
        guard case .complete(let request, let consumed) = parse("GET /cards?q=a+b HTTP/1.1\r\nHost: x\r\nCookie:  a=b \r\n\r\n") else {
            Issue.record("not complete"); return
        }
        #expect(request.method == .get && request.path == "/cards" && request.query == "q=a+b")
        #expect(request.header("cookie") == "a=b" && request.header("host") == "x")
        #expect(consumed == 53 && request.wantsKeepAlive)
    }

    /// A photo's bytes hold bare LFs: when the body arrives in the same read as the head, it is
    /// the body's, not a head line without CR LF (the add page's upload was refused so, #36).
    @Test func aBinaryBodyThatComesWithTheHeadIsRead() throws {
        let body: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 10, 26, 10, 0, 10]
        var parser = HTTPRequestParser()
        let bytes = Array("POST /cards/new HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
        guard case .complete(let request, _) = parser.parse(bytes) else { Issue.record("not complete"); return }
        #expect(request.body == body)
        // A bare LF in the head is still refused at once.
        #expect(rejection("GET / HTTP/1.1\nHost: x\r\n\r\n") == 400)
    }

    @Test func aRequestFedOneByteAtATimeIsTheSame() {
        let text = "POST /review/grade HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nab=cdGET"
        var parser = HTTPRequestParser()
        var buffer: [UInt8] = []
        var outcome = HTTPRequestParser.Outcome.incomplete(expectsContinue: false)
        for byte in text.utf8 {
            buffer.append(byte)
            outcome = parser.parse(buffer)
            if case .complete = outcome { break }
        }
        guard case .complete(let request, let consumed) = outcome else { Issue.record("\(outcome)"); return }
        #expect(request.body == Array("ab=cd".utf8))
        #expect(consumed == text.utf8.count - 3)
    }

    @Test func theLimitsOfTheIssue() {
        #expect(rejection("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: x\r\n\r\n") == 414)
        #expect(rejection("GET /" + String(repeating: "a", count: 9000)) == 414)
        let big = (0..<40).map { "X-\($0): " + String(repeating: "v", count: 1000) + "\r\n" }.joined()
        #expect(rejection("GET / HTTP/1.1\r\nHost: x\r\n" + big) == 431)
        #expect(rejection("GET / HTTP/1.1\r\nHost: x\r\n" + big + "\r\n") == 431)
        #expect(rejection("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1048577\r\n\r\n") == 413)
        if case .incomplete = parse("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\n\r\n") {} else { Issue.record("1 MiB refused") }
    }

    @Test func framingThatCouldBeReadTwoWaysIsRefused() {
        #expect(rejection("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n") == 411)
        #expect(rejection("POST / HTTP/1.1\r\nHost: x\r\n\r\n") == 411)
        #expect(rejection("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx") == 400)
        #expect(rejection("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: +1\r\n\r\nx") == 400)
        #expect(rejection("GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n") == 400)
        #expect(rejection("GET / HTTP/1.1\nHost: x\n\n") == 400)
        #expect(rejection("GET / HTTP/1.1\r\n\r\n") == 400)
        #expect(rejection("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n") == 400)
        #expect(rejection("GET / HTTP/1.1\r\nBad Name: x\r\nHost: a\r\n\r\n") == 400)
        #expect(rejection("GET * HTTP/1.1\r\nHost: a\r\n\r\n") == 400)
        #expect(rejection("GET /a#b HTTP/1.1\r\nHost: a\r\n\r\n") == 400)
        #expect(rejection("GET / HTTP/1.1\r\nHost: a\r\nExpect: x\r\n\r\n") == 417)
    }

    @Test func onlyGetHeadAndPost() {
        for method in ["PUT", "DELETE", "OPTIONS", "TRACE", "CONNECT", "PATCH"] {
            #expect(rejection("\(method) / HTTP/1.1\r\nHost: x\r\n\r\n") == 405)
        }
        #expect(rejection("GET / HTTP/2.0\r\nHost: x\r\n\r\n") == 505)
        #expect(rejection("GET / FTP/1.1\r\nHost: x\r\n\r\n") == 400)
    }

    @Test func expectContinueIsSaidOnceTheHeadersAreRead() {
        #expect(parse("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n") == .incomplete(expectsContinue: true))
        #expect(parse("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n") == .incomplete(expectsContinue: false))
    }

    @Test func keepAliveFollowsTheVersion() {
        guard case .complete(let old, _) = parse("GET / HTTP/1.0\r\n\r\n"),
              case .complete(let oldKept, _) = parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n"),
              case .complete(let closing, _) = parse("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") else {
            Issue.record("not complete"); return
        }
        #expect(!old.wantsKeepAlive && oldKept.wantsKeepAlive && !closing.wantsKeepAlive)
    }
}
