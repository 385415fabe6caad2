import Glibc
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// One client's connection, served on a thread of its own (docs/daemon.md, "Concurrency"):
/// reads its messages in order, has each answered, writes the replies in the same order.
/// Whatever happens here, only this connection ends.
///
/// - A message must arrive whole within `IdleTimeout=` of the moment the daemon starts reading
///   it (a client that trickles a byte a second is closed all the same); the daemon's own waits
///   (for a large-message share) do not count against it. A reply must be taken whole within
///   `IdleTimeout=` too.
/// - Between messages a connection may stay idle as long as its client likes, until the
///   listener needs its place for a new connection; it is then closed with `ConnectionClosed`.
/// - A message too large, not JSON or not an object gets an error and the connection is closed.
struct Connection: Sendable {
    let socket: FileDescriptor
    let entry: ConnectionTable<Socket.PeerCredentials>.Entry
    let limits: ConnectionLimits
    let dispatcher: Dispatcher
    let table: ConnectionTable<Socket.PeerCredentials>
    let budget: MessageBudget

    /// The limits of one connection, from `[Daemon]` as they were when it was accepted.
    struct ConnectionLimits: Sendable {
        var maxMessageSize: Int
        var idleTimeout: Duration
        var maxConnections: Int
    }

    /// Why a connection ended, for the log.
    private enum End {
        case closedByPeer
        case closedMidMessage(Int)
        case messageTimedOut
        case replyTimedOut
        case madeRoom(idle: Duration)
        case stopped
        /// The shutdown's deadline passed while the client was not taking its reply.
        case stoppedMidReply
        case refusedMessage(String)
        case failed(Errno)
    }

    /// What the thread keeps between messages.
    private struct Session {
        var reader: VarlinkFrameReader
        /// Holds a share of the large-message budget.
        var holdsShare = false
        /// When the message being received must be whole; nil between messages.
        var messageDeadline: MonotonicTime?
    }

    /// Serves the connection until the peer closes it, it breaks a rule, it is asked to make
    /// room, or the daemon stops (the reply in hand is sent first); then closes it and leaves
    /// the table. Runs on the connection's own thread.
    func run() {
        var session = Session(reader: VarlinkFrameReader(maxMessageSize: limits.maxMessageSize,
                                                         retainedCapacity: MessageBudget.allowance))
        let end = serve(&session)
        if session.holdsShare { releaseShare(&session) }
        // Logged before the close, so that the line is written when the client sees the end.
        log(end)
        socket.close()
        table.remove(entry)
    }

    private func serve(_ session: inout Session) -> End {
        while true {
            // Answer every complete message already received, in order.
            while true {
                let message: Dispatcher.Message
                do throws(VarlinkFrameError) {
                    guard let next = try session.reader.nextMessage(Dispatcher.read) else { break }
                    message = next
                } catch {
                    _ = send(Dispatcher.refusal(reason: "\(error)").frame)
                    return .refusedMessage("\(error)")
                }
                session.messageDeadline = nil
                if let end = answer(message) { return end }
                if session.holdsShare && session.reader.pendingByteCount < unsharedLimit { releaseShare(&session) }
                if table.isStopping { return farewell("the daemon is stopping", end: .stopped) }
            }
            if let end = receive(&session) { return end }
        }
    }

    /// Answers one message and sends the reply; what the call parsed is released on return.
    /// - Returns: nil to go on, else why the connection ends.
    private func answer(_ message: consuming Dispatcher.Message) -> End? {
        let answer = dispatcher.answer(message, limit: limits.maxMessageSize, wake: entry.wake, peer: entry.peer)
        if let failure = answer.frame.flatMap({ send($0) }) { return failure }
        if let stream = answer.stream {
            // Each part is made only once the one before is sent (docs/daemon.md, "Streamed replies").
            while let frame = stream.nextFrame(wake: entry.wake, peerClosed: { Socket.peerClosed(socket) }) {
                if let failure = send(frame) { return failure }
                // A stream still going when the stop's time is up ends with an error in place of
                // its next part, so that the box can be closed (docs/daemon.md, "Life cycle"); in
                // the middle of a message sent in pieces, with the connection closed, as a reply
                // not taken in time is.
                if !stream.isComplete, let deadline = table.stopDeadline, MonotonicTime.now >= deadline {
                    if !stream.isMidMessage {
                        let stopping = BoxError.storeFailure(path: dispatcher.box.storePath, reason: "the daemon is stopping")
                        _ = send(stopping.varlinkReply.frame)
                    }
                    return .stoppedMidReply
                }
            }
            // A long stream leaves freed batches and parts in this thread's arena: give them back.
            MemoryTrim.releaseFreedMemory()
            if stream.wasAbandoned { return .closedByPeer }
        }
        if let reason = answer.closeReason { return .refusedMessage(reason) }
        return nil
    }

    private var unsharedLimit: Int { MessageBudget.unsharedLimit(maxMessageSize: limits.maxMessageSize) }

