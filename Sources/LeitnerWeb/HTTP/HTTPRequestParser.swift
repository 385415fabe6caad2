/// Reads HTTP/1.x requests from the bytes a connection received, strictly (RFC 9112): anything
/// it does not understand is a 4xx, never a guess, so that no proxy in front of it can read the
/// same bytes as another request (request smuggling). Bodies come with `Content-Length` only.
///
/// It is fed the connection's whole buffer each time more bytes arrive and remembers how far it
/// has looked for the end of the headers, so a client sending one byte at a time costs linear
/// work, not quadratic.
public struct HTTPRequestParser: Sendable {
    public let limits: HTTPLimits
    /// Where the search for the blank line goes on.
    private var scanned = 0
    /// The request line and headers once read, waiting for the body.
    private var head: (request: HTTPRequest, bodyStart: Int, length: Int)?

    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    public enum Outcome: Sendable, Equatable {
        /// More bytes are needed; `expectsContinue` once the headers of a request that sent
        /// `Expect: 100-continue` are read and its body has not come.
        case incomplete(expectsContinue: Bool)
        /// A whole request, which took the first `consumed` bytes of the buffer.
        case complete(HTTPRequest, consumed: Int)
        /// A request that is refused; the connection closes after the answer.
        case rejected(HTTPRejection)
    }

    /// Starts on the next request (after a complete one was taken off the buffer).
    public mutating func reset() {
        scanned = 0
        head = nil
    }

    /// Reads `buffer`, which holds what the connection received since the last complete request.
    public mutating func parse(_ buffer: [UInt8]) -> Outcome {
        if head == nil {
            switch findHeadEnd(buffer) {
            case .failure(let rejection): return .rejected(rejection)
            case .success(nil): return .incomplete(expectsContinue: false)
            case .success(let end?):
                switch readHead(buffer[..<end]) {
                case .failure(let rejection): return .rejected(rejection)
                case .success(let request):
                    let length = Int(request.header("content-length") ?? "0") ?? 0
                    head = (request, end, length)
                }
            }
        }
        guard let (request, start, length) = head else { return .incomplete(expectsContinue: false) }
        guard buffer.count - start >= length else {
            return .incomplete(expectsContinue: request.header("expect")?.lowercased() == "100-continue")
        }
        var complete = request
        complete.body = Array(buffer[start..<(start + length)])
        return .complete(complete, consumed: start + length)
    }

