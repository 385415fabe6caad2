import Glibc
import LeitnerSystem

/// Tags at scale (R25): one card in ten of a store given a `tags` file, then, through a running
/// `leitnerd`, `leitnerctl list --tag` (time to the first line and to the last) and
/// `leitnerctl tags`, each the first time after the daemon starts (when the box learns the
/// tags) and warm, beside floors measured in the same run: the unfiltered `leitnerctl list`,
/// and a plain loop that tries to open every card's `tags` file and reads those there are
/// (docs/performance.md, "Tags").
enum TagMeasurement {
    /// The tag every tagged card has; each also has one of ten below it (`bench:group3`).
    static let tag = "bench"

    static func run(store: String, workDirectory: String) throws {
        let tagged = try tagEveryTenthCard(store)
        let files = try (0..<3).map { _ in try readTagFiles(store) }.min { $0.seconds < $1.seconds }!
        print("floor: open every card's tags file  \(Timing.ms(files.seconds)) (\(files.found) of \(files.tried) there, \(tagged) written now)")
        let programs = ListMeasurement.programDirectory()
        let socket = workDirectory + "/tags.sock"
        let client = "exec '\(programs)/leitnerctl' --no-autostart --socket '\(socket)'"
        try withDaemon(store: store, socket: socket, workDirectory: workDirectory) { daemon in
            // The first filtered call after the start is the one that learns the tags; the
            // second makes the selection the next ones by the same tag take (`TagTable.selection`).
            let first = try ListMeasurement.readLines(of: "\(client) list --tag \(tag)")
            let second = try ListMeasurement.readLines(of: "\(client) list --tag \(tag)")
            let warm = try (0..<3).map { _ in try ListMeasurement.readLines(of: "\(client) list --tag \(tag)") }.min { $0.all < $1.all }!
            let tagsWarm = try (0..<5).map { _ in try ListMeasurement.readLines(of: "\(client) tags").all }.min()!
            let plain = try (0..<3).map { _ in try ListMeasurement.readLines(of: "\(client) list") }.min { $0.all < $1.all }!
            print("daemon: list --tag, first call      \(first.count) lines, first in \(Timing.ms(first.first)), all in \(Timing.ms(first.all))")
            print("daemon: list --tag, second call     first in \(Timing.ms(second.first)), all in \(Timing.ms(second.all))")
            print("daemon: list --tag, warm            \(warm.count) lines, all in \(Timing.ms(warm.all))")
            print("daemon: tags, warm                  \(Timing.ms(tagsWarm))")
            print("floor: list, unfiltered             \(plain.count) lines, first in \(Timing.ms(plain.first)), all in \(Timing.ms(plain.all))")
            // The warm first line as `leitnerctl list --tag bench | head -1` gets it, beside the
            // unfiltered listing's and the program's own start, in turns: each figure the least
            // and the median of 20 calls. The lines above are read through `sh -c`, whose own
            // start is in them, and each warm figure was the first line of the call that read
            // all its lines soonest.
            let ctl = programs + "/leitnerctl"
            let options = ["--no-autostart", "--socket", socket]
            var lines: [String: [Double]] = [:]
            for _ in 0..<20 {
                for (name, arguments) in [("list --tag \(tag)", options + ["list", "--tag", tag]), ("list", options + ["list"]),
                                          ("--version", ["--version"])] {
                    lines[name, default: []].append(try ListMeasurement.firstLine(ctl, arguments))
                    // The daemon ends the stream a closed output left at its next batch: not in
                    // the next call's time.
                    usleep(50_000)
                }
            }
            for (name, label) in [("list --tag \(tag)", "daemon: list --tag, warm, first line  "),
                                  ("list", "floor: list, unfiltered, first line  "),
                                  ("--version", "floor: leitnerctl --version          ")] {
                let sorted = lines[name]!.sorted()
                print("\(label)least \(Timing.ms(sorted[0])), median \(Timing.ms(sorted[sorted.count / 2])) (20 calls, no shell)")
            }
            let memory = ListMeasurement.memory(of: daemon)
            print("daemon: memory  resident \(memory.rss / 1024) MiB, peak \(memory.peak / 1024) MiB")
        }
        // `Tags` first of all in a daemon of its own, so that it is the call that learns them.
        try withDaemon(store: store, socket: socket, workDirectory: workDirectory) { _ in
            let tagsFirst = try ListMeasurement.readLines(of: "\(client) tags")
            print("daemon: tags, first call            \(tagsFirst.count) tags in \(Timing.ms(tagsFirst.all))")
        }
    }

    /// Runs `body` with a `leitnerd` serving `store` on `socket`, stopped after it.
    private static func withDaemon(store: String, socket: String, workDirectory: String, _ body: (pid_t) throws -> Void) throws {
        let programs = ListMeasurement.programDirectory()
        unlink(socket)
        let daemon = try ChildProcess.spawnShell(
            "exec '\(programs)/leitnerd' --config '\(BenchDevice.configuration(in: workDirectory))' --store '\(store)' --socket '\(socket)' 2>>'\(workDirectory)/leitnerd.log'",
            environment: [:])
        defer { stop(daemon) }
        try ListMeasurement.waitForSocket(socket, daemon: daemon)
        try body(daemon)
    }

    private static func stop(_ daemon: pid_t) {
        kill(daemon, SIGTERM)
        var status: Int32 = 0
        waitpid(daemon, &status, 0)
    }

    /// Gives every tenth card of the store (by its number in the builder's ids) a `tags` file,
    /// unless it has one; how many it wrote.
    static func tagEveryTenthCard(_ store: String) throws -> Int {
        var written = 0
        try forEachCard(of: store) { levelDirectory, id in
            // `card-N-benchmark`: StoreBuilder's ids.
            let parts = id.split(separator: "-")
            guard parts.count == 3, let number = Int(parts[1]), number % 10 == 0 else { return }
            let text = "\(tag)\n\(tag):group\(number / 10 % 10)\n"
            // O_EXCL: a card tagged by an earlier run keeps its file.
            guard let file = try? FileDescriptor.open(id + "/tags", relativeTo: levelDirectory,
                                                      flags: O_WRONLY | O_CREAT | O_EXCL) else { return }
            defer { file.close() }
            try file.writeAll(Array(text.utf8))
            written += 1
        }
        if written > 0 { sync() }
        return written
    }

    /// Calls `body` with each card of the store: its level's directory and its id.
    private static func forEachCard(of store: String, _ body: (FileDescriptor, String) throws -> Void) throws {
        for level in ["1", "2", "3", "4", "5", "6", "7", "finished"] {
            let levelDirectory = try FileDescriptor.openDirectory(store + "/" + level)
            defer { levelDirectory.close() }
            var ids: [String] = []
            try FileSystem.forEachEntry(levelDirectory) { name, _ in ids.append(name) }
            for id in ids { try body(levelDirectory, id) }
        }
    }

    /// The floor of learning the tags: for every card, one `openat` of `ID/tags` relative to its
    /// level directory, and for those that exist, a read and a close; nothing of the box.
    static func readTagFiles(_ store: String) throws -> (seconds: Double, tried: Int, found: Int) {
        var tried = 0, found = 0
        let start = Timing.now()
        try forEachCard(of: store) { levelDirectory, id in
            tried += 1
            guard let file = try? FileDescriptor.open(id + "/tags", relativeTo: levelDirectory,
                                                      flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK) else { return }
            defer { file.close() }
            _ = try file.read(upTo: 4096)
            found += 1
        }
        return (Timing.now() - start, tried, found)
    }
}
