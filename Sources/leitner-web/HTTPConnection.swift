import Glibc
import LeitnerSystem
import LeitnerWeb

/// One browser connection, served on its own thread: requests read with `HTTPRequestParser`,
/// answered by its listener's `HTTPResponder` (the site, or the AnkiConnect door), kept alive between them. A request must arrive whole within
/// `requestMilliseconds` of its first byte, its response be taken whole within
/// `sendMilliseconds` of its arrival (a pipelined one's too, however long it waited), and the next one start within `idleMilliseconds`, so a slow or silent
/// client frees its place; a refused request is answered and the connection closed. While it
/// waits for a request or receives its head it is idle in the server's `ConnectionTable`: it
/// closes when a new connection needs its place (`MaxConnections=`, the idlest or slowest, see
/// `since`) or the server stops.
struct HTTPConnection {
    /// How long a new connection that has sent nothing may not be asked to make room: a browser
    /// sends its request at once, so this spares a burst of page loads, not a silent client.
    static let freshGrace: Duration = .seconds(1)
    /// How long a request head may be under way before it may be asked to make room: a whole
    /// head comes in one packet or a few at once; one dribbled byte by byte (slowloris) does not.
    static let headGrace: Duration = .milliseconds(250)

    let socket: FileDescriptor
    let entry: WebServer.Table.Entry
    let table: WebServer.Table
    let responder: any HTTPResponder
    let limits: HTTPLimits

