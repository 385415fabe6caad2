import LeitnerSystem
/// Why a Varlink call got no reply. Each case names the socket path and the reason, so that a
/// program can print it as it is: `cannot connect to '/run/user/1000/leitner/leitnerd.sock':
/// Connection refused`.
public enum VarlinkClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing listens at the path (`ENOENT`, `ECONNREFUSED`): the daemon is not running, and
    /// a client may start it.
    case notListening(path: String, reason: Errno)
    /// Connecting failed otherwise (permissions, a path too long, …).
    case cannotConnect(path: String, reason: Errno)
    /// Sending the call or receiving the reply failed.
    case connectionFailed(path: String, reason: Errno)
    /// The service had closed the connection before the call was written (`EPIPE`): it never
    /// read the call, which may be sent again on a new connection.
    case closedBeforeCall(path: String, method: String)
    /// The service closed the connection before its reply was complete.
    case closedBeforeReply(path: String, method: String)
    /// No reply within the client's timeout.
    case timedOut(path: String, method: String, milliseconds: Int)
    /// The reply is not a Varlink reply.
    case invalidReply(path: String, reason: String)

    public var description: String {
        switch self {
        case .notListening(let path, let reason), .cannotConnect(let path, let reason):
            "cannot connect to '\(path)': \(reason)"
        case .connectionFailed(let path, let reason): "connection to '\(path)' failed: \(reason)"
        case .closedBeforeCall(let path, let method): "'\(path)' had closed the connection before \(method) was sent"
        case .closedBeforeReply(let path, let method): "'\(path)' closed the connection before replying to \(method)"
        case .timedOut(let path, let method, let ms): "no reply from '\(path)' to \(method) within \(ms) ms"
        case .invalidReply(let path, let reason): "invalid reply from '\(path)': \(reason)"
        }
    }
}
