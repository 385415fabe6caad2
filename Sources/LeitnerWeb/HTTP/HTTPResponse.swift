/// A response: its status, its header lines and its body, written as HTTP/1.1 by `bytes`. Every
/// response carries the security headers (`SecurityHeaders`); a page adds its own.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// Close the connection after this response (a refused request, a client that asked).
    public var closes = false

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// An HTML page, never cached: it shows the learner's cards.
    public static func html(_ status: Int = 200, _ page: HTML) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")],
                     body: Array(page.description.utf8))
    }

    /// 303 See Other to `location`: after a POST, the browser loads the page with a GET, so that
    /// reloading it does not send the change again.
    public static func redirect(_ location: String, status: Int = 303) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Location", location), ("Cache-Control", "no-store")])
    }

    /// The value of the first header named `name`, compared without case.
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }

    /// The response as sent: the status line, the headers with `Content-Length` and
    /// `Connection`, the blank line, and the body unless answering a HEAD.
    public func bytes(keepAlive: Bool, head: Bool = false) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
        for header in headers { text += "\(header.name): \(header.value)\r\n" }
        // 1xx, 204 and 304 have no body and no length (RFC 9110 §8.6).
        if status >= 200 && status != 204 && status != 304 { text += "Content-Length: \(body.count)\r\n" }
        text += keepAlive && !closes ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
        var bytes = Array(text.utf8)
        if !head { bytes += body }
        return bytes
    }

    /// The reason phrase of the statuses this server sends.
    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 303: "See Other"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
