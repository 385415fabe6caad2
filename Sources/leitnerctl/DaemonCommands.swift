import Glibc
import LeitnerClient
import LeitnerProtocol
import LeitnerSystem
import LeitnerVarlink

/// The commands about the daemon itself rather than the box: stop.
enum DaemonCommands {
    /// How long `stop` waits for the daemon to exit: its own stop limit (5 s) and some more.
    static let exitWaitMilliseconds = 10_000

    /// `stop`: asks the daemon to stop (`Stop()`), as SIGTERM does, and waits until it has
    /// exited. Never starts a daemon: when nothing answers there is nothing to stop.
    static func stop(_ context: Context, _ arguments: ParsedArguments) throws {
        let socketPath = context.settings.socketPath
        let client: VarlinkClient
        do {
            // A daemon that does not answer within its own stop limit is not going to.
            client = try VarlinkClient(socketPath: socketPath, timeoutMilliseconds: exitWaitMilliseconds)
        } catch .notListening {
            Console.out("leitnerd is not running: nothing answers on '\(socketPath)'.")
            return
        } catch {
            throw Failure.unreachable(error.description)
        }
        // The process that listens: the daemon, unless systemd made the socket (then the peer is
        // the service manager, and the daemon's exit cannot be watched by its pid).
        let daemon = client.peer.map(\.pid).flatMap { isDaemon($0) ? $0 : nil }
        _ = try BoxClient(client).stop()
        guard let daemon else {
            Console.out("leitnerd is stopping.")
            return
        }
        var waited = 0
        while !hasExited(daemon) {
            guard waited < exitWaitMilliseconds else {
                throw Failure.failed("leitnerd (pid \(daemon)) is still running \(exitWaitMilliseconds / 1000) s after it was asked to stop")
            }
            usleep(10_000)
            waited += 10
        }
        Console.out("Stopped leitnerd (pid \(daemon)).")
    }

    /// True when process `pid` is a leitnerd (its command name).
    static func isDaemon(_ pid: Int32) -> Bool {
        guard pid > 0, let bytes = try? FileSystem.readFile(atPath: "/proc/\(pid)/comm", limit: 64) else { return false }
        return String(decoding: bytes, as: UTF8.self).hasPrefix("leitnerd")
    }

    /// True when process `pid` is gone, or has exited and waits for its parent (a zombie).
    static func hasExited(_ pid: Int32) -> Bool {
        guard let bytes = try? FileSystem.readFile(atPath: "/proc/\(pid)/stat", limit: 4096) else { return true }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return true }
        return text[text.index(after: close)...].trimmingPrefix(" ").first == "Z"
    }
}