    /// Serves the connection until it ends, then closes it and leaves the table.
    func serve() {
        defer {
            socket.close()
            table.remove(entry)
        }
        try? Socket.setNoDelay(socket)
        var buffer: [UInt8] = []
        // When each received part of `buffer` arrived (its end offset in `buffer`), so that a
        // pipelined request's time counts from its arrival, not from when its turn came.
        var arrivals: [(end: Int, time: MonotonicTime)] = []
        var parser = HTTPRequestParser(limits: limits)
        var sentContinue = false
        var requestStart: MonotonicTime?
        var idleSince = MonotonicTime.now
        // Until its first request, a connection may be a browser about to send it.
        var mayMakeRoom = idleSince + Self.freshGrace
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var parse = false
        while true {
            if parse {
                switch parser.parse(buffer) {
                case .complete(let request, let consumed):
                    // Taken whole within `sendMilliseconds` of the request's arrival whole.
                    let arrived = arrivals.first { $0.end >= consumed }?.time ?? .now
                    let deadline = arrived + .milliseconds(limits.sendMilliseconds)
                    buffer.removeFirst(consumed)
                    arrivals = arrivals.compactMap { $0.end > consumed ? ($0.end - consumed, $0.time) : nil }
                    parser.reset()
                    sentContinue = false
                    let response = responder.respond(to: request)
                    let keep = request.wantsKeepAlive && !response.closes && !table.isStopping
                    guard send(response.bytes(keepAlive: keep, head: request.method == .head), by: deadline), keep else { return }
                    requestStart = arrivals.first?.time
                    idleSince = .now
                    mayMakeRoom = idleSince
                    continue  // a pipelined request may be in the buffer already
                case .rejected(let rejection):
                    _ = send(Self.refusal(rejection, limits: limits).bytes(keepAlive: false), by: .now + .milliseconds(limits.sendMilliseconds))
                    return
                case .incomplete(let expectsContinue):
                    if expectsContinue && !sentContinue {
                        guard send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), by: .now + .milliseconds(limits.sendMilliseconds)) else { return }
                        sentContinue = true
                    }
                }
                parse = false
            }
            let deadline = requestStart.map { $0 + .milliseconds(limits.requestMilliseconds) }
                ?? idleSince + .milliseconds(limits.idleMilliseconds)
            let outcome: Socket.WaitOutcome
            do {
                if requestStart != nil && headIsWhole(buffer) {
                    // A body under way: nothing of the request is answered yet, but the learner
                    // may be sending an edit; it is busy.
                    outcome = try Socket.wait(socket, for: .readable, wake: nil, milliseconds: deadline.millisecondsFromNow)
                } else {
                    let since = requestStart.map { $0 + Self.headGrace } ?? mayMakeRoom
                    outcome = try waitWhileIdle(until: deadline, since: since)
                }
            } catch {
                return
            }
            switch outcome {
            case .woken:
                // Asked to close: to make room, or the server stops.
                return
            case .timedOut:
                if requestStart != nil {
                    _ = send(Self.refusal(HTTPRejection(408, "the request did not arrive whole within \(limits.requestMilliseconds / 1000) s"), limits: limits).bytes(keepAlive: false),
                             by: .now + .milliseconds(limits.sendMilliseconds))
                }
                return
            case .ready:
                break
            }
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { raw in try Socket.receive(socket, into: raw) }
            } catch let error as Errno where error == .wouldBlock {
                continue
            } catch {
                return
            }
            if count == 0 { return }
            let now = MonotonicTime.now
            if requestStart == nil { requestStart = now }
            buffer += chunk[0..<count]
            arrivals.append((buffer.count, now))
            parse = true
        }
    }

    /// Whether `buffer` holds a whole request head (its blank line), looked for only where a
    /// head may be.
    private func headIsWhole(_ buffer: [UInt8]) -> Bool {
        let end = min(buffer.count, limits.requestLine + limits.headers)
        guard end >= 4 else { return false }
        for index in 3..<end where buffer[index] == 10 && buffer[index - 1] == 13 && buffer[index - 2] == 10 && buffer[index - 3] == 13 {
            return true
        }
        return false
    }

    /// Waits for the next request, or the rest of its head: the connection is idle, and may be
    /// asked meanwhile to close (`ConnectionTable.park`, `unpark`) from `since` on, never once
    /// its head is whole.
    /// - Returns: `.woken` when it is to close, else what the wait saw.
    private func waitWhileIdle(until deadline: MonotonicTime, since: MonotonicTime) throws(Errno) -> Socket.WaitOutcome {
        guard table.park(entry, since: since) == .serve else { return .woken }
        let outcome: Socket.WaitOutcome
        do throws(Errno) {
            outcome = try Socket.wait(socket, for: .readable, wake: entry.wake.descriptor,
                                      milliseconds: deadline.millisecondsFromNow)
        } catch {
            _ = table.unpark(entry)
            throw error
        }
        if outcome == .woken { entry.wake.drain() }
        guard table.unpark(entry) == .serve else { return .woken }
        // A ring that asked nothing of it (a stale one): wait again.
        return outcome == .woken ? try waitWhileIdle(until: deadline, since: since) : outcome
    }

    /// Sends `bytes` whole by `deadline`, on the non-blocking socket; false when the client went
    /// away or did not read in time (the whole response counts, not each `send`).
    private func send(_ bytes: [UInt8], by deadline: MonotonicTime) -> Bool {
        var offset = 0
        do throws(Errno) {
            while offset < bytes.count {
                let sent = try Socket.sendSome(socket, bytes, from: offset)
                offset += sent
                if sent == 0 {
                    guard try Socket.wait(socket, for: .writable, wake: nil, milliseconds: deadline.millisecondsFromNow) == .ready else { return false }
                }
            }
            return true
        } catch {
            return false
        }
    }

    /// The answer to a refused request: its status and reason in plain text, and the security
    /// headers; the connection closes after it.
    static func refusal(_ rejection: HTTPRejection, limits: HTTPLimits) -> HTTPResponse {
        var headers = SecurityHeaders.headers()
        headers.append(("Content-Type", "text/plain; charset=utf-8"))
        if rejection.status == 405 { headers.append(("Allow", limits.methods.map(\.rawValue).joined(separator: ", "))) }
        var response = HTTPResponse(status: rejection.status, headers: headers, body: Array("\(rejection)\n".utf8))
        response.closes = true
        return response
    }
}
