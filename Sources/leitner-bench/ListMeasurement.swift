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

    /// Starts `program` with `arguments`, no shell between (a shell's own start was in each
    /// figure of `readLines`), and reads its output up to the first line: the seconds to it.
    /// Its output is closed then, as `head -1` closes it, and the program waited for.
    static func firstLine(_ program: String, _ arguments: [String]) throws -> Double {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw Errno.current }
        let start = Timing.now()
        let child: pid_t
        do {
            child = try ChildProcess.spawn(program, arguments: arguments, output: .descriptor(ends[1]))
        } catch {
            close(ends[0])
            close(ends[1])
            throw error
        }
        close(ends[1])
        var seconds: Double?
        var buffer = [UInt8](repeating: 0, count: 4096)
        while seconds == nil {
            let count = read(ends[0], &buffer, buffer.count)
            guard count > 0 else { break }
            if buffer[..<count].contains(10) { seconds = Timing.now() - start }
        }
        close(ends[0])
        _ = try ChildProcess.wait(for: child)
        // A program that printed no line measured nothing worth printing.
        guard let seconds else { throw Errno(rawValue: EIO) }
        return seconds
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
