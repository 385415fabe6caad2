import Glibc
import LeitnerSystem

/// The built `leitnerd`, run on a temporary store and socket of its own, as the end-to-end tests
/// run it: a configuration naming its device, so that nothing is written under the user's home.
final class DaemonUnderTest {
    /// The temporary directory holding the store, the socket, the configuration and the log.
    let directory: String
    var storePath: String { directory + "/store" }
    var socketPath: String { directory + "/leitnerd.sock" }
    /// The daemon's standard error, appended to across restarts.
    var logPath: String { directory + "/leitnerd.log" }
    /// The device the daemon writes as (docs/sync.md): its review log is `.leitner/devices/fuzz/log`.
    static let device = "fuzz"

    /// libfaketime, when installed: the daemon then reads its clock from `clockPath`, which the
    /// fuzzer moves forward (days pass: new tests, skipped days, R6).
    let libfaketime: String? = DaemonUnderTest.findLibfaketime()
    var clockPath: String { directory + "/faketime" }
    /// How far ahead of the real clock the daemon's is, in seconds.
    private(set) var clockAhead = 0

    private let program: String
    private var pid: pid_t?
    /// How the daemon ended, once it has.
    private(set) var termination: ChildProcess.Termination?

    init(programs: String) throws(Errno) {
        program = programs + "/leitnerd"
        directory = try FileSystem.makeTemporaryDirectory(prefix: "leitner-fuzz")
        let configuration = directory + "/leitner.conf"
        let text = "[Sync]\nDevice=\(DaemonUnderTest.device)\n"
        let fd = try FileDescriptor.open(configuration, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        defer { fd.close() }
        try fd.writeAll(Array(text.utf8))
        try moveClock(by: 0)
    }

    /// Moves the daemon's clock forward by `seconds` (libfaketime reads the file on every call).
    func moveClock(by seconds: Int) throws(Errno) {
        clockAhead += seconds
        let fd = try FileDescriptor.open(clockPath, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        defer { fd.close() }
        try fd.writeAll(Array("+\(clockAhead)\n".utf8))
    }

    /// The Debian package faketime's library, if installed.
    static func findLibfaketime() -> String? {
        var found = glob_t()
        defer { globfree(&found) }
        guard glob("/usr/lib/*/faketime/libfaketime.so.1", 0, nil, &found) == 0, found.gl_pathc > 0,
              let first = found.gl_pathv[0] else {
            return access("/usr/lib/faketime/libfaketime.so.1", R_OK) == 0 ? "/usr/lib/faketime/libfaketime.so.1" : nil
        }
        return String(cString: first)
    }

    /// Starts the daemon and waits until its socket takes connections.
    /// - Throws: `FuzzFailure` when it does not start within 20 s.
    func start() throws(FuzzFailure) {
        unlink(socketPath)
        termination = nil
        var environment = ["XDG_STATE_HOME": directory + "/state", "XDG_RUNTIME_DIR": directory]
        if let libfaketime {
            environment["LD_PRELOAD"] = libfaketime
            environment["FAKETIME_TIMESTAMP_FILE"] = clockPath
            environment["FAKETIME_NO_CACHE"] = "1"
            environment["DONT_FAKE_MONOTONIC"] = "1"
        }
        do {
            pid = try ChildProcess.spawnShell(
                "exec '\(program)' --config '\(directory)/leitner.conf' --store '\(storePath)' "
                    + "--socket '\(socketPath)' 2>>'\(logPath)'",
                environment: environment)
        } catch {
            throw FuzzFailure("cannot start '\(program)': \(error)")
        }
        for _ in 0..<400 {
            if (try? FuzzConnection(socketPath: socketPath)) != nil { return }
            if let ended = exited() { throw FuzzFailure("leitnerd \(ended) at start") }
            usleep(50_000)
        }
        throw FuzzFailure("leitnerd did not listen on '\(socketPath)' within 20 s")
    }

    /// How the daemon ended, if it has, without waiting.
    func exited() -> ChildProcess.Termination? {
        if let termination { return termination }
        guard let pid else { return nil }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        termination = ChildProcess.Termination(waitStatus: status)
        self.pid = nil
        return termination
    }

    /// Waits up to `seconds` for the daemon to end by itself (after `Stop`).
    func waitForExit(seconds: Int) -> ChildProcess.Termination? {
        for _ in 0..<(seconds * 20) {
            if let ended = exited() { return ended }
            usleep(50_000)
        }
        return nil
    }

    /// Stops the daemon with SIGTERM and waits for it (SIGKILL after 20 s).
    /// - Returns: how it ended.
    @discardableResult
    func stop() -> ChildProcess.Termination? {
        guard let pid else { return termination }
        kill(pid, SIGTERM)
        if let ended = waitForExit(seconds: 20) { return ended }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        self.pid = nil
        termination = .signalled(SIGKILL)
        return termination
    }

    /// The last lines the daemon wrote to its standard error; after a crash, the start of its
    /// report (the fatal error and the first frames), not the registers at its end.
    func logTail(lines: Int = 15) -> String {
        guard let bytes = try? FileSystem.readFile(atPath: logPath) else { return "" }
        let all = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        if let crash = all.lastIndex(where: { $0.contains("Fatal error") || $0.contains("crashed:") }) {
            return all[crash...].prefix(lines).joined(separator: "\n")
        }
        return all.suffix(lines).joined(separator: "\n")
    }

    /// Removes the temporary directory, store included.
    func removeDirectory() {
        guard let slash = directory.lastIndex(of: "/"),
              let parent = try? FileDescriptor.openDirectory(String(directory[..<slash]) + "/") else { return }
        defer { parent.close() }
        try? FileSystem.removeTree(String(directory[directory.index(after: slash)...]), in: parent)
    }
}

extension ChildProcess.Termination {
    /// From a status word of `waitpid` (the W* macros are not imported).
    init(waitStatus status: Int32) {
        let signal = status & 0x7f
        self = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }
}
