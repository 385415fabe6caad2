/// What a listener of leitner-web answers with: the site (`WebApp`) on `[Web] Listen=`, the
/// AnkiConnect door (`AnkiConnectDoor`) on `[Web] AnkiConnect=`. Each connection is served by
/// the same skeleton (leitner-web's `WebServer` and `HTTPConnection`); only this differs.
public protocol HTTPResponder: Sendable {
    /// The response to one whole request.
    func respond(to request: HTTPRequest) -> HTTPResponse
}

extension WebApp: HTTPResponder {}
