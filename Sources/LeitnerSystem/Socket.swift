import Glibc

/// Unix-domain stream sockets, through the system-call layer (`valueOrErrno`): what the daemon
/// needs to listen and accept, and what a client needs to connect. Every descriptor made here is
/// close-on-exec, so that hooks the daemon runs (`TestReady=`) inherit none of them.
public enum Socket {
    /// The credentials of the process at the other end of a connection (`SO_PEERCRED`). Laid
    /// out as the C library's `struct ucred`, which its header hides from Swift (`_GNU_SOURCE`).
    public struct PeerCredentials: Sendable, Equatable {
        public var pid: Int32
        public var uid: UInt32
        public var gid: UInt32
    }

    /// The longest path a `sockaddr_un` holds, without its terminating NUL.
    public static let maxPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// A new, unconnected `AF_UNIX` `SOCK_STREAM` socket, close-on-exec.
    /// - Parameter nonBlocking: also set `O_NONBLOCK` (for a server driving its own poll loop).
    public static func makeStream(nonBlocking: Bool = false) throws(Errno) -> FileDescriptor {
        var type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
        return FileDescriptor(rawValue: try valueOrErrno { Glibc.socket(AF_UNIX, type, 0) })
    }

    /// A connected pair of `AF_UNIX` stream sockets, close-on-exec (tests, and talking to a child).
    public static func makePair() throws(Errno) -> (FileDescriptor, FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        try nothingOrErrno { socketpair(AF_UNIX, type, 0, &fds) }
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }

    /// Connects `socket` to the listener at `path`.
    /// - Throws: `Errno`; `ENOENT` or `ECONNREFUSED` mean nothing listens there,
    ///   `ENAMETOOLONG` a path longer than `maxPathLength`.
    public static func connect(_ socket: FileDescriptor, to path: String) throws(Errno) {
        try withAddress(path) { address, length throws(Errno) in
            try nothingOrErrno { Glibc.connect(socket.rawValue, address, length) }
        }
    }

    /// Binds `socket` to `path` (which must not exist yet). With `mode`, the socket file appears
    /// with no more than those permission bits (less by the process's mask): Linux makes the file
    /// from the mode of the socket itself, set here with `fchmod` before the bind. Changing the
    /// process's mask instead would change it for every thread creating files meanwhile.
    /// - Throws: `Errno`; `EADDRINUSE` when `path` exists, `ENAMETOOLONG` when it is too long.
    public static func bind(_ socket: FileDescriptor, to path: String, mode: mode_t? = nil) throws(Errno) {
        if let mode { try nothingOrErrno { fchmod(socket.rawValue, mode) } }
        try withAddress(path) { address, length throws(Errno) in
            try nothingOrErrno { Glibc.bind(socket.rawValue, address, length) }
        }
    }

    /// Marks `socket` as listening, with room for `backlog` pending connections.
    public static func listen(_ socket: FileDescriptor, backlog: Int32 = 64) throws(Errno) {
        try nothingOrErrno { Glibc.listen(socket.rawValue, backlog) }
    }

    /// Accepts a connection; the new descriptor is close-on-exec.
    /// - Parameter nonBlocking: also set `O_NONBLOCK` on the new descriptor.
    /// - Throws: `Errno`; `EAGAIN` from a non-blocking listener with nothing pending.
    public static func accept(_ listener: FileDescriptor, nonBlocking: Bool = false) throws(Errno) -> FileDescriptor {
        var flags = Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { flags |= Int32(SOCK_NONBLOCK.rawValue) }
        return FileDescriptor(rawValue: try valueOrErrno { accept4(listener.rawValue, nil, nil, flags) })
    }

    /// The next pending connection of a non-blocking listener; nil when none waits. A connection
    /// its peer gave up before it was accepted (`ECONNABORTED`) is passed over for the next.
    public static func acceptPending(_ listener: FileDescriptor, nonBlocking: Bool = false) throws(Errno) -> FileDescriptor? {
        while true {
            do throws(Errno) {
                return try accept(listener, nonBlocking: nonBlocking)
            } catch where error == .wouldBlock {
                return nil
            } catch where error.rawValue == ECONNABORTED {
                continue
            }
        }
    }