    /// The index just past the blank line ending the headers; nil while it has not come.
    private mutating func findHeadEnd(_ buffer: [UInt8]) -> Result<Int?, HTTPRejection> {
        // Blank lines before a request line are skipped (RFC 9112 §2.2), within the line's limit.
        let count = buffer.count
        var index = max(0, scanned - 3)
        var end: Int?
        while index + 3 < count {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                end = index + 4
                break
            }
            index += 1
        }
        // A bare LF in the head is refused at once, rather than waited on until the time runs
        // out; the body that came with the head is bytes (a photo's), any of them allowed.
        for index in scanned..<(end ?? count) where buffer[index] == 10 && (index == 0 || buffer[index - 1] != 13) {
            return .failure(HTTPRejection(400, "a line ends without CR LF"))
        }
        if let end { return .success(end) }
        scanned = count
        // Limits are checked on what has come so far, so that a request without an end is cut off.
        let lineEnd = buffer.firstIndex(of: 10)
        if lineEnd == nil, count > limits.requestLine {
            return .failure(HTTPRejection(414, "request line longer than \(limits.requestLine) bytes"))
        }
        if let lineEnd, lineEnd + 1 > limits.requestLine {
            return .failure(HTTPRejection(414, "request line longer than \(limits.requestLine) bytes"))
        }
        if let lineEnd, count - (lineEnd + 1) > limits.headers {
            return .failure(HTTPRejection(431, "headers longer than \(limits.headers) bytes"))
        }
        return .success(nil)
    }

    /// The request line and headers, checked.
    private func readHead(_ bytes: ArraySlice<UInt8>) -> Result<HTTPRequest, HTTPRejection> {
        func reject(_ status: Int, _ reason: String) -> Result<HTTPRequest, HTTPRejection> {
            .failure(HTTPRejection(status, reason))
        }
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == 10 {
                guard index > lineStart, bytes[index - 1] == 13 else { return reject(400, "a line ends without CR LF") }
                lines.append(bytes[lineStart..<(index - 1)])
                lineStart = index + 1
            }
            index += 1
        }
        // Leading blank lines, then the request line; the last line is the blank one.
        while let first = lines.first, first.isEmpty, lines.count > 1 { lines.removeFirst() }
        guard lines.count >= 2, let requestLine = lines.first else { return reject(400, "no request line") }
        if requestLine.count + 2 > limits.requestLine {
            return reject(414, "request line longer than \(limits.requestLine) bytes")
        }
        let headerBytes = lines.dropFirst().reduce(0) { $0 + $1.count + 2 }
        if headerBytes > limits.headers { return reject(431, "headers longer than \(limits.headers) bytes") }
        if lines.count - 2 > limits.headerCount { return reject(431, "more than \(limits.headerCount) header lines") }

        let parts = requestLine.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            return reject(400, "the request line is not METHOD TARGET VERSION")
        }
        guard parts[0].allSatisfy(Self.isTokenByte) else { return reject(400, "invalid method") }
        let methodName = String(decoding: parts[0], as: UTF8.self)
        guard let method = HTTPMethod(rawValue: methodName), limits.methods.contains(method) else {
            return reject(405, "method \(methodName) is not \(limits.methods.map(\.rawValue).joined(separator: ", "))")
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        let isHTTP10: Bool
        switch version {
        case "HTTP/1.1": isHTTP10 = false
        case "HTTP/1.0": isHTTP10 = true
        default:
            if version.hasPrefix("HTTP/"), version.count == 8 || version.count == 6 {
                return reject(505, "version \(version) is not HTTP/1.1")
            }
            return reject(400, "invalid version")
        }
        let target = parts[1]
        guard target.first == UInt8(ascii: "/") else { return reject(400, "the target is not an absolute path") }
        guard target.allSatisfy({ $0 > 32 && $0 < 127 }) else { return reject(400, "the target holds a byte that is not printable ASCII") }
        let question = target.firstIndex(of: UInt8(ascii: "?"))
        let path = String(decoding: target[..<(question ?? target.endIndex)], as: UTF8.self)
        let query = question.map { String(decoding: target[($0 + 1)...], as: UTF8.self) } ?? ""
        if query.contains("#") || path.contains("#") { return reject(400, "a fragment in the target") }

        var headers: [HTTPRequest.Header] = []
        for line in lines.dropFirst().dropLast() {
            guard let first = line.first else { return reject(400, "an empty header line") }
            if first == 32 || first == 9 { return reject(400, "a folded header line (obs-fold)") }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return reject(400, "a header line without ':'") }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy(Self.isTokenByte) else {
                return reject(400, "an invalid header name")
            }
            let value = line[(colon + 1)...]
            guard value.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else {
                return reject(400, "a control character in a header value")
            }
            var trimmed = value
            while let byte = trimmed.first, byte == 32 || byte == 9 { trimmed.removeFirst() }
            while let byte = trimmed.last, byte == 32 || byte == 9 { trimmed.removeLast() }
            headers.append(HTTPRequest.Header(name: String(decoding: name, as: UTF8.self).lowercased(),
                                              value: String(decoding: trimmed, as: UTF8.self)))
        }
        let request = HTTPRequest(method: method, path: path, query: query, headers: headers, isHTTP10: isHTTP10)
        return check(request).map { .failure($0) } ?? .success(request)
    }

    /// The rules on headers that say how the body is framed and where the request goes.
    private func check(_ request: HTTPRequest) -> HTTPRejection? {
        let hosts = request.headers.filter { $0.name == "host" }
        if !request.isHTTP10 && hosts.count != 1 { return HTTPRejection(400, "an HTTP/1.1 request needs exactly one Host") }
        if request.headers.contains(where: { $0.name == "transfer-encoding" }) {
            return HTTPRejection(411, "Transfer-Encoding (chunked bodies) is not accepted: send Content-Length")
        }
        let lengths = request.headers.filter { $0.name == "content-length" }.map(\.value)
        if lengths.count > 1 { return HTTPRejection(400, "more than one Content-Length") }
        if let text = lengths.first {
            guard !text.isEmpty, text.utf8.count <= 10, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let length = Int(text) else {
                return HTTPRejection(400, "Content-Length is not a number")
            }
            if length > limits.body { return HTTPRejection(413, "a body longer than \(limits.body) bytes") }
        } else if request.method == .post {
            return HTTPRejection(411, "a POST needs Content-Length")
        }
        if let expect = request.header("expect"), expect.lowercased() != "100-continue" {
            return HTTPRejection(417, "Expect: only 100-continue is understood")
        }
        return nil
    }

    /// A byte of a token (RFC 9110 §5.6.2): method and header names.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
