import Glibc
import LeitnerCore

/// One client's connection: reads its messages in order, has each answered by the dispatcher,
/// writes the replies in the same order. A half-sent message may sit idle for `idleTimeout`;
/// a message too large, not JSON or not an object gets an error and the connection is closed;
/// whatever happens here, only this connection ends.
struct Connection: Sendable {
    let descriptor: FileDescriptor
    let number: Int
    let peer: Socket.PeerCredentials
    let limits: ConnectionLimits

    /// The limits of one connection, from `[Daemon]`.
    struct ConnectionLimits: Sendable {
        var maxMessageSize: Int
        var idleTimeout: Duration
    }

    /// Why a connection ended, for the log.
    private enum End {
        case closedByPeer
        case closedMidMessage(Int)
        case idle
        case shutdown
        case refusedMessage(String)
        case failed(Errno)
    }

    /// Serves the connection until the peer closes it, it breaks a rule, or the daemon stops
    /// (after the request in hand is answered). Closes the descriptor.
    func serve(with dispatcher: Dispatcher) async {
        let readable = Readiness(descriptor, kind: .readable)
        let writable = Readiness(descriptor, kind: .writable, closesDescriptor: false)
        let end = await loop(dispatcher, readable: readable, writable: writable)
        // Logged before the close, so that the line is written when the client sees the end.
        defer {
            writable.close()
            readable.close()
        }
        switch end {
        case .closedByPeer, .shutdown: break
        case .closedMidMessage(let count):
            Log.notice("connection \(number) (pid \(peer.pid)): closed in the middle of a message (\(count) bytes), ignoring")
        case .idle:
            Log.notice("connection \(number) (pid \(peer.pid)): half-sent message idle for \(limits.idleTimeout), closed")
        case .refusedMessage(let reason):
            Log.warning("connection \(number) (pid \(peer.pid)): \(reason), closed")
        case .failed(let error):
            if error.rawValue != EPIPE && error.rawValue != ECONNRESET {
                Log.warning("connection \(number) (pid \(peer.pid)): \(error), closed")
            }
        }
    }

    private func loop(_ dispatcher: Dispatcher, readable: Readiness, writable: Readiness) async -> End {
        var reader = VarlinkFrameReader(maxMessageSize: limits.maxMessageSize)
        while true {
            // Answer every complete message already received, in order.
            while true {
                let message: [UInt8]
                do throws(VarlinkFrameError) {
                    guard let next = try reader.nextMessage() else { break }
                    message = next
                } catch {
                    let reply = Dispatcher.refusal(reason: "\(error)")
                    _ = await send(reply.frame, writable)
                    return .refusedMessage("\(error)")
                }
                let answer = await dispatcher.answer(message)
                if let frame = answer.frame, let failure = await send(frame, writable) {
                    return failure
                }
                if let reason = answer.closeReason { return .refusedMessage(reason) }
                if Task.isCancelled { return .shutdown }
            }
            // Read what has arrived; wait when nothing has.
            do throws(Errno) {
                let count = try reader.receive(from: descriptor)
                if count == 0 {
                    return reader.pendingByteCount == 0 ? .closedByPeer : .closedMidMessage(reader.pendingByteCount)
                }
                continue
            } catch where error == .wouldBlock {
                // Nothing to read yet.
            } catch {
                return .failed(error)
            }
            let midMessage = reader.pendingByteCount > 0
            switch await readable.wait(timeout: midMessage ? limits.idleTimeout : nil) {
            case .ready: continue
            case .timedOut: return .idle
            case .interrupted: return .shutdown
            }
        }
    }

    /// Sends a whole frame, waiting for room in the socket's buffer; a peer that takes nothing
    /// for `idleTimeout` is dropped. Shutdown does not interrupt a reply: it is finished.
    /// - Returns: nil when sent, else why the connection ends.
    private func send(_ frame: [UInt8], _ writable: Readiness) async -> End? {
        var offset = 0
        while offset < frame.count {
            do throws(Errno) {
                let sent = try Socket.sendSome(descriptor, frame, from: offset)
                offset += sent
                if sent > 0 { continue }
            } catch {
                return .failed(error)
            }
            // Detached from the task's cancellation: a reply in flight is finished at shutdown.
            let outcome = await Task.detached { await writable.wait(timeout: limits.idleTimeout) }.value
            if outcome == .timedOut { return .idle }
        }
        return nil
    }
}
