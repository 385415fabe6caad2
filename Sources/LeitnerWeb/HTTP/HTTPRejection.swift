/// Why a request was refused before it reached a page: the status to answer with, and the reason
/// in words for the response body (and the fuzzer). The connection is closed after it.
public struct HTTPRejection: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: Int
    public var reason: String

    public init(_ status: Int, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    public var description: String { "\(status) \(HTTPResponse.reasonPhrase(status)): \(reason)" }
}
