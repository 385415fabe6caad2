import Glibc
import LeitnerCore
import LeitnerSystem

/// The search index alone, in a fresh process (docs/performance.md, "Watches", "The first
/// search"): the floor of asking every card's stamp (a `stat` of each card directory and of each
/// of its files, nothing of the box), then the first search as the daemon makes it — the index
/// built off the turn (`BoxOptions.buildsIndexesApart`), from its file when the store has one
/// (`SearchIndexFile`; the first run on a store writes it, the next one reads it) — to its
/// first line and to its end (its lines given a level at a time as the build reads it), the time until the cards taken from the file are watched, the
/// inotify watches the process then holds beside the kernel's limit, then warm searches, a
/// `Tags` and a search after a hand edit of one card, each the median of 9. Run it in a user
/// namespace whose `max_inotify_watches` is 8,192 to see the box there.
enum SearchMeasurement {
    static func run(store: String) throws {
        let floor = try (0..<3).map { _ in try Timing.secondsThrowing { _ = try statEveryCard(store) } }.min()!
        print("floor: a stat of every card directory and file  \(Timing.ms(floor)) (\(try statEveryCard(store)) stats)")
        let reads = try (0..<3).map { _ in try Floors.readCards(store) }.min { $0.seconds < $1.seconds }!
        print("floor: read every card (directory listed, sides read)  \(Timing.ms(reads.seconds)) (\(reads.cards) cards)")
        var options = BoxOptions(storePath: store, device: BenchDevice.name)
        options.buildsIndexesApart = true
        // `WATCH_LIMIT=N`: the box's own limit, to see it without a user namespace.
        if let value = getenv("WATCH_LIMIT").map({ String(cString: $0) }), let limit = Int(value) { options.watchLimit = limit }
        let saved = access(store + "/.leitner/local.\(BenchDevice.name)/search-index", F_OK) == 0
        let box = try Box(options: options)
        defer { box.close() }
        let fields = Set(SearchMatch.Field.allCases)
        let rare = try SearchPattern("back 77777", regex: false)
        let common = try SearchPattern("FRONT 9", regex: false)
        var firstLine = 0.0
        let start = Timing.now()
        var build: IndexBuild?
        // As a daemon's connection does: run the build a call waits for, then call again.
        func awaiting<T>(_ body: () throws -> T) throws -> T {
            while true {
                do { return try body() } catch {
                    guard let awaited = box.takeAwaitedBuild() else { throw error }
                    awaited.run()
                    build = awaited
                }
            }
        }
        // As the daemon marks each call (`BoxOwner.run`).
        box.callBegan = .now
        // As the daemon's `Search`: the build begun on a thread of its own, each piece's lines
        // given once it is read. A common word, 1,000 lines, as a person's first search; its line
        // comes when the piece of its first card is read, so the word is one whose cards are
        // spread over the order ("front 1": ids by their digits, `card-1…` first), where "front
        // 9"'s come last in each level and a rare word's wherever its card is.
        let spread = try SearchPattern("FRONT 1", regex: false)
        var scan = try awaiting { try box.startSearch(spread, fields: fields, level: nil, limit: 1000, duringBuild: true) }
        if let begun = scan.build { build = begun }
        while !scan.isFinished {
            if try !box.nextMatches(of: &scan, upTo: 256).isEmpty, firstLine == 0 { firstLine = Timing.now() - start }
        }
        box.callBegan = nil
        let first = Timing.now() - start
        while let build, !build.isDone { usleep(1000) }
        print("search: first, \(saved ? "the index's file there" : "no index file (reads every card)"), common word  first line "
              + "\(Timing.ms(firstLine)), 1,000 lines \(Timing.ms(first)), every card read \(Timing.ms(Timing.now() - start))")
        while let build, !build.isFinished { usleep(1000) }
        print("search: the build's file written and its cards watched after  \(Timing.ms(Timing.now() - start))")
        let limit = Inotify.userLimit().map { "\($0)" } ?? "unknown"
        print("search: inotify watches held       \(watchesHeld()) (the user's limit \(limit))")
        for warning in box.takeWarnings() { print("search: said once: \(warning)") }
        func median(_ body: () throws -> Void) throws -> Double {
            Timing.percentile(try (0..<9).map { _ in try Timing.secondsThrowing(body) }, 0.5)
        }
        let warmRare = try median { _ = try box.search(rare, fields: fields, level: nil) }
        let warmCommon = try median { _ = try box.search(common, fields: fields, level: nil, limit: 1000) }
        let searchBuild = build
        _ = try awaiting { try box.tagCounts() }
        while let build, !build.isFinished { usleep(1000) }
        build = searchBuild
        let tags = try median { _ = try box.tagCounts() }
        print("search: warm, rare word \(Timing.ms(warmRare)); common word, 1,000 lines \(Timing.ms(warmCommon)); tags \(Timing.ms(tags))")
        // A side rewritten in place, as an editor that does not rename saves it: found by the
        // card's watch, or by its files' times.
        let path = try box.show(id: "card-77777-benchmark").front.path
        var edits: [Double] = []
        for round in 0..<5 {
            let fd = open(path, O_WRONLY | O_TRUNC)
            let text = Array("front edited \(round)".utf8)
            _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            edits.append(try Timing.secondsThrowing {
                let found = try box.search(try SearchPattern("edited \(round)", regex: false), fields: fields, level: nil)
                if found.isEmpty { complain("the edit \(round) was not found") }
            })
        }
        print("search: after a side edited in place, median of 5  \(Timing.ms(Timing.percentile(edits, 0.5)))")
    }

    /// A `stat` of every card directory of the store and of each of its entries, relative to the
    /// level directory, as a stamp asks them (`CardStamp.holds`); how many.
    static func statEveryCard(_ store: String) throws -> Int {
        var count = 0
        for level in ["1", "2", "3", "4", "5", "6", "7", "finished"] {
            let levelDirectory = try FileDescriptor.openDirectory(store + "/" + level)
            defer { levelDirectory.close() }
            var ids: [String] = []
            try FileSystem.forEachEntry(levelDirectory) { name, _ in ids.append(name) }
            for id in ids {
                guard (try? FileSystem.status(id, in: levelDirectory)) != nil else { continue }
                count += 1
                // The bench's cards have two sides, `front.txt` and `back.txt` (`StoreBuilder`).
                for side in ["front.txt", "back.txt"] where (try? FileSystem.status(id + "/" + side, in: levelDirectory)) != nil { count += 1 }
            }
        }
        return count
    }

    /// The inotify watches this process holds, from the kernel's list.
    static func watchesHeld() -> Int {
        guard let directory = try? FileDescriptor.openDirectory("/proc/self/fdinfo") else { return 0 }
        defer { directory.close() }
        guard let descriptors = try? FileSystem.list(directory) else { return 0 }
        var count = 0
        for entry in descriptors {
            guard let bytes = try? FileSystem.readFile(atPath: "/proc/self/fdinfo/" + entry.name) else { continue }
            count += bytes.split(separator: UInt8(ascii: "\n")).filter { $0.starts(with: Array("inotify wd:".utf8)) }.count
        }
        return count
    }
}
