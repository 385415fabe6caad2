import Glibc
import LeitnerSystem

/// The listening socket: taken from systemd socket activation (`LISTEN_FDS`), or
/// bound at the configured path with the configured mode, in a directory only its owner enters.
struct Listener {
    /// The listening descriptor, non-blocking.
    let descriptor: FileDescriptor
    /// The path of a socket this daemon bound (and removes at exit); nil when activated.
    let createdPath: String?
    /// The bound socket's identity, so that exit removes only our socket, never a successor's.
    private let createdIdentity: (device: UInt64, inode: UInt64)?

    /// Why there is no listener: the message names the path and the reason.
    struct ListenerError: Error, CustomStringConvertible {
        var description: String
    }

    /// The first descriptor systemd passes (`SD_LISTEN_FDS_START`).
    static let firstActivatedDescriptor: Int32 = 3

    /// Takes the socket from socket activation when `LISTEN_PID` names this process and
    /// `LISTEN_FDS` is at least 1; else binds `path` with `mode`.
    static func open(path: String, mode: mode_t) throws(ListenerError) -> Listener {
        if let activated = try activatedSocket() {
            return Listener(descriptor: activated, createdPath: nil, createdIdentity: nil)
        }
        return try bind(path: path, mode: mode)
    }

    /// The descriptor passed by socket activation, if any. The `LISTEN_*` variables are removed
    /// so that no child (a hook) believes they are meant for it.
    static func activatedSocket() throws(ListenerError) -> FileDescriptor? {
        defer {
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_FDNAMES")
        }
        guard let pidText = getenv("LISTEN_PID"), let countText = getenv("LISTEN_FDS") else { return nil }
        guard let pid = Int32(String(cString: pidText)), pid == getpid() else { return nil }
        guard let count = Int(String(cString: countText)), count >= 1 else { return nil }
        let descriptor = FileDescriptor(rawValue: firstActivatedDescriptor)
        guard descriptor.isOpen else {
            throw ListenerError(description: "socket activation: descriptor 3 is not open (LISTEN_FDS=\(count))")
        }
        if count > 1 {
            Log.warning("socket activation passed \(count) sockets; using the first, ignoring the others")
        }
        do {
            guard try Socket.isListening(descriptor) else {
                throw ListenerError(description: "socket activation: descriptor 3 is not a listening socket (use Accept=no)")
            }
            try descriptor.setNonBlocking()
        } catch let error as Errno {
            throw ListenerError(description: "socket activation: descriptor 3: \(error)")
        } catch {
            throw error as! ListenerError
        }
        return descriptor
    }

    /// Binds a new socket at `path`: its directory made (0700) when missing and refused when
    /// another user owns it; a stale socket file that nothing answers on is removed first, a
    /// live one never.
    static func bind(path: String, mode: mode_t) throws(ListenerError) -> Listener {
        guard path.hasPrefix("/") else {
            throw ListenerError(description: "socket path '\(path)' is not absolute")
        }
        try prepareDirectory(of: path)
        try removeStaleSocket(at: path)
        do throws(Errno) {
            let socket = try Socket.makeStream(nonBlocking: true)
            do throws(Errno) {
                // The mask makes the socket file appear with `mode` already, with no window in
                // which it has looser permissions.
                try FileSystem.withCreationMask(~mode & 0o777) { () throws(Errno) in
                    try Socket.bind(socket, to: path)
                }
                try FileSystem.changeMode(path, in: nil, to: mode)
                try Socket.listen(socket, backlog: 128)
                let st = try FileSystem.status(path, in: nil)
                return Listener(descriptor: socket, createdPath: path,
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
        let directory = parent(of: path)
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
    static func removeStaleSocket(at path: String) throws(ListenerError) {
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
                Log.notice("removed stale socket '\(path)'")
                return
            }
        } catch {
            throw ListenerError(description: "cannot use socket path '\(path)': \(error)")
        }
        throw ListenerError(description: "socket '\(path)' is in use by another process")
    }

    /// Removes the socket file this daemon created, if it is still ours.
    func removeCreatedSocket() {
        guard let path = createdPath, let identity = createdIdentity else { return }
        guard let st = try? FileSystem.status(path, in: nil),
              UInt64(st.st_dev) == identity.device, UInt64(st.st_ino) == identity.inode else { return }
        do {
            try FileSystem.removeFile(path, in: nil)
        } catch {
            Log.warning("cannot remove socket '\(path)': \(error), ignoring")
        }
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
