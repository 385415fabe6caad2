import Glibc

/// What a server needs beyond `Socket`: the peer's groups, and sends on a non-blocking socket.
extension Socket {
    /// Sends what the socket takes now of `bytes[offset...]`, never raising `SIGPIPE`.
    /// - Returns: the number of bytes sent; 0 when the socket's buffer is full (`EAGAIN`).
    /// - Throws: `Errno`; `EPIPE` or `ECONNRESET` when the peer went away.
    public static func sendSome(_ socket: FileDescriptor, _ bytes: [UInt8], from offset: Int) throws(Errno) -> Int {
        do throws(Errno) {
            return try valueOrErrno {
                bytes.withUnsafeBytes { raw in
                    Glibc.send(socket.rawValue, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                }
            }
        } catch where error == .wouldBlock {
            return 0
        }
    }

    /// The supplementary groups of the peer of a connected socket (`SO_PEERGROUPS`, Linux 4.13),
    /// as they were at `connect`.
    public static func peerGroups(_ socket: FileDescriptor) throws(Errno) -> [UInt32] {
        let option: Int32 = 59 // SO_PEERGROUPS, not in older Glibc headers
        var groups = [gid_t](repeating: 0, count: 64)
        while true {
            var length = socklen_t(groups.count * MemoryLayout<gid_t>.size)
            do throws(Errno) {
                try nothingOrErrno { getsockopt(socket.rawValue, SOL_SOCKET, option, &groups, &length) }
                return Array(groups.prefix(Int(length) / MemoryLayout<gid_t>.size))
            } catch where error.rawValue == ERANGE && Int(length) > groups.count * MemoryLayout<gid_t>.size {
                groups = [gid_t](repeating: 0, count: Int(length) / MemoryLayout<gid_t>.size)
            }
        }
    }
}
