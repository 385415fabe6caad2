import Glibc
import LeitnerSystem

/// The built `leitner-web`, in front of a `DaemonUnderTest`, on 127.0.0.1 with a port the kernel
/// picks; its first line (a pairing link) is read from a file.
final class WebUnderTest {
    let program: String
    let directory: String
    private(set) var port: UInt16 = 0
    /// The pairing link's path, `/pair/CODE`.
    private(set) var pairingPath = ""
    private var pid: pid_t?
    var logPath: String { directory + "/leitner-web.log" }

    init(programs: String, daemon: DaemonUnderTest) {
        program = programs + "/leitner-web"
        directory = daemon.directory
    }

    /// Starts it and waits for its link.
    /// - Throws: `FuzzFailure` when it does not print one within 20 s.
    func start(socketPath: String) throws(FuzzFailure) {
        let urlPath = directory + "/leitner-web.url"
        unlink(urlPath)
        do {
            pid = try ChildProcess.spawnShell(
                "exec '\(program)' --config '\(directory)/leitner.conf' --socket '\(socketPath)' --listen 127.0.0.1:0 "
                    + "--print-url >'\(urlPath)' 2>>'\(logPath)'",
                environment: ["XDG_STATE_HOME": directory + "/state"])
        } catch {
            throw FuzzFailure("cannot start '\(program)': \(error)")
        }
        for _ in 0..<400 {
            if let bytes = try? FileSystem.readFile(atPath: urlPath), let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first,
               let colon = line.dropFirst("http://127.0.0.1:".count).firstIndex(of: "/"),
               let port = UInt16(line[line.index(line.startIndex, offsetBy: "http://127.0.0.1:".count)..<colon]),
               line[colon...].hasPrefix("/pair/") {
                self.port = port
                pairingPath = String(line[colon...])
                return
            }
            if let ended = exited() { throw FuzzFailure("leitner-web \(ended) at start") }
            usleep(50_000)
        }
        throw FuzzFailure("leitner-web printed no link within 20 s")
    }

    /// A new pairing link's path from the running server's state, as `leitnerctl web --pair`
    /// makes one: the fuzzer's device is logged out by the `/logout` and revoke routes it sends.
    /// - Throws: `FuzzFailure` when `--pair` prints none.
    func newPairingPath(socketPath: String) throws(FuzzFailure) -> String {
        let linkPath = directory + "/leitner-web.pair"
        unlink(linkPath)
        let status: ChildProcess.Termination
        do {
            let pid = try ChildProcess.spawnShell(
                "exec '\(program)' --config '\(directory)/leitner.conf' --socket '\(socketPath)' --listen 127.0.0.1:\(port) "
                    + "--pair >'\(linkPath)' 2>>'\(logPath)'",
                environment: ["XDG_STATE_HOME": directory + "/state"])
            status = try ChildProcess.wait(for: pid)
        } catch {
            throw FuzzFailure("cannot run '\(program) --pair': \(error)")
        }
        let marker = "http://127.0.0.1:\(port)"
        guard let bytes = try? FileSystem.readFile(atPath: linkPath),
              let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first(where: { $0.hasPrefix(marker + "/pair/") }) else {
            throw FuzzFailure("'\(program) --pair' printed no link (\(status))")
        }
        return String(line.dropFirst(marker.count))
    }

    /// How it ended, if it has, without waiting.
    func exited() -> ChildProcess.Termination? {
        guard let pid else { return nil }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        self.pid = nil
        return ChildProcess.Termination(waitStatus: status)
    }

    /// SIGTERM, and the wait.
    func stop() {
        guard let pid else { return }
        kill(pid, SIGTERM)
        _ = try? ChildProcess.wait(for: pid)
        self.pid = nil
    }

    func logTail() -> String {
        guard let bytes = try? FileSystem.readFile(atPath: logPath) else { return "" }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").suffix(10).joined(separator: "\n")
    }
}
