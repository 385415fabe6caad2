import Glibc
import LeitnerSystem

/// The listening TCP socket: from systemd (`leitner-web.socket`, `LISTEN_FDS`), or bound to
/// `Listen=`. Non-blocking: the server's loop polls it with its signals.
struct WebListener {
    let descriptor: FileDescriptor
    /// The address it listens on, for the printed link; the activated socket's port as
    /// systemd bound it.
    let address: Socket.InternetAddress
    let activated: Bool

    struct ListenerError: Error, CustomStringConvertible {
        var description: String
    }

    static func open(_ address: Socket.InternetAddress) throws(ListenerError) -> WebListener {
        if let activated = try activatedSocket(configured: address) { return activated }
        do throws(Errno) {
            let socket = try Socket.makeTCP(for: address, nonBlocking: true)
            do throws(Errno) {
                try Socket.bind(socket, to: address)
                try Socket.listen(socket, backlog: 64)
                let port = try Socket.localPort(socket)
                return WebListener(descriptor: socket, address: Socket.InternetAddress(host: address.host, port: port), activated: false)
            } catch {
                socket.close()
                throw error
            }
        } catch {
            throw ListenerError(description: "cannot listen on \(address): \(error)")
        }
    }

    /// The socket systemd passed, when `LISTEN_PID` names this process. The variables are
    /// removed, so no child believes they are its own.
    static func activatedSocket(configured: Socket.InternetAddress) throws(ListenerError) -> WebListener? {
        defer {
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_FDNAMES")
        }
        guard let pidText = getenv("LISTEN_PID"), let countText = getenv("LISTEN_FDS"),
              let pid = Int32(String(cString: pidText)), pid == getpid(),
              let count = Int(String(cString: countText)), count >= 1 else { return nil }
        let descriptor = FileDescriptor(rawValue: 3)
        let listening: Bool, family: Int32, port: UInt16
        do throws(Errno) {
            listening = try Socket.isListening(descriptor)
            family = try Socket.family(descriptor)
            port = try Socket.localPort(descriptor)
            try descriptor.setNonBlocking()
        } catch {
            throw ListenerError(description: "socket activation: descriptor 3: \(error)")
        }
        guard listening else {
            throw ListenerError(description: "socket activation: descriptor 3 is not a listening socket (use Accept=no)")
        }
        guard family == AF_INET || family == AF_INET6 else {
            throw ListenerError(description: "socket activation: descriptor 3 is not a TCP socket (ListenStream=ADDRESS:PORT)")
        }
        if count > 1 { WebLog.warning("socket activation passed \(count) sockets; using the first") }
        return WebListener(descriptor: descriptor, address: Socket.InternetAddress(host: configured.host, port: port), activated: true)
    }
}
