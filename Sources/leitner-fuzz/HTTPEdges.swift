import LeitnerWeb

/// The requests at the edges of what leitner-web accepts (docs/web.md, "HTTP"): request lines,
/// headers and bodies one byte under and over their limits, every framing a proxy could read two
/// ways, and percent-encodings that try to leave the routes. `cookie` and `csrf` come from a
/// session the fuzzer opened, so the routes behind the door are reached too.
enum HTTPEdges {
    static let requestLine = 8 * 1024
    static let headers = 32 * 1024
    static let body = 1024 * 1024

    static func requests(cookie: String, csrf: String) -> [[UInt8]] {
        var out: [String] = []
        let host = "Host: 127.0.0.1\r\n"
        let session = "Cookie: \(cookie)\r\n"
        // The request line: "GET /" + path + " HTTP/1.1\r\n" at, under and over the limit.
        for total in [requestLine - 1, requestLine, requestLine + 1, requestLine * 2] {
            let path = String(repeating: "a", count: max(1, total - 16))
            out.append("GET /\(path) HTTP/1.1\r\n\(host)\r\n")
        }
        // Headers at, under and over their limit, and too many of them.
        for total in [headers - 2, headers, headers + 1] {
            let filler = String(repeating: "v", count: max(0, total - host.utf8.count - 8 - 2))
            out.append("GET / HTTP/1.1\r\n\(host)X-Pad: \(filler)\r\n\r\n")
        }
        out.append("GET / HTTP/1.1\r\n\(host)" + (0..<101).map { "X-\($0): v\r\n" }.joined() + "\r\n")
        // Bodies at and over the limit, and lengths that lie.
        for length in [body, body + 1] {
            out.append("POST /review/undo HTTP/1.1\r\n\(host)\(session)Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(length)\r\n\r\n"
                       + "csrf=\(csrf)&" + String(repeating: "x", count: max(0, length - csrf.utf8.count - 6)))
        }
        for length in ["0", "00", "-0", "+1", "1 1", "0x10", "18446744073709551616", "", " 5"] {
            out.append("POST /review/undo HTTP/1.1\r\n\(host)\(session)Content-Length: \(length)\r\n\r\nabcde")
        }
        out.append("POST /review/undo HTTP/1.1\r\n\(host)Content-Length: 10\r\n\r\nshort")
        for encoding in ["chunked", "gzip, chunked", "identity", " chunked", "CHUNKED"] {
            out.append("POST /review/undo HTTP/1.1\r\n\(host)Transfer-Encoding: \(encoding)\r\n\r\n5\r\nabcde\r\n0\r\n\r\n")
        }
        // Request lines and versions.
        for line in ["GET", "GET /", "GET / HTTP/1.1 x", " GET / HTTP/1.1", "GET\t/\tHTTP/1.1", "get / HTTP/1.1",
                     "GET / HTTP/1.10", "GET / HTTP/9.9", "GET / HTTP/1", "GET ? HTTP/1.1", "GET /? HTTP/1.1",
                     "GET /# HTTP/1.1", "GET %2F HTTP/1.1", "GET http://127.0.0.1/ HTTP/1.1", "CONNECT 127.0.0.1:1 HTTP/1.1",
                     "OPTIONS * HTTP/1.1", "PRI * HTTP/2.0", "GET / HTTP/1.1\r\nHost: a\r\nHost: b", "\r\nGET / HTTP/1.1"] {
            out.append("\(line)\r\n\(host)\r\n")
        }
        // Line ends and bytes that are not text.
        for bad in ["GET / HTTP/1.1\n\(host)\n", "GET / HTTP/1.1\r\r\n\(host)\r\n", "GET / HTTP/1.1\r\n\(host) x\r\n\r\n",
                    "GET / HTTP/1.1\r\n\(host)X: \u{0}\r\n\r\n", "GET / HTTP/1.1\r\n\(host)X:\u{7f}\r\n\r\n",
                    "GET / HTTP/1.1\r\n\(host): x\r\n\r\n", "GET / HTTP/1.1\r\n\(host)\r\n\r\n\r\n", "\r\n\r\n\r\n"] {
            out.append(bad)
        }
        // Percent-encodings at their edges, behind the door and in front of it.
        let escapes = ["%", "%0", "%00", "%2F", "%2f", "%5C", "%2e", "%2e%2e", "..", "%2E%2E%2F", "%C0%AE", "%C0%AF", "%FF",
                       "%E2%80%AE", "%F4%90%80%80", "%ED%A0%80", "%25", "%252e", "+", "%20", "%3F", "%23", "%0D%0A"]
        for escape in escapes {
            for path in ["/cards/\(escape)", "/cards/a\(escape)b/asset/front", "/static/\(escape)", "/\(escape)/review",
                         "/review/asset/\(escape)/front", "/cards?q=\(escape)&page=\(escape)", "/?token=\(escape)",
                         "/pair/\(escape)", "/devices/\(escape)/rename"] {
                out.append("GET \(path) HTTP/1.1\r\n\(host)\(session)\r\n")
            }
            out.append("POST /cards/x/move HTTP/1.1\r\n\(host)\(session)Content-Type: application/x-www-form-urlencoded\r\n"
                       + "Content-Length: \(("csrf=\(csrf)&level=\(escape)").utf8.count)\r\n\r\ncsrf=\(csrf)&level=\(escape)")
        }
        for page in ["0", "-1", "99999999999999999999", "9223372036854775807", "-9223372036854775808", "x"] {
            out.append("GET /cards?page=\(page) HTTP/1.1\r\n\(host)\(session)\r\n")
        }
        return out.map { Array($0.utf8) }
    }

