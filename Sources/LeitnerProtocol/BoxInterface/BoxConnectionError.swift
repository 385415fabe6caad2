import LeitnerVarlink

/// The errors of `io.leitner.Box` about the connection rather than the box (docs/protocol.md,
/// "Connections"), encoded by the daemon and read by clients here.
public enum BoxConnectionError: Equatable, Sendable {
    /// `ConnectionClosed (reason)`: the daemon closed an idle connection without reading what was
    /// sent on it, so the call may be sent again on a new connection.
    case connectionClosed(reason: String)
    /// `TooManyConnections (limit)`: every one of the daemon's `MaxConnections=` is busy.
    case tooManyConnections(limit: Int)

    /// The error reply the daemon sends.
    public var varlinkReply: VarlinkReply {
        switch self {
        case .connectionClosed(let reason): .error(BoxInterface.connectionClosed, ["reason": .string(reason)])
        case .tooManyConnections(let limit): .error(BoxInterface.tooManyConnections, ["limit": .int(Int64(limit))])
        }
    }

    /// The connection error an error reply stands for; nil for any other error.
    public init?(_ error: VarlinkCallError) {
        switch error.name {
        case BoxInterface.connectionClosed:
            self = .connectionClosed(reason: error.parameters["reason"]?.stringValue ?? "")
        case BoxInterface.tooManyConnections:
            self = .tooManyConnections(limit: error.parameters["limit"]?.intValue ?? 0)
        default:
            return nil
        }
    }
}
