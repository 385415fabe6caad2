import Glibc
import LeitnerCore

/// One measurement of a built store, in a process of its own so that memory figures are the box's.
enum Measurement {
    static func run(store: String, grades: Int, logLines: Int) throws {
        let baseline = Timing.memory()
        var box: Box?
        var afterOpen = baseline
        var openTimes: [Double] = []
        for attempt in 0..<3 {
            box?.close()
            box = nil
            openTimes.append(try Timing.secondsThrowing { box = try Box(options: BoxOptions(storePath: store, device: BenchDevice.name)) })
            if attempt == 0 { afterOpen = Timing.memory() }
        }
        let opened = box!
        var prepared: TestSummary?
        let prepareTime = try Timing.secondsThrowing { prepared = try opened.prepare().test }
        print("box: open and index               \(Timing.ms(openTimes.dropFirst().min()!)) (first, cold-ish: \(Timing.ms(openTimes[0])))")
        print("box: prepare (queue of \(prepared!.remaining), levels \(prepared!.levels.map(\.name).joined(separator: ",")))  \(Timing.ms(prepareTime))")
        let statusTimes = try (0..<1000).map { _ in try Timing.secondsThrowing { _ = try opened.status() } }
        print("box: status                       p50 \(Timing.ms(Timing.percentile(statusTimes, 0.5)))  p99 \(Timing.ms(Timing.percentile(statusTimes, 0.99)))")
        var gradeTimes: [Double] = []
        var correct = true
        for _ in 0..<grades {
            guard let card = try opened.next().card else { break }
            correct.toggle()
            gradeTimes.append(try Timing.secondsThrowing {
                _ = try opened.grade(id: card.id, correct: correct, answerMs: 1000)
            })
        }
        if !gradeTimes.isEmpty {
            print("box: grade, durable (\(gradeTimes.count))         p50 \(Timing.ms(Timing.percentile(gradeTimes, 0.5)))  p99 \(Timing.ms(Timing.percentile(gradeTimes, 0.99)))")
        }
        try StatsMeasurement.run(opened, logLines: logLines)
        let end = Timing.memory()
        print("box: memory  resident after the first open \((afterOpen.rss - baseline.rss) / 1024) MiB above a \(baseline.rss / 1024) MiB baseline; after the grades \((end.rss - baseline.rss) / 1024) MiB; peak \(end.peak / 1024) MiB")
        try searches(opened, store: store, before: end, baseline: baseline)
        opened.close()
    }

    /// `Search` beside `grep -ri` over the store (what a person would otherwise run): the first
    /// search builds the index; warm searches for a rare word (one card) and a common one (its
    /// first 1,000 lines, and all of them), each the median of 5; then the memory the index takes.
    static func searches(_ box: Box, store: String, before: (rss: Int, peak: Int), baseline: (rss: Int, peak: Int)) throws {
        let fields = Set(SearchMatch.Field.allCases)
        let rare = try SearchPattern("back 77777", regex: false)
        let common = try SearchPattern("FRONT 9", regex: false)
        let regex = try SearchPattern("^back 7+$", regex: true)
        let first = try Timing.secondsThrowing { _ = try box.search(rare, fields: fields, level: nil) }
        let indexed = Timing.memory()
        func median(_ pattern: SearchPattern, limit: Int? = 1000) throws -> Double {
            Timing.percentile(try (0..<5).map { _ in try Timing.secondsThrowing { _ = try box.search(pattern, fields: fields, level: nil, limit: limit) } }, 0.5)
        }
        print("box: search, first (builds the index)  \(Timing.ms(first))")
        print("box: search, warm: rare word \(Timing.ms(try median(rare))); common word, 1,000 lines \(Timing.ms(try median(common))); regex \(Timing.ms(try median(regex)))")
        // Every line of the common word, as a streamed `Search` reads them: no limit.
        let all = try box.search(common, fields: fields, level: nil).count
        print("box: search, warm: common word, every line (\(all) lines, read 1,024 cards a batch)  \(Timing.ms(try median(common, limit: nil)))")
        let grep = (0..<3).map { _ in Timing.seconds { _ = system("grep -ri 'back 77777' '\(store)' > /dev/null") } }.min()!
        print("floor: grep -ri over the store (warm, best of 3)  \(Timing.ms(grep))")
        print("box: memory  the search index takes \((indexed.rss - before.rss) / 1024) MiB; now \((indexed.rss - baseline.rss) / 1024) MiB above the baseline")
        try turns(box, pattern: common, fields: fields)
        try turns(box, pattern: regex, fields: fields)
        // Keeps up to 4,000 states alive on every side: the engine's worst case (text × program).
        try turns(box, pattern: try SearchPattern("(.{0,500}){8}[xyz]", regex: true), fields: fields)
        try followedGrades(box, pattern: rare, fields: fields)
    }

    /// What a streamed `Search` holds the box's turn for (docs/performance.md, "A search's work
    /// budget"): beginning (the index brought up to date and kept) and the longest batch of cards
    /// read; beside it what runs off the turn, finding in the index and matching the batches'
    /// lines, or the time until the search is cut.
    static func turns(_ box: Box, pattern: SearchPattern, fields: Set<SearchMatch.Field>) throws {
        var started: SearchScan?
        let begin = try Timing.secondsThrowing { started = try box.startSearch(pattern, fields: fields, level: nil, limit: nil) }
        guard var scan = started else { return }
        var (longest, apart, lines) = (0.0, 0.0, 0)
        do {
            apart += try Timing.secondsThrowing { try scan.find() }
            while !scan.isFinished {
                longest = max(longest, try Timing.secondsThrowing { try box.readCards(of: &scan, upTo: 256) })
                var batch: [SearchMatch] = []
                apart += try Timing.secondsThrowing { batch = try scan.matchRead() }
                lines += batch.count
            }
            print("box: search '\(pattern.text)', \(lines) lines: the box's turn: begin \(Timing.ms(begin)), longest batch read \(Timing.ms(longest)); off the turn \(Timing.ms(apart))")
        } catch BoxError.searchCut(_, _) {
            print("box: search '\(pattern.text)' cut after \(Timing.ms(apart)) off the turn (\(SearchScan.defaultBudget) steps); the box's turn: begin \(Timing.ms(begin)), longest batch read \(Timing.ms(longest))")
        }
    }

    /// Grades while the search index follows the store's changes (its cursor on the change feed:
    /// each grade is one change kept for it), then the search that takes them in, reading the
    /// graded cards again.
    static func followedGrades(_ box: Box, pattern: SearchPattern, fields: Set<SearchMatch.Field>) throws {
        var times: [Double] = []
        for _ in 0..<1000 {
            guard let card = try box.next().card else { break }
            times.append(try Timing.secondsThrowing { _ = try box.grade(id: card.id, correct: true, answerMs: 1000) })
        }
        guard !times.isEmpty else { return }
        let update = try Timing.secondsThrowing { _ = try box.search(pattern, fields: fields, level: nil) }
        print("box: grade, durable, the search index following (\(times.count))  p50 \(Timing.ms(Timing.percentile(times, 0.5)))  p99 \(Timing.ms(Timing.percentile(times, 0.99)))")
        print("box: search after those grades (the index reads the \(times.count) cards again)  \(Timing.ms(update))")
    }
}
