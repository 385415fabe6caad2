import Glibc

/// Readiness notification to the service manager (`sd_notify`): one datagram of `KEY=VALUE`
/// lines to the `AF_UNIX` socket named by `NOTIFY_SOCKET`; a leading `@` names an abstract
/// socket. Without `NOTIFY_SOCKET` it does nothing. Self-contained, no libsystemd.
public enum ServiceNotification {
    /// The notification socket's address from the environment, nil when unset or empty.
    public static var socketPath: String? {
        guard let value = getenv("NOTIFY_SOCKET") else { return nil }
        let path = String(cString: value)
        return path.isEmpty ? nil : path
    }

    /// Sends `state` (`READY=1\nSTATUS=…`) to `NOTIFY_SOCKET`.
    /// - Returns: false when `NOTIFY_SOCKET` is not set (nothing sent).
    /// - Throws: `Errno` when the address is unusable or the datagram cannot be sent.
    @discardableResult
    public static func send(_ state: String) throws(Errno) -> Bool {
        guard let path = socketPath else { return false }
        var bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") || bytes.first == UInt8(ascii: "@") else {
            throw Errno(rawValue: EAFNOSUPPORT)   // vsock: and other families are not supported
        }
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        var address = sockaddr_un()
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw Errno(rawValue: ENAMETOOLONG) }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: bytes) }
        // An abstract address is exactly its bytes; a path address includes its NUL.
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))

        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = FileDescriptor(rawValue: try valueOrErrno { socket(AF_UNIX, type, 0) })
        defer { fd.close() }
        let message = Array(state.utf8)
        try withUnsafePointer(to: &address) { pointer throws(Errno) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(Errno) in
                try nothingOrErrno {
                    message.withUnsafeBytes { raw in
                        sendto(fd.rawValue, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL), address, length)
                    }
                }
            }
        }
        return true
    }
}
