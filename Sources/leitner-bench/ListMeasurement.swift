import Glibc
import LeitnerSystem

/// `leitnerctl list` through a running `leitnerd`, as a person runs it (`leitnerctl list | wc -l`):
/// the time to the first line and to the last, and the daemon's resident memory after start and
/// at its peak during the listing (docs/performance.md).
enum ListMeasurement {
    struct Result {
        var lines: Int
        var firstLine: Double
        var all: Double
        /// KiB.
        var rssAfterStart: Int
        var peakDuringList: Int
    }

    /// Starts `leitnerd` (next to this program) on `store`, lists it with `leitnerctl` `rounds`
    /// times, and stops it; the best round's times.
    static func run(store: String, workDirectory: String, rounds: Int = 3) throws -> Result {
        let programs = Self.programDirectory()
        let socket = workDirectory + "/bench.sock"
        unlink(socket)
        let daemon = try ChildProcess.spawnShell(
            "exec '\(programs)/leitnerd' --config '\(BenchDevice.configuration(in: workDirectory))' --store '\(store)' --socket '\(socket)' 2>>'\(workDirectory)/leitnerd.log'",
            environment: [:])
        defer {
            kill(daemon, SIGTERM)
            var status: Int32 = 0
            waitpid(daemon, &status, 0)
        }
        try waitForSocket(socket, daemon: daemon)
        let afterStart = memory(of: daemon)
        var best: Result?
        for _ in 0..<rounds {
            let (lines, first, all) = try readLines(of: "exec '\(programs)/leitnerctl' --no-autostart --socket '\(socket)' list")
            let result = Result(lines: lines, firstLine: first, all: all, rssAfterStart: afterStart.rss,
                                peakDuringList: memory(of: daemon).peak)
            if best == nil || all < best!.all { best = result }
        }
        return best!
    }

    /// Runs a shell command and reads its output to the end: its lines, and the seconds to the
    /// first line and to the last.
    static func readLines(of command: String) throws -> (count: Int, first: Double, all: Double) {
        let start = Timing.now()
        guard let pipe = popen(command, "r") else { throw Errno.current }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        var count = 0
        var first = 0.0
        while getline(&line, &capacity, pipe) > 0 {
            if count == 0 { first = Timing.now() - start }
            count += 1
        }
        let all = Timing.now() - start
        free(line)
        // A command that failed measured nothing worth printing.
        if pclose(pipe) != 0 { throw Errno(rawValue: EIO) }
        return (count, first, all)
    }

    static func programDirectory() -> String {
        let me = (try? FileSystem.realPath("/proc/self/exe")) ?? CommandLine.arguments[0]
        return String(me[..<(me.lastIndex(of: "/") ?? me.endIndex)])
    }

    static func waitForSocket(_ path: String, daemon: pid_t) throws {
        for _ in 0..<3000 {
            if let fd = try? Socket.makeStream() {
                defer { fd.close() }
                if (try? Socket.connect(fd, to: path)) != nil { return }
            }
            var status: Int32 = 0
            if waitpid(daemon, &status, WNOHANG) == daemon { break }
            usleep(10_000)
        }
        throw Errno(rawValue: ETIMEDOUT)
    }

    /// A process's resident and peak resident memory in KiB.
    static func memory(of pid: pid_t) -> (rss: Int, peak: Int) {
        guard let bytes = try? FileSystem.readFile(atPath: "/proc/\(pid)/status") else { return (0, 0) }
        var rss = 0, peak = 0
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if line.hasPrefix("VmRSS:"), parts.count >= 2 { rss = Int(parts[1]) ?? 0 }
            if line.hasPrefix("VmHWM:"), parts.count >= 2 { peak = Int(parts[1]) ?? 0 }
        }
        return (rss, peak)
    }
}