    /// Requests a browser sends, for the random phase to change: one to each route of
    /// leitner-web's table (`WebRoute.table`), so that a route added there is fuzzed too, and a
    /// few that try HTTP's ways of sending them (pipelined, HEAD, HTTP/1.0, 100-continue).
    /// `handle`: a card the review showed this session (`/review/answer?card=HANDLE`).
    static func templates(cookie: String, csrf: String, handle: String) -> [String] {
        let host = "Host: 127.0.0.1\r\n"
        let session = "Cookie: \(cookie)\r\n"
        let form = "Content-Type: application/x-www-form-urlencoded\r\n"
        return WebRoute.table.map { request(to: $0, cookie: cookie, csrf: csrf, handle: handle) } + [
            "GET /review HTTP/1.1\r\n\(host)\(session)Connection: keep-alive\r\n\r\nGET / HTTP/1.1\r\n\(host)\r\n",
            "HEAD /stats HTTP/1.1\r\n\(host)\(session)\r\n",
            "GET /?token=00 HTTP/1.0\r\n\r\n",
            "POST /review/start HTTP/1.1\r\n\(host)\(session)\(form)Expect: 100-continue\r\nContent-Length: 69\r\n\r\ncsrf=\(csrf)",
        ]
    }

    /// A browser's request to `route`: its path with a value in each part, and each field it reads
    /// with a value it takes (in the query of a GET, the form of a POST, with the CSRF token).
    static func request(to route: WebRoute, cookie: String, csrf: String, handle: String) -> String {
        let path = "/" + route.parts.map { part in
            switch part {
            case .word(let word): word
            case .card: "card-1"
            case .handle: handle
            case .side: "front"
            case .medium: "katze.png"
            case .file: EmbeddedAssets.styleSheet.name
            case .code: "0123456789abcdef0123456789abcdef"
            case .device: "0000aaaa"
            }
        }.joined(separator: "/")
        let fields = route.fields.map { name in
            let value = switch name {
            case "card": handle
            case "correct": "yes"
            case "level": "2"
            case "page": "1"
            case "q": "card"
            case "done": "edited"
            case "tag": ""
            case "front": "new+front%0D%0Aline"
            case "name": "Phone%09%C3%A9"
            default: "b"
            }
            return name + "=" + value
        }
        let head = "Host: 127.0.0.1\r\nCookie: \(cookie)\r\n"
        guard route.method == .post else {
            return "GET \(path)\(fields.isEmpty ? "" : "?" + fields.joined(separator: "&")) HTTP/1.1\r\n\(head)\r\n"
        }
        let body = (["csrf=\(csrf)"] + fields).joined(separator: "&")
        return "POST \(path) HTTP/1.1\r\n\(head)Content-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }
}
