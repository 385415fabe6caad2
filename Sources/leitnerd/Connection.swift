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

        /// `idleTimeout` for `poll`, rounded up to whole milliseconds.
        var idleMilliseconds: Int {
            let (seconds, attoseconds) = idleTimeout.components
            return Int(clamping: seconds) &* 1000 + Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        }
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

    /// Serves the connection on a thread of its own (`ConnectionThread`) until the peer closes
    /// it, it breaks a rule, or the daemon stops (`shutdown`; the reply in hand is sent first).
    /// Closes the descriptor; returns when the thread is done.
    func serve(with dispatcher: Dispatcher, shutdown: ShutdownSignal) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let failure = ConnectionThread.start {
                let end = loop(dispatcher, shutdown: shutdown)
                // Logged before the close, so that the line is written when the client sees the end.
                log(end)
                descriptor.close()
                done.resume()
            }
            if let failure {
                Log.warning("connection \(number) (pid \(peer.pid)): no thread to serve it: \(Errno(rawValue: failure)), closed")
                descriptor.close()
                done.resume()
            }
        }
    }

    private func log(_ end: End) {
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

    private func loop(_ dispatcher: Dispatcher, shutdown: ShutdownSignal) -> End {
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
                    _ = send(reply.frame)
                    return .refusedMessage("\(error)")
                }
                let answer = dispatcher.answer(message)
                let failure = answer.frame.flatMap { send($0) }
                if let failure { return failure }
                if let reason = answer.closeReason { return .refusedMessage(reason) }
                if shutdown.isTriggered { return .shutdown }
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
            do throws(Errno) {
                switch try Socket.wait(descriptor, for: .readable, wake: shutdown.descriptor,
                                       milliseconds: midMessage ? limits.idleMilliseconds : nil) {
                case .ready: continue
                case .timedOut: return .idle
                case .woken: return .shutdown
                }
            } catch {
                return .failed(error)
            }
        }
    }

    /// Sends a whole frame, waiting for room in the socket's buffer; a peer that takes nothing
    /// for `idleTimeout` is dropped. Shutdown does not interrupt a reply: it is finished.
    /// - Returns: nil when sent, else why the connection ends.
    private func send(_ frame: [UInt8]) -> End? {
        var offset = 0
        while offset < frame.count {
            do throws(Errno) {
                let sent = try Socket.sendSome(descriptor, frame, from: offset)
                offset += sent
                if sent > 0 { continue }
                if try Socket.wait(descriptor, for: .writable, wake: nil,
                                   milliseconds: limits.idleMilliseconds) == .timedOut {
                    return .idle
                }
            } catch {
                return .failed(error)
            }
        }
        return nil
    }
}
