import Glibc
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// `leitner-fuzz --http`: leitner-web in front of a built leitnerd, sent the requests at the
/// edges (`HTTPEdges`), then browser requests changed at random (bytes flipped, cut, repeated,
/// percent-escapes put in) and sent in random pieces, for the budget; a third of them are the
/// add page's well-formed multipart forms (`MultipartBodies`), most of them left whole so that
/// they reach the page's checks and the daemon, and what became of those is counted. After each, the answer must
/// be a well-formed status line and no server error, and the server must still answer a plain
/// request: it never crashes, hangs or stops serving.
final class HTTPFuzzSession {
    let options: FuzzOptions
    let daemon: DaemonUnderTest
    let web: WebUnderTest
    private var random: FuzzRandom
    private(set) var requests = 0
    private(set) var phase = "start"
    private var cookie = ""
    private var csrf = ""
    /// A card the review showed this session, for the routes that take one.
    private var handle = "00"
    /// The last request sent, for the report of a failure.
    private(set) var last: [UInt8] = []
    /// The add page's multipart forms sent, by what became of them: a card added (303), refused
    /// by the page or the daemon beside a field (400 or 409 with the form), unreadable to the
    /// form's parser ("A broken form"), or anything else (a 403 for a wrong token, a cut request).
    private(set) var forms = (sent: 0, added: 0, refusedBesideAField: 0, unreadable: 0, other: 0)
    /// How often the fuzzer paired again after a request of its own logged it out.
    private(set) var pairings = 0

    init(options: FuzzOptions) throws {
        self.options = options
        daemon = try DaemonUnderTest(programs: options.programs)
        web = WebUnderTest(programs: options.programs, daemon: daemon)
        random = FuzzRandom(seed: options.seed)
    }

    func run() throws(FuzzFailure) {
        try daemon.start()
        try web.start(socketPath: daemon.socketPath)
        try stockTheBox()
        try openSession(path: web.pairingPath)
        phase = "edge requests"
        for request in HTTPEdges.requests(cookie: cookie, csrf: csrf) { try exchange(request, pieces: []) }
        phase = "random requests"
        var templates = HTTPEdges.templates(cookie: cookie, csrf: csrf, handle: handle).map { Array($0.utf8) }
        let deadline = FuzzSession.now() + options.budget
        while FuzzSession.now() < deadline {
            // `/logout` and a revoke among the templates end the fuzzer's own session: without a
            // new one, every later request would stop at the door.
            if requests % 25 == 0, !(try isLoggedIn()) {
                try openSession(path: web.newPairingPath(socketPath: daemon.socketPath))
                pairings += 1
                templates = HTTPEdges.templates(cookie: cookie, csrf: csrf, handle: handle).map { Array($0.utf8) }
                continue
            }
            let multipart = random.chance(1.0 / 3)
            var request = multipart ? MultipartBodies.request(&random, cookie: cookie, csrf: csrf) : random.pick(templates)
            let changes = multipart ? (random.chance(0.2) ? 1 : 0) : random.int(1...4)
            for _ in 0..<changes { mutate(&request) }
            let pieces = random.chance(0.3) ? (0..<random.int(1...4)).map { _ in random.int(0...max(0, request.count)) } : []
            let answer = try exchange(request, pieces: pieces)
            if multipart && changes == 0 && !answer.starts(with: Array("HTTP/1.1 401".utf8)) { count(form: answer) }
        }
    }

    /// A few cards, so the routes behind the door have something to show and change.
    private func stockTheBox() throws(FuzzFailure) {
        do {
            let box = BoxClient(try VarlinkClient(socketPath: daemon.socketPath, timeoutMilliseconds: 20_000))
            for n in 1...5 {
                _ = try box.add(front: Asset(name: "front.md", text: "**card** \(n) <b>"), back: Asset(name: "back.txt", text: "back \(n)"),
                                id: "card-\(n)")
            }
        } catch {
            throw FuzzFailure("cannot add the cards: \(error)")
        }
    }

    /// Whether the fuzzer's device is still let in.
    private func isLoggedIn() throws(FuzzFailure) -> Bool {
        let answer = try HTTPExchange.send(Array("GET /devices HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(cookie)\r\n\r\n".utf8), port: web.port)
        return !answer.starts(with: Array("HTTP/1.1 401".utf8))
    }

