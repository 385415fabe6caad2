/// The methods leitner-web answers; any other is refused with 405 (docs/web.md). OPTIONS is
/// read only where `HTTPLimits.methods` lets it in: the AnkiConnect door's CORS preflight.
public enum HTTPMethod: String, Sendable {
    case get = "GET"
    case head = "HEAD"
    case post = "POST"
    case options = "OPTIONS"
}
