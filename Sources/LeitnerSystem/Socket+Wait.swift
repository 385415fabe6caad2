import Glibc

/// Blocking waits for a server that serves each connection on a thread of its own.
extension Socket {
    /// What a socket is waited for.
    public enum Direction: Sendable { case readable, writable }

    /// How a wait ended.
    public enum WaitOutcome: Equatable, Sendable {
        /// The socket is ready (or has an error or end of file to report).
        case ready
        /// The `wake` descriptor became readable first (shutdown).
        case woken
        /// The time ran out first.
        case timedOut
    }

    /// Waits until `socket` is ready in `direction`, `wake` is readable, or `milliseconds` pass.
    /// - Parameters:
    ///   - wake: a descriptor that becomes readable to end every wait at once; nil for none.
    ///   - milliseconds: the longest wait; nil waits forever.
    public static func wait(_ socket: FileDescriptor, for direction: Direction, wake: FileDescriptor?,
                            milliseconds: Int?) throws(Errno) -> WaitOutcome {
        let events = Int16(direction == .readable ? POLLIN : POLLOUT)
        var entries = [pollfd(fd: socket.rawValue, events: events, revents: 0)]
        if let wake { entries.append(pollfd(fd: wake.rawValue, events: Int16(POLLIN), revents: 0)) }
        let timeout = milliseconds.map { Int32(clamping: max(0, $0)) } ?? -1
        let count = entries.count
        let ready = try valueOrErrno { poll(&entries, nfds_t(count), timeout) }
        if ready == 0 { return .timedOut }
        // A socket ready at the same instant as the wake comes first: what has already arrived
        // is answered (the caller checks for shutdown after each reply).
        if entries[0].revents != 0 { return .ready }
        return .woken
    }

    /// True when the peer has closed its end (`POLLHUP`: both directions are shut), asked
    /// without waiting: a server making a long reply a part at a time stops making it for
    /// nobody. A peer that only shut its writing (`shutdown(SHUT_WR)`) and still reads is not.
    public static func peerClosed(_ socket: FileDescriptor) -> Bool {
        var entry = pollfd(fd: socket.rawValue, events: 0, revents: 0)
        guard let ready = try? valueOrErrno({ poll(&entry, 1, 0) }), ready > 0 else { return false }
        return entry.revents & Int16(POLLHUP | POLLERR) != 0
    }
}
