/// The methods leitner-web answers; any other is refused with 405 (docs/web.md).
public enum HTTPMethod: String, Sendable {
    case get = "GET"
    case head = "HEAD"
    case post = "POST"
}
