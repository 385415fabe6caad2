import Glibc

/// TCP over IPv4 and IPv6, for `leitner-web`: the one program that listens on the network. The
/// address is numeric (`127.0.0.1`, `::1`): nothing is looked up in DNS, so a configuration
/// means the same address on every start.
extension Socket {
    /// A numeric IP address and a port, as `bind` and `connect` take them.
    public struct InternetAddress: Sendable, Equatable, CustomStringConvertible {
        /// The address as written: `127.0.0.1`, `::1`, `0.0.0.0`, `::`.
        public var host: String
        public var port: UInt16

        public init(host: String, port: UInt16) {
            self.host = host
            self.port = port
        }

        /// True for an IPv6 address (it holds a colon).
        public var isIPv6: Bool { host.contains(":") }

        /// `HOST:PORT`, with brackets around an IPv6 host, as a URL writes it.
        public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    /// A new, unconnected TCP socket, close-on-exec, for `address`'s family.
    /// - Parameter nonBlocking: also set `O_NONBLOCK` (a listener driven by `poll`).
    public static func makeTCP(for address: InternetAddress, nonBlocking: Bool = false) throws(Errno) -> FileDescriptor {
        var type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
        let family = address.isIPv6 ? AF_INET6 : AF_INET
        return FileDescriptor(rawValue: try valueOrErrno { Glibc.socket(family, type, Int32(IPPROTO_TCP)) })
    }

    /// Binds `socket` to `address`, with `SO_REUSEADDR` so that a restart does not wait for the
    /// old connections' `TIME_WAIT`; an IPv6 socket is IPv6 only (`IPV6_V6ONLY`), so `::1` means
    /// exactly that address.
    /// - Throws: `Errno`; `EINVAL` for a host that is not a numeric address, `EADDRINUSE`
    ///   when another socket has the port, `EADDRNOTAVAIL` for an address this machine lacks.
    public static func bind(_ socket: FileDescriptor, to address: InternetAddress) throws(Errno) {
        var one: Int32 = 1
        let size = socklen_t(MemoryLayout<Int32>.size)
        try nothingOrErrno { setsockopt(socket.rawValue, SOL_SOCKET, SO_REUSEADDR, &one, size) }
        if address.isIPv6 {
            try nothingOrErrno { setsockopt(socket.rawValue, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, size) }
        }
        try withInternetAddress(address) { pointer, length throws(Errno) in
            try nothingOrErrno { Glibc.bind(socket.rawValue, pointer, length) }
        }
    }

    /// Connects `socket` to `address` (tests, the benchmark and the fuzzer reach leitner-web).
    /// - Throws: `Errno`; `ECONNREFUSED` when nothing listens there.
    public static func connect(_ socket: FileDescriptor, to address: InternetAddress) throws(Errno) {
        try withInternetAddress(address) { pointer, length throws(Errno) in
            try nothingOrErrno { Glibc.connect(socket.rawValue, pointer, length) }
        }
    }

    /// The port `socket` is bound to: the one the kernel chose for port 0.
    public static func localPort(_ socket: FileDescriptor) throws(Errno) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        try withUnsafeMutablePointer(to: &storage) { pointer throws(Errno) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(Errno) in
                try nothingOrErrno { getsockname(socket.rawValue, address, &length) }
            }
        }
        return withUnsafeBytes(of: &storage) { raw in
            // sin_port and sin6_port are both at offset 2, in network order.
            UInt16(raw[2]) << 8 | UInt16(raw[3])
        }
    }

    /// The numeric address of a connected socket's peer (`getpeername`): `192.168.1.20`, `fe80::1`;
    /// an IPv4 client of an IPv6 socket as IPv4. Nil for a peer that is not on the network (a
    /// Unix socket's).
    /// - Throws: `Errno`; `ENOTCONN` when the peer is gone already.
    public static func peerHost(_ socket: FileDescriptor) throws(Errno) -> String? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        try withUnsafeMutablePointer(to: &storage) { pointer throws(Errno) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(Errno) in
                try nothingOrErrno { getpeername(socket.rawValue, address, &length) }
            }
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch Int32(storage.ss_family) {
        case AF_INET:
            var value = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self) }.sin_addr
            guard inet_ntop(AF_INET, &value, &text, socklen_t(text.count)) != nil else { return nil }
        case AF_INET6:
            var value = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self) }.sin6_addr
            let bytes = withUnsafeBytes(of: &value) { Array($0) }
            // ::ffff:a.b.c.d, an IPv4 client of a dual-stack socket, is that IPv4 client.
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
                return bytes[12...].map(String.init).joined(separator: ".")
            }
            guard inet_ntop(AF_INET6, &value, &text, socklen_t(text.count)) != nil else { return nil }
        default:
            return nil
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The family of a socket (`SO_DOMAIN`): `AF_UNIX`, `AF_INET` or `AF_INET6`. Checks what
    /// socket activation passed.
    public static func family(_ socket: FileDescriptor) throws(Errno) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        try nothingOrErrno { getsockopt(socket.rawValue, SOL_SOCKET, SO_DOMAIN, &value, &length) }
        return value
    }

    /// Turns off Nagle's algorithm (`TCP_NODELAY`): a response is written in one piece, and a
    /// keep-alive client must not wait 40 ms for its last segment.
    public static func setNoDelay(_ socket: FileDescriptor) throws(Errno) {
        var one: Int32 = 1
        try nothingOrErrno { setsockopt(socket.rawValue, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size)) }
    }

    /// Calls `body` with the `sockaddr_in` or `sockaddr_in6` of `address`.
    private static func withInternetAddress<R>(_ address: InternetAddress,
                                               _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Errno) -> R) throws(Errno) -> R {
        if address.isIPv6 {
            var value = sockaddr_in6()
            value.sin6_family = sa_family_t(AF_INET6)
            value.sin6_port = address.port.bigEndian
            guard inet_pton(AF_INET6, address.host, &value.sin6_addr) == 1 else { throw Errno(rawValue: EINVAL) }
            return try withUnsafePointer(to: &value) { pointer throws(Errno) in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw throws(Errno) in
                    try body(raw, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
        var value = sockaddr_in()
        value.sin_family = sa_family_t(AF_INET)
        value.sin_port = address.port.bigEndian
        guard inet_pton(AF_INET, address.host, &value.sin_addr) == 1 else { throw Errno(rawValue: EINVAL) }
        return try withUnsafePointer(to: &value) { pointer throws(Errno) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw throws(Errno) in
                try body(raw, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }
}
