import Glibc
import LeitnerSystem
import LeitnerWeb

/// One browser connection, served on its own thread: requests read with `HTTPRequestParser`,
/// answered by `WebApp`, kept alive between them. A request must arrive whole within
/// `requestMilliseconds` of its first byte and the next one start within `idleMilliseconds`,
/// so a slow or silent client frees its place; a refused request is answered and the
/// connection closed.
struct HTTPConnection {
    let socket: FileDescriptor
    let app: WebApp
    let limits: HTTPLimits
    /// Readable once the server stops: an idle connection closes at once.
    let stopping: EventDescriptor

    func serve() {
        defer { socket.close() }
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
                    let keep = request.wantsKeepAlive && !response.closes && !isStopping
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
                outcome = try Socket.wait(socket, for: .readable, wake: requestStart == nil ? stopping.descriptor : nil,
                                          milliseconds: deadline.millisecondsFromNow)
            } catch {
                return
            }
            switch outcome {
            case .woken:
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

    private var isStopping: Bool {
        (try? Poll.readable([stopping.descriptor], milliseconds: 0).first) ?? false
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
