import Glibc
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// One connection to the daemon under test, sending raw messages and reading whole replies,
/// each within a deadline: a reply that never comes is a hang, not a wait.
final class FuzzConnection {
    private let socket: FileDescriptor
    private var reader = VarlinkFrameReader()
    /// How long one reply may take, in ms.
    let timeoutMilliseconds: Int

    /// What came back for a call.
    enum Outcome {
        /// The replies, the last one without `continues`.
        case replies([VarlinkReply])
        /// The daemon closed the connection before the call's last reply.
        case closed(after: [VarlinkReply])
        /// No reply within the deadline.
        case timedOut(after: [VarlinkReply])
    }

    /// - Throws: `Errno` when the daemon cannot be reached.
    init(socketPath: String, timeoutMilliseconds: Int = 30_000) throws(Errno) {
        let socket = try Socket.makeStream()
        do { try Socket.connect(socket, to: socketPath) } catch {
            socket.close()
            throw error
        }
        self.socket = socket
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    deinit { socket.close() }

    /// Sends `call` and reads its replies until one without `continues`.
    func send(_ call: FuzzCall) -> Outcome {
        guard write(call) else { return .closed(after: []) }
        return replies(to: call)
    }

    /// Writes `call` without waiting for its answer; false when the daemon had closed the
    /// connection (it may have refused the message as it came, and said why).
    func write(_ call: FuzzCall) -> Bool {
        do {
            try Socket.setTimeouts(socket, milliseconds: timeoutMilliseconds)
            try Socket.sendAll(socket, call.message + [0])
            return true
        } catch {
            return false
        }
    }

    /// Reads the replies to a call written before, until one without `continues`.
    func replies(to call: FuzzCall) -> Outcome {
        var replies: [VarlinkReply] = []
        while true {
            switch receive() {
            case .reply(let reply):
                replies.append(reply)
                if !reply.continues { return .replies(replies) }
            case .closed:
                return .closed(after: replies)
            case .timedOut:
                return .timedOut(after: replies)
            }
        }
    }

    private enum Received {
        case reply(VarlinkReply)
        case closed
        case timedOut
    }

    /// The next whole reply; a message that is not a reply counts as the connection closed.
    private func receive() -> Received {
        while true {
            if let message = try? reader.nextMessage() {
                guard let reply = try? VarlinkReply(parsing: message) else { return .closed }
                return .reply(reply)
            }
            guard let ready = try? Socket.waitReadable(socket, milliseconds: timeoutMilliseconds) else { return .closed }
            if !ready { return .timedOut }
            guard let count = try? reader.receive(from: socket), count > 0 else { return .closed }
        }
    }
}
