/// What one request may hold (docs/web.md, "HTTP"): the sizes the issue fixes, and the times
/// that keep a slow client from holding a connection.
public struct HTTPLimits: Sendable, Equatable {
    /// The request line, its CRLF included.
    public var requestLine = 8 * 1024
    /// The header lines after the request line, the blank line included.
    public var headers = 32 * 1024
    /// The most header lines.
    public var headerCount = 100
    /// The body: an edit of a card's text side.
    public var body = 1024 * 1024
    /// From a request's first byte to its last: a slow client (slowloris) loses its connection.
    public var requestMilliseconds = 15_000
    /// How long a kept-alive connection may wait for its next request.
    public var idleMilliseconds = 30_000
    /// From a request's arrival whole to the last byte of its response taken by the client.
    public var sendMilliseconds = 15_000
    /// The methods read; any other is refused with 405 before its headers are read.
    public var methods: [HTTPMethod] = [.get, .head, .post]

    public init() {}
}
