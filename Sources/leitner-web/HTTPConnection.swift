import Glibc
import LeitnerSystem
import LeitnerWeb

/// One browser connection, served on its own thread: requests read with `HTTPRequestParser`,
/// answered by `WebApp`, kept alive between them. A request must arrive whole within
/// `requestMilliseconds` of its first byte and the next one start within `idleMilliseconds`,
/// so a slow or silent client frees its place; a refused request is answered and the
/// connection closed. Between requests it is idle in the server's `ConnectionTable`, as a
/// daemon's connection is: it closes when a new connection needs its place
/// (`MaxConnections=`, the one idle the longest) or the server stops.
struct HTTPConnection {
    let socket: FileDescriptor
    let entry: WebServer.Table.Entry
    let table: WebServer.Table
    let app: WebApp
    let limits: HTTPLimits

    /// Serves the connection until it ends, then closes it and leaves the table.
    func serve() {
        defer {
            socket.close()
            table.remove(entry)
        }
        // Blocking sends with a time limit: a client that does not read cannot hold the thread.
        try? Socket.setTimeouts(socket, milliseconds: limits.sendMilliseconds)
        try? Socket.setNoDelay(socket)
        var buffer: [UInt8] = []
        var parser = HTTPRequestParser(limits: limits)
        var sentContinue = false
        var requestStart: MonotonicTime?
        var idleSince = MonotonicTime.now
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var parse = false
        while true {
            if parse {
                switch parser.parse(buffer) {
                case .complete(let request, let consumed):
                    buffer.removeFirst(consumed)
                    parser.reset()
                    sentContinue = false
                    let response = app.respond(to: request)
                    let keep = request.wantsKeepAlive && !response.closes && !table.isStopping
                    guard send(response.bytes(keepAlive: keep, head: request.method == .head)), keep else { return }
                    requestStart = buffer.isEmpty ? nil : .now
                    idleSince = .now
                    continue  // a pipelined request may be in the buffer already
                case .rejected(let rejection):
                    _ = send(Self.refusal(rejection).bytes(keepAlive: false))
                    return
                case .incomplete(let expectsContinue):
                    if expectsContinue && !sentContinue {
                        guard send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return }
                        sentContinue = true
                    }
                }
                parse = false
            }
            let deadline = requestStart.map { $0 + .milliseconds(limits.requestMilliseconds) }
                ?? idleSince + .milliseconds(limits.idleMilliseconds)
            let outcome: Socket.WaitOutcome
            do {
                outcome = requestStart == nil && buffer.isEmpty
                    ? try waitWhileIdle(until: deadline)
                    : try Socket.wait(socket, for: .readable, wake: nil, milliseconds: deadline.millisecondsFromNow)
            } catch {
                return
            }
            switch outcome {
            case .woken:
                // Asked to close: to make room, or the server stops.
                return
            case .timedOut:
                if requestStart != nil {
                    _ = send(Self.refusal(HTTPRejection(408, "the request did not arrive whole within \(limits.requestMilliseconds / 1000) s")).bytes(keepAlive: false))
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
            if requestStart == nil { requestStart = .now }
            buffer += chunk[0..<count]
            parse = true
        }
    }

    /// Waits for the next request with nothing of it received: the connection is idle, and may
    /// be asked meanwhile to close (`ConnectionTable.park`, `unpark`), never once it has begun
    /// to read a request.
    /// - Returns: `.woken` when it is to close, else what the wait saw.
    private func waitWhileIdle(until deadline: MonotonicTime) throws(Errno) -> Socket.WaitOutcome {
        guard table.park(entry) == .serve else { return .woken }
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
        return outcome == .woken ? try waitWhileIdle(until: deadline) : outcome
    }

    /// Sends `bytes` whole; false when the client went away or did not read in time.
    private func send(_ bytes: [UInt8]) -> Bool {
        do {
            try Socket.sendAll(socket, bytes)
            return true
        } catch {
            return false
        }
    }

    /// The answer to a refused request: its status and reason in plain text, and the security
    /// headers; the connection closes after it.
    static func refusal(_ rejection: HTTPRejection) -> HTTPResponse {
        var headers = SecurityHeaders.headers()
        headers.append(("Content-Type", "text/plain; charset=utf-8"))
        if rejection.status == 405 { headers.append(("Allow", "GET, HEAD, POST")) }
        var response = HTTPResponse(status: rejection.status, headers: headers, body: Array("\(rejection)\n".utf8))
        response.closes = true
        return response
    }
}