    /// Waits for bytes and reads what has arrived, as much as the budget allows.
    /// - Returns: nil to go on, else why the connection ends.
    private func receive(_ session: inout Session) -> End? {
        let pending = session.reader.pendingByteCount
        if pending == 0 {
            if let end = waitWhileIdle() { return end }
        } else {
            // A half-sent message is not waited for at shutdown.
            if table.isStopping { return .stopped }
            if !session.holdsShare && pending >= unsharedLimit {
                guard budget.acquire(maxMessageSize: limits.maxMessageSize, wake: entry.wake,
                                     giveUp: { table.isStopping }) else { return .stopped }
                session.holdsShare = true
                session.reader.reserveCapacity(forPending: limits.maxMessageSize + 1)
                // The wait for the share was the daemon's, not the client's.
                session.messageDeadline = nil
            }
            let deadline = session.messageDeadline ?? .now + limits.idleTimeout
            session.messageDeadline = deadline
            do throws(Errno) {
                switch try Socket.wait(socket, for: .readable, wake: entry.wake.descriptor,
                                       milliseconds: deadline.millisecondsFromNow) {
                case .ready: break
                case .timedOut: return .messageTimedOut
                case .woken:
                    entry.wake.drain()
                    return nil
                }
            } catch {
                return .failed(error)
            }
        }
        let limit = session.holdsShare ? limits.maxMessageSize + 1 : unsharedLimit
        do throws(Errno) {
            let count = try session.reader.receive(from: socket, chunkSize: min(1 << 16, max(1, limit - pending)))
            if count == 0 { return pending == 0 ? .closedByPeer : .closedMidMessage(pending) }
        } catch where error == .wouldBlock {
            // Nothing after all (a wake-up, or a spurious readiness).
        } catch {
            return .failed(error)
        }
        return nil
    }

    /// Waits for the next message with nothing in flight: the connection is idle, and may be
    /// asked to close meanwhile (shutdown, or to make room). Returns when bytes (or the end)
    /// arrived and may be read.
    /// - Returns: nil to go on and read, else why the connection ends.
    private func waitWhileIdle() -> End? {
        let idleSince = MonotonicTime.now
        if let end = closeIfAsked(table.park(entry), idleSince: idleSince) { return end }
        var woken = false
        do throws(Errno) {
            woken = try Socket.wait(socket, for: .readable, wake: entry.wake.descriptor, milliseconds: nil) == .woken
        } catch {
            _ = table.unpark(entry)
            return .failed(error)
        }
        if woken { entry.wake.drain() }
        return closeIfAsked(table.unpark(entry), idleSince: idleSince)
    }

    /// Closes an idle connection that the listener asked to, saying why (`ConnectionClosed`):
    /// nothing sent after the last reply has been read, so the client may send it again.
    private func closeIfAsked(_ request: ConnectionTable<Socket.PeerCredentials>.Request, idleSince: MonotonicTime) -> End? {
        let reason: String
        let end: End
        switch request {
        case .serve:
            return nil
        case .makeRoom:
            let idle = MonotonicTime.now - idleSince
            reason = "closed after \(idle.logDescription) idle to make room for a new connection (MaxConnections=\(limits.maxConnections))"
            end = .madeRoom(idle: idle)
        case .stop:
            reason = "the daemon is stopping"
            end = .stopped
        }
        return farewell(reason, end: end)
    }

    /// Tells the client why an idle connection closes (`ConnectionClosed`), without waiting: one
    /// small frame, whole unless the client left the socket's buffer nearly full with replies it
    /// has not read, in which case it sees the connection end mid-frame, as if closed.
    private func farewell(_ reason: String, end: End) -> End {
        _ = try? Socket.sendSome(socket, Dispatcher.goodbye(reason: reason).frame, from: 0)
        return end
    }

    private func releaseShare(_ session: inout Session) {
        // The message's buffers are freed by now: their pages go back before the next long
        // message may take their place.
        MemoryTrim.releaseFreedMemory()
        budget.release(maxMessageSize: limits.maxMessageSize)
        session.holdsShare = false
    }

    /// Sends a whole frame, waiting for room in the socket's buffer; a peer that does not take
    /// it within `IdleTimeout=` is dropped. Shutdown does not interrupt a reply, but bounds the
    /// wait by the shutdown's deadline.
    /// - Returns: nil when sent, else why the connection ends.
    private func send(_ frame: [UInt8]) -> End? {
        var offset = 0
        let deadline = MonotonicTime.now + limits.idleTimeout
        while offset < frame.count {
            do throws(Errno) {
                let sent = try Socket.sendSome(socket, frame, from: offset)
                offset += sent
                if sent > 0 { continue }
                let stopDeadline = table.stopDeadline
                let until = MonotonicTime.earliest(deadline, stopDeadline)!
                switch try Socket.wait(socket, for: .writable, wake: entry.wake.descriptor,
                                       milliseconds: until.millisecondsFromNow) {
                case .ready: continue
                case .woken: entry.wake.drain()
                case .timedOut: return stopDeadline.map { $0 <= deadline } == true ? .stoppedMidReply : .replyTimedOut
                }
            } catch {
                return .failed(error)
            }
        }
        return nil
    }

    private func log(_ end: End) {
        let who = "connection \(entry.number) (pid \(entry.peer.pid))"
        switch end {
        case .closedByPeer, .stopped: break
        case .closedMidMessage(let count):
            Log.notice("\(who): closed in the middle of a message (\(count) bytes), ignoring")
        case .messageTimedOut:
            Log.notice("\(who): message not complete within \(limits.idleTimeout.logDescription) (IdleTimeout=), closed as idle")
        case .replyTimedOut:
            Log.notice("\(who): reply not taken within \(limits.idleTimeout.logDescription) (IdleTimeout=), closed as idle")
        case .stoppedMidReply:
            Log.notice("\(who): reply not taken by the end of the shutdown, closed")
        case .madeRoom(let idle):
            Log.notice("\(who): idle for \(idle.logDescription), closed to make room for a new connection (MaxConnections=\(limits.maxConnections))")
        case .refusedMessage(let reason):
            Log.warning("\(who): \(reason), closed")
        case .failed(let error):
            if error.rawValue != EPIPE && error.rawValue != ECONNRESET {
                Log.warning("\(who): \(error), closed")
            }
        }
    }
}
