import Glibc
import LeitnerSystem

/// A browser's side of leitner-web for the benchmark: one kept-alive TCP connection, a request
/// written whole, the response read to its `Content-Length`.
final class WebClient {
    let socket: FileDescriptor
    private var buffer: [UInt8] = []

    init(port: UInt16) throws {
        let address = Socket.InternetAddress(host: "127.0.0.1", port: port)
        socket = try Socket.makeTCP(for: address)
        try Socket.connect(socket, to: address)
        try Socket.setNoDelay(socket)
    }

    deinit { socket.close() }

    /// Sends a request and returns the status, the header lines and the body.
    func request(_ method: String, _ target: String, cookie: String? = nil, form: String? = nil) throws
        -> (status: Int, headers: [String], body: [UInt8]) {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if let cookie { text += "Cookie: \(cookie)\r\n" }
        if let form { text += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n" }
        text += "\r\n" + (form ?? "")
        try Socket.sendAll(socket, Array(text.utf8))
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = headEnd() {
                let headers = String(decoding: buffer[..<end], as: UTF8.self).split(separator: "\r\n").map(String.init)
                let status = Int(headers[0].split(separator: " ")[1]) ?? 0
                let length = headers.first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst(15).trimmingPrefix(" ")) } ?? 0
                if buffer.count >= end + 4 + length {
                    let body = Array(buffer[(end + 4)..<(end + 4 + length)])
                    buffer.removeFirst(end + 4 + length)
                    return (status, headers, body)
                }
            }
            let count = try chunk.withUnsafeMutableBytes { raw in try Socket.receive(socket, into: raw) }
            guard count > 0 else { throw Errno(rawValue: ECONNRESET) }
            buffer += chunk[0..<count]
        }
    }

    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }
}
