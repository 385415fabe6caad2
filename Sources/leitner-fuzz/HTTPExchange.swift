import Glibc
import LeitnerSystem

/// One request to leitner-web on a connection of its own: the bytes sent in pieces (as a slow or
/// odd client sends them), the sending side shut, and everything the server answers until it
/// closes.
enum HTTPExchange {
    /// The server's answer; empty when it closed without one (a request cut short).
    /// - Throws: `FuzzFailure` when it cannot be reached or does not close within `seconds`.
    static func send(_ bytes: [UInt8], port: UInt16, pieces: [Int] = [], seconds: Int = 20) throws(FuzzFailure) -> [UInt8] {
        let address = Socket.InternetAddress(host: "127.0.0.1", port: port)
        let socket: FileDescriptor
        do throws(Errno) {
            socket = try Socket.makeTCP(for: address)
            do throws(Errno) {
                try Socket.connect(socket, to: address)
            } catch {
                socket.close()
                throw error
            }
        } catch {
            throw FuzzFailure("cannot connect to leitner-web on port \(port): \(error)")
        }
        defer { socket.close() }
        var offset = 0
        for cut in pieces.sorted() where cut > offset && cut < bytes.count {
            if (try? Socket.sendAll(socket, Array(bytes[offset..<cut]))) == nil { break }
            offset = cut
        }
        if offset < bytes.count { _ = try? Socket.sendAll(socket, Array(bytes[offset...])) }
        try? Socket.shutdownSending(socket)
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        let deadline = MonotonicTime.now + .seconds(seconds)
        while true {
            guard (try? Socket.waitReadable(socket, milliseconds: deadline.millisecondsFromNow)) == true else {
                throw FuzzFailure("leitner-web neither answered nor closed within \(seconds) s")
            }
            let count = (try? chunk.withUnsafeMutableBytes { raw in try Socket.receive(socket, into: raw) }) ?? 0
            if count <= 0 { return answer }
            answer += chunk[0..<count]
            if answer.count > 64 << 20 { throw FuzzFailure("leitner-web answered more than 64 MiB") }
        }
    }

    /// What is wrong with `answer`, if anything: it must be empty (a request cut short) or start
    /// with an HTTP/1.1 status line, and no response in it may be a server error other than 503
    /// (busy) and 505 (another version): a 500 is a bug.
    static func problem(_ answer: [UInt8]) -> String? {
        if answer.isEmpty { return nil }
        let text = String(decoding: answer, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 "), let status = Int(text.dropFirst(9).prefix(3)), (100...599).contains(status) else {
            return "the answer does not start with an HTTP/1.1 status line: \(text.prefix(80).debugDescription)"
        }
        for bad in ["HTTP/1.1 500 ", "HTTP/1.1 501 ", "HTTP/1.1 502 "] where text.contains(bad) {
            return "a server error in the answer: \(bad)"
        }
        return nil
    }
}
