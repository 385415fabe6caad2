/// Why the byte stream of a Varlink connection cannot be read as messages.
public enum VarlinkFrameError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A message, complete or still arriving, is longer than the limit (bytes, without its NUL).
    case tooLarge(limit: Int)

    public var description: String {
        switch self {
        case .tooLarge(let limit): "message too large: longer than \(limit) bytes"
        }
    }
}