    /// The pid, uid and gid of the peer of a connected socket, as they were at `connect`.
    public static func peerCredentials(_ socket: FileDescriptor) throws(Errno) -> PeerCredentials {
        var credentials = PeerCredentials(pid: 0, uid: 0, gid: 0)
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        try nothingOrErrno { getsockopt(socket.rawValue, SOL_SOCKET, SO_PEERCRED, &credentials, &length) }
        return credentials
    }

    /// True when `socket` is a listening socket (`SO_ACCEPTCONN`): checks a descriptor passed by
    /// socket activation (`LISTEN_FDS`).
    public static func isListening(_ socket: FileDescriptor) throws(Errno) -> Bool {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        try nothingOrErrno { getsockopt(socket.rawValue, SOL_SOCKET, SO_ACCEPTCONN, &value, &length) }
        return value != 0
    }

    /// Sends all of `bytes`, continuing after short sends. Never raises `SIGPIPE`
    /// (`MSG_NOSIGNAL`): a peer that went away is the error `EPIPE`.
    /// - Throws: `Errno`; `EAGAIN` when a send timeout (`setTimeouts`) expired.
    public static func sendAll(_ socket: FileDescriptor, _ bytes: [UInt8]) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let n = try valueOrErrno {
                bytes.withUnsafeBytes { raw in
                    Glibc.send(socket.rawValue, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                }
            }
            offset += n
        }
    }

    /// Receives up to `buffer.count` bytes into `buffer`; 0 means the peer closed its end.
    /// - Throws: `Errno`; `EAGAIN` when a receive timeout (`setTimeouts`) expired or a
    ///   non-blocking socket has nothing to read.
    public static func receive(_ socket: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try valueOrErrno { Glibc.recv(socket.rawValue, buffer.baseAddress, buffer.count, 0) }
    }

    /// Sets how long a blocking send or receive may wait before failing with `EAGAIN`
    /// (`SO_SNDTIMEO`, `SO_RCVTIMEO`); nil waits forever.
    /// - Parameter milliseconds: the timeout, at least 1 ms when given.
    public static func setTimeouts(_ socket: FileDescriptor, milliseconds: Int?) throws(Errno) {
        var time = timeval()
        if let milliseconds {
            let ms = max(1, milliseconds)
            time.tv_sec = ms / 1000
            time.tv_usec = (ms % 1000) * 1000
        }
        let length = socklen_t(MemoryLayout<timeval>.size)
        try nothingOrErrno { setsockopt(socket.rawValue, SOL_SOCKET, SO_RCVTIMEO, &time, length) }
        try nothingOrErrno { setsockopt(socket.rawValue, SOL_SOCKET, SO_SNDTIMEO, &time, length) }
    }

    /// Waits until `socket` has something to read (data, end of file or an error).
    /// - Parameter milliseconds: the longest wait; nil waits forever.
    /// - Returns: false when the time ran out first.
    public static func waitReadable(_ socket: FileDescriptor, milliseconds: Int?) throws(Errno) -> Bool {
        var entry = pollfd(fd: socket.rawValue, events: Int16(POLLIN), revents: 0)
        let timeout = milliseconds.map { Int32(clamping: max(0, $0)) } ?? -1
        return try valueOrErrno { poll(&entry, 1, timeout) } > 0
    }

    /// Shuts down the sending direction: the peer reads end of file once it has the rest.
    public static func shutdownSending(_ socket: FileDescriptor) throws(Errno) {
        try nothingOrErrno { shutdown(socket.rawValue, Int32(SHUT_WR)) }
    }

    /// Calls `body` with a `sockaddr_un` holding `path`.
    private static func withAddress<R>(_ path: String,
                                       _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Errno) -> R) throws(Errno) -> R {
        let bytes = Array(path.utf8)
        if bytes.isEmpty { throw Errno(rawValue: ENOENT) }
        if bytes.count > maxPathLength || bytes.contains(0) { throw Errno(rawValue: ENAMETOOLONG) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        return try withUnsafePointer(to: &address) { pointer throws(Errno) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(Errno) in
                try body(address, length)
            }
        }
    }
}

/// glibc has `accept4`, but its header hides it from Swift (`_GNU_SOURCE`): look it up.
private let accept4: @convention(c) (Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32) -> Int32 = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "accept4") else {
        fatalError("the C library has no accept4")
    }
    return unsafeBitCast(symbol, to: (@convention(c) (Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32) -> Int32).self)
}()
