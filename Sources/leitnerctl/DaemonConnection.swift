import Glibc
import LeitnerClient
import LeitnerCore
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// Reaching the daemon: connect, and when nothing answers start `leitnerd` (as `gpg` starts
/// `gpg-agent`), without racing another client or systemd's socket activation:
/// a lock file next to the socket is taken before anything is started, the socket is tried
/// again under the lock, the daemon is started only when it still does not answer, and the
/// lock is held until it answers. leitnerctl never removes a socket.
enum DaemonConnection {
    /// How long a started daemon may take to answer.
    static let startTimeoutMilliseconds = 10_000

    /// A client connected to the daemon, started first if needed and allowed.
    /// - Throws: `Failure.unreachable` saying why and what to do.
    static func connect(_ settings: ClientSettings) throws -> VarlinkClient {
        do {
            return try VarlinkClient(socketPath: settings.socketPath)
        } catch .notListening {
            guard settings.autostart else {
                throw Failure.unreachable("""
                    nothing answers on '\(settings.socketPath)' and autostart is off: start the daemon with \
                    'systemctl --user start \(settings.box.map { "leitnerd@\($0).socket" } ?? "leitnerd.socket")' \
                    or 'leitnerd\(settings.daemonArguments.map { " " + $0 }.joined())'
                    """)
            }
            // Autostart would make a store for a mistyped box name (R29): only the commands that
            // add cards make a box.
            try BoxSelection.requireMade(settings)
            return try start(settings)
        } catch {
            throw Failure.unreachable(error.description)
        }
    }

    /// The daemon's log file, its directory made (0700) when missing; beside the socket when
    /// the state directory cannot be made.
    private static func autostartLog(_ socketPath: String) -> String {
        let path = ConfigurationLocator(environment: ConfigurationLocator.processEnvironment())
            .autostartLogPath(socketPath: socketPath)
        var made = ""
        for component in FileSystem.parent(of: path).split(separator: "/") {
            made += "/" + component
            guard (try? FileSystem.makeDirectory(made, in: nil, mode: 0o700, existingOK: true)) != nil else {
                return FileSystem.parent(of: socketPath) + "/" + String(path.split(separator: "/").last!)
            }
        }
        return path
    }

    /// Starts `leitnerd` under the lock, or finds that another client or systemd did.
    static func start(_ settings: ClientSettings) throws -> VarlinkClient {
        let socketPath = settings.socketPath
        let directory = FileSystem.parent(of: socketPath)
        do {
            if directory == settings.privateSocketDirectory {
                try ConfigurationLocator(environment: ConfigurationLocator.processEnvironment())
                    .preparePrivateDirectory(directory, create: true)
            } else {
                try FileSystem.makeDirectory(directory, in: nil, mode: 0o700, existingOK: true)
            }
        } catch {
            throw Failure.unreachable("cannot create '\(directory)': \(error)")
        }
        let lockPath = socketPath + ".lock"
        let lock: FileDescriptor
        do {
            lock = try FileDescriptor.open(lockPath, flags: O_RDWR | O_CREAT, mode: 0o600)
            try lock.lockExclusive()
        } catch {
            throw Failure.unreachable("cannot lock '\(lockPath)': \(error)")
        }
        defer { lock.close() }

        // Under the lock: whoever held it before may have started the daemon.
        if let client = try? VarlinkClient(socketPath: socketPath) { return client }

        guard let program = findDaemon() else {
            throw Failure.unreachable("nothing answers on '\(socketPath)' and no leitnerd was found next to leitnerctl or on PATH")
        }
        let logPath = autostartLog(socketPath)
        let logStart = (try? FileSystem.readFile(atPath: logPath))?.count ?? 0
        let pid: pid_t
        do {
            pid = try DetachedProcess.spawn(program, arguments: settings.daemonArguments + ["--autostarted"],
                                         logPath: logPath, environment: DetachedProcess.environmentWithoutFaketime())
        } catch {
            throw Failure.unreachable("cannot start '\(program)': \(error)")
        }
        var waited = 0
        while waited < startTimeoutMilliseconds {
            do {
                return try VarlinkClient(socketPath: socketPath)
            } catch .notListening {
                if let status = DetachedProcess.exitStatus(of: pid) {
                    throw Failure.unreachable("'\(program)' exited with status \(status) before answering\(logTail(logPath, from: logStart))")
                }
            } catch {
                throw Failure.unreachable(error.description)
            }
            usleep(10_000)
            waited += 10
        }
        throw Failure.unreachable("'\(program)' (pid \(pid)) did not answer on '\(socketPath)' within \(startTimeoutMilliseconds / 1000) s; see '\(logPath)'")
    }

    /// `leitnerd` next to this program (a build directory, an install prefix), else on PATH.
    static func findDaemon() -> String? {
        if let me = try? FileSystem.realPath("/proc/self/exe") {
            let sibling = FileSystem.parent(of: me) + "/leitnerd"
            if access(sibling, X_OK) == 0 { return sibling }
        }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/leitnerd"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The last lines the daemon wrote to its log after `offset`, to say why it did not start.
    static func logTail(_ path: String, from offset: Int) -> String {
        guard let bytes = try? FileSystem.readFile(atPath: path), bytes.count > offset else { return "" }
        let lines = String(decoding: bytes[offset...], as: UTF8.self).split(separator: "\n").suffix(3)
        return lines.isEmpty ? "" : ":\n" + lines.joined(separator: "\n")
    }
}

extension ClientSettings {
    /// The arguments an autostarted `leitnerd` gets: the same box, socket and configuration, so
    /// that it finds the store leitnerctl expects.
    var daemonArguments: [String] {
        (box.map { ["--box", $0] } ?? []) + ["--socket", socketPath] + (configPath.map { ["--config", $0] } ?? [])
    }
}
