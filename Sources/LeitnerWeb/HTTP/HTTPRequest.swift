/// A request as the parser read it: the method, the target split into its path and query (both
/// still percent-encoded; `PercentEncoding` decodes them where they are used), the header
/// lines with lower-case names, and the body.
public struct HTTPRequest: Sendable, Equatable {
    public var method: HTTPMethod
    /// The path of the target, as sent: starts with `/`.
    public var path: String
    /// What follows `?` in the target, as sent; empty when there is none.
    public var query: String
    /// The header lines in order, names in lower case, values without the white space around them.
    public var headers: [Header]
    public var body: [UInt8]
    /// HTTP/1.0 (else 1.1): no keep-alive unless asked.
    public var isHTTP10: Bool

    public struct Header: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(method: HTTPMethod, path: String, query: String = "", headers: [Header] = [], body: [UInt8] = [],
                isHTTP10: Bool = false) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.isHTTP10 = isHTTP10
    }

    /// The value of the first header line named `name` (lower case).
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// Whether the client wants the connection kept after the response: HTTP/1.1 unless it says
    /// `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`.
    public var wantsKeepAlive: Bool {
        let tokens = headers.filter { $0.name == "connection" }
            .flatMap { $0.value.lowercased().split(separator: ",").map { $0.trimmingCharacters(" \t") } }
        if tokens.contains("close") { return false }
        return isHTTP10 ? tokens.contains("keep-alive") : true
    }
}

extension Substring {
    /// The text without `characters` at either end.
    func trimmingCharacters(_ characters: String) -> String {
        var text = self
        while let first = text.first, characters.contains(first) { text.removeFirst() }
        while let last = text.last, characters.contains(last) { text.removeLast() }
        return String(text)
    }
}
