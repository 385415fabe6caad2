import Glibc

/// A server's listening socket, non-blocking (its accept loop polls it with its signals): taken
/// from systemd socket activation (`LISTEN_FDS`), or bound by the program: leitnerd's at a path
/// with a mode, in a directory only its owner enters; leitner-web's at an address and port.
package struct ServiceListener: Sendable {
    /// The listening descriptor, non-blocking.
    package let descriptor: FileDescriptor
    /// True when systemd passed it.
    package let activated: Bool
    /// The path of a socket this program bound (and removes at exit); nil otherwise.
    package let createdPath: String?
    /// The bound socket's identity, so that exit removes only our socket, never a successor's.
    private let createdIdentity: (device: UInt64, inode: UInt64)?

    /// Why there is no listener: the message names the path or address and the reason.
    package struct ListenerError: Error, CustomStringConvertible, Equatable {
        package var description: String
    }

    /// The kind of socket a program serves on, which an activated socket must be.
    package enum Family: Sendable {
        /// `AF_UNIX`: `ListenStream=/path`.
        case local
        /// `AF_INET` or `AF_INET6`: `ListenStream=ADDRESS:PORT`.
        case internet
    }

    /// The first descriptor systemd passes (`SD_LISTEN_FDS_START`).
    package static let firstActivatedDescriptor: Int32 = 3
    /// How many connections the kernel queues before the accept loop takes them.
    package static let backlog: Int32 = 128

    /// leitnerd's listener: the activated socket, else `path` bound with `mode`.
    package static func open(path: String, mode: mode_t, log: ServiceLog) throws(ListenerError) -> ServiceListener {
        if let activated = try activatedSocket(family: .local, log: log) { return activated }
        return try bind(path: path, mode: mode, log: log)
    }

    /// leitner-web's listener: the activated socket, else `address` bound.
    package static func open(address: Socket.InternetAddress, log: ServiceLog) throws(ListenerError) -> ServiceListener {
        if let activated = try activatedSocket(family: .internet, log: log) { return activated }
        return try bind(address: address)
    }

    /// The descriptor passed by socket activation, if any. The `LISTEN_*` variables are removed
    /// so that no child (a hook) believes they are meant for it.
    static func activatedSocket(family: Family, log: ServiceLog) throws(ListenerError) -> ServiceListener? {
        defer {
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_FDNAMES")
        }
        return try activatedSocket(family: family, pid: getenv("LISTEN_PID").map { String(cString: $0) },
                                   count: getenv("LISTEN_FDS").map { String(cString: $0) },
                                   first: firstActivatedDescriptor, log: log)
    }

    /// The activated socket that `LISTEN_PID=pid` and `LISTEN_FDS=count` describe, starting at
    /// descriptor `first`: none unless `pid` is this process's and `count` at least 1; the first
    /// one when systemd passed several.
    package static func activatedSocket(family: Family, pid: String?, count: String?, first: Int32,
                                        log: ServiceLog) throws(ListenerError) -> ServiceListener? {
        guard let pid = pid.flatMap({ Int32($0) }), pid == getpid() else { return nil }
        guard let count = count.flatMap({ Int($0) }), count >= 1 else { return nil }
        let descriptor = FileDescriptor(rawValue: first)
        let name = "socket activation: descriptor \(first)"
        guard descriptor.isOpen else {
            throw ListenerError(description: "\(name) is not open (LISTEN_FDS=\(count))")
        }
        let listening: Bool, found: Int32
        do throws(Errno) {
            listening = try Socket.isListening(descriptor)
            found = try Socket.family(descriptor)
        } catch {
            throw ListenerError(description: "\(name): \(error)")
        }
        guard listening else {
            throw ListenerError(description: "\(name) is not a listening socket (use Accept=no)")
        }
        switch family {
        case .local where found != AF_UNIX:
            throw ListenerError(description: "\(name) is not a Unix socket (ListenStream=/PATH)")
        case .internet where found != AF_INET && found != AF_INET6:
            throw ListenerError(description: "\(name) is not a TCP socket (ListenStream=ADDRESS:PORT)")
        default:
            break
        }
        do throws(Errno) {
            try descriptor.setNonBlocking()
        } catch {
            throw ListenerError(description: "\(name): \(error)")
        }
        if count > 1 {
            log.warning("socket activation passed \(count) sockets; using the first, ignoring the others")
        }
        return ServiceListener(descriptor: descriptor, activated: true, createdPath: nil, createdIdentity: nil)
    }

    /// Binds a new TCP socket at `address` (port 0: one the kernel chooses).
    package static func bind(address: Socket.InternetAddress) throws(ListenerError) -> ServiceListener {
        do throws(Errno) {
            let socket = try Socket.makeTCP(for: address, nonBlocking: true)
            do throws(Errno) {
                try Socket.bind(socket, to: address)
                try Socket.listen(socket, backlog: backlog)
                return ServiceListener(descriptor: socket, activated: false, createdPath: nil, createdIdentity: nil)
            } catch {
                socket.close()
                throw error
            }
        } catch {
            throw ListenerError(description: "cannot listen on \(address): \(error)")
        }
    }

    /// Binds a new socket at `path`: its directory made (0700) when missing and refused when
    /// another user owns it; a stale socket file that nothing answers on is removed first, a
    /// live one never.
    package static func bind(path: String, mode: mode_t, log: ServiceLog) throws(ListenerError) -> ServiceListener {
        guard path.hasPrefix("/") else {
            throw ListenerError(description: "socket path '\(path)' is not absolute")
        }
        try prepareDirectory(of: path)
        try removeStaleSocket(at: path, log: log)
        do throws(Errno) {
            let socket = try Socket.makeStream(nonBlocking: true)
            do throws(Errno) {
                // The socket file appears with `mode` at most, with no window in which it has
                // looser permissions; the change after gives it exactly `mode`, whatever the mask.
                try Socket.bind(socket, to: path, mode: mode)
                try FileSystem.changeMode(path, in: nil, to: mode)
                try Socket.listen(socket, backlog: backlog)
                let st = try FileSystem.status(path, in: nil)
                return ServiceListener(descriptor: socket, activated: false, createdPath: path,
                                       createdIdentity: (UInt64(st.st_dev), UInt64(st.st_ino)))
            } catch {
                socket.close()
                throw error
            }
        } catch {
            throw ListenerError(description: "cannot listen on '\(path)': \(error)")
        }
    }

    /// Creates the socket's directory (0700) when missing; refuses one another user owns
    /// (someone else could then replace our socket).
    static func prepareDirectory(of path: String) throws(ListenerError) {
        let directory = FileSystem.parent(of: path)
        let me = FileSystem.effectiveUserID
        do throws(Errno) {
            try FileSystem.makeDirectory(directory, in: nil, mode: 0o700)
            return
        } catch where error == .exists {
            // Checked below.
        } catch {
            throw ListenerError(description: "cannot create directory '\(directory)': \(error)")
        }
        let st: stat
        do throws(Errno) {
            st = try FileSystem.status(directory, in: nil)
        } catch {
            throw ListenerError(description: "cannot use directory '\(directory)': \(error)")
        }
        if st.st_mode & S_IFMT != S_IFDIR {
            throw ListenerError(description: "socket directory '\(directory)' is not a directory")
        }
        if st.st_uid != me && st.st_uid != 0 {
            throw ListenerError(description: "socket directory '\(directory)' is owned by uid \(st.st_uid), not by uid \(me): refusing it")
        }
    }

    /// Removes a socket file at `path` that no process accepts connections on.
    static func removeStaleSocket(at path: String, log: ServiceLog) throws(ListenerError) {
        let st: stat
        do throws(Errno) {
            st = try FileSystem.status(path, in: nil)
        } catch where error == .noEntry {
            return
        } catch {
            throw ListenerError(description: "cannot use socket path '\(path)': \(error)")
        }
        guard st.st_mode & S_IFMT == S_IFSOCK else {
            throw ListenerError(description: "'\(path)' exists and is not a socket: refusing to replace it")
        }
        do throws(Errno) {
            let probe = try Socket.makeStream()
            defer { probe.close() }
            do throws(Errno) {
                try Socket.connect(probe, to: path)
            } catch where error.rawValue == ECONNREFUSED {
                try FileSystem.removeFile(path, in: nil)
                log.notice("removed stale socket '\(path)'")
                return
            }
        } catch {
            throw ListenerError(description: "cannot use socket path '\(path)': \(error)")
        }
        throw ListenerError(description: "socket '\(path)' is in use by another process")
    }

    /// Removes the socket file this program created, if it is still ours.
    package func removeCreatedSocket(log: ServiceLog) {
        guard let path = createdPath, let identity = createdIdentity else { return }
        guard let st = try? FileSystem.status(path, in: nil),
              UInt64(st.st_dev) == identity.device, UInt64(st.st_ino) == identity.inode else { return }
        do {
            try FileSystem.removeFile(path, in: nil)
        } catch {
            log.warning("cannot remove socket '\(path)': \(error), ignoring")
        }
    }
}