    /// Opens the pairing link at `path`, as a browser does, and reads the device's CSRF token.
    private func openSession(path: String) throws(FuzzFailure) {
        let door = String(decoding: try HTTPExchange.send(Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8), port: web.port),
                          as: UTF8.self)
        guard let line = door.split(separator: "\r\n").first(where: { $0.hasPrefix("Set-Cookie: ") }) else {
            throw FuzzFailure("the pairing link did not pair: \(door.prefix(200))")
        }
        cookie = String(line.dropFirst(12).prefix { $0 != ";" })
        let page = String(decoding: try HTTPExchange.send(Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(cookie)\r\n\r\n".utf8), port: web.port),
                          as: UTF8.self)
        guard let start = page.firstRange(of: "name=\"csrf\" value=\"") else {
            throw FuzzFailure("today's page has no CSRF token: \(page.prefix(300))")
        }
        csrf = String(page[start.upperBound...].prefix { $0 != "\"" })
        // The review's first card, whose handle the routes of the review take.
        let review = String(decoding: try HTTPExchange.send(Array("GET /review HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(cookie)\r\n\r\n".utf8),
                                                            port: web.port), as: UTF8.self)
        if let link = review.firstRange(of: "/review/answer?card=") {
            handle = String(review[link.upperBound...].prefix { $0 != "&" && $0 != "\"" })
        }
    }

    private func count(form answer: [UInt8]) {
        let text = String(decoding: answer.prefix(64 * 1024), as: UTF8.self)
        forms.sent += 1
        if text.hasPrefix("HTTP/1.1 303") {
            forms.added += 1
        } else if text.contains("A broken form") {
            forms.unreadable += 1
        } else if (text.hasPrefix("HTTP/1.1 400") || text.hasPrefix("HTTP/1.1 409")) && text.contains("class=\"field-error\"") {
            forms.refusedBesideAField += 1
        } else {
            forms.other += 1
        }
    }

    /// Sends one request, judges its answer, and checks that the server still serves.
    /// - Returns: the answer.
    @discardableResult
    private func exchange(_ request: [UInt8], pieces: [Int]) throws(FuzzFailure) -> [UInt8] {
        last = request
        requests += 1
        let answer = try HTTPExchange.send(request, port: web.port, pieces: pieces)
        if let problem = HTTPExchange.problem(answer) { throw FuzzFailure(problem) }
        if let ended = web.exited() { throw FuzzFailure("leitner-web \(ended)") }
        let check = try HTTPExchange.send(Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8), port: web.port, seconds: 10)
        guard String(decoding: check.prefix(12), as: UTF8.self) == "HTTP/1.1 401" else {
            throw FuzzFailure("leitner-web stopped serving: a plain request got \(String(decoding: check.prefix(40), as: UTF8.self).debugDescription)")
        }
        return answer
    }

    /// One change to a request, at random.
    private func mutate(_ request: inout [UInt8]) {
        let escapes = ["%", "%0", "%00", "%2F", "%2e%2e", "%C0%AF", "%FF", "%25", "+", "..", "/", "\r\n", "\n", "\r", "\0", " ", ":", "?", "#", "&", "="]
        let at = request.isEmpty ? 0 : random.int(0...(request.count - 1))
        switch random.int(0...6) {
        case 0 where !request.isEmpty: request[at] = UInt8(random.int(0...255))
        case 1: request.insert(contentsOf: Array(random.pick(escapes).utf8), at: at)
        case 2 where !request.isEmpty: request.removeSubrange(at..<min(request.count, at + random.int(1...16)))
        case 3 where !request.isEmpty:
            let end = min(request.count, at + random.int(1...64))
            request.insert(contentsOf: Array(request[at..<end]) + Array(repeating: request[at], count: random.int(0...2000)), at: end)
        case 4: request = Array(request.prefix(at))
        case 5: request.insert(contentsOf: random.bytes(random.int(1...8)), at: at)
        default: request.insert(contentsOf: Array(random.pick(["Content-Length: 3\r\n", "Transfer-Encoding: chunked\r\n", "Expect: 100-continue\r\n",
                                                               "Connection: close\r\n", "Host: y\r\n", "Cookie: leitner_session=00\r\n"]).utf8),
                                at: firstLineEnd(request))
        }
    }

    private func firstLineEnd(_ request: [UInt8]) -> Int {
        guard let index = request.firstIndex(of: 10) else { return request.count }
        return index + 1
    }

    func stop() {
        web.stop()
        daemon.stop()
    }

    func cleanUp() {
        stop()
        if !options.keep { daemon.removeDirectory() }
    }

    func report(_ failure: FuzzFailure) -> String {
        """
        leitner-fuzz --http: FAILURE with seed \(options.seed), in the \(phase), after \(requests) requests:
          \(failure.description)
          the request: \(String(decoding: last.prefix(400), as: UTF8.self).debugDescription)
          replay: leitner-fuzz --http --seed \(options.seed) --budget \(Int(options.budget))
          leitner-web's last messages:
        \(web.logTail())
        """
    }
}
