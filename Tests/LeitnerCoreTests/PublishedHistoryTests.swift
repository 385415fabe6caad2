import Glibc
import Testing
@testable import LeitnerCore
@testable import LeitnerSystem
import LeitnerTestSupport

/// What this device's log says, published beside it (`PublishedHistory`, docs/store-format.md):
/// a store opened without `.leitner/local.DEVICE` (a copy, a backup put back, a new machine's
/// clone) takes where the log left each card, the places' ledger and the graded days from the
/// published files and reads only the lines after them — and answers exactly as a reading of the
/// whole log does (R13, R16, R23, R24), whatever state the files are in: current, stale, cut,
/// damaged, another history's, or only a sync tool's conflict copy of them.
@Suite struct PublishedHistoryTests {
    static let device = ".leitner/devices/here/"
    static let local = ".leitner/local.here"
    static let files = [PublishedHistory.loggedLevels, PublishedHistory.places, PublishedHistory.gradedDays]
    static let levels = Level.allCases.map(\.name)

    /// A box on `dir` by `clock`, pacing 2 new cards a day and
    /// leeches after 2 wrong answers, publishing at every stop that has something to add.
    /// With `publishEvery` the open that takes the published files publishes nothing and
    /// compares them where their ids lie (`Store.changesSincePublished`) when the log is less than
    /// that past them.
    static func open(_ dir: TemporaryDirectory, _ clock: ManualClock, publishEvery: Int = 0) throws -> Box {
        var options = BoxOptions(storePath: dir.path, device: TestBox.device, clock: clock, seedSource: { 7 })
        options.newPerDay = 2
        options.leechAfter = 2
        options.publishEvery = publishEvery
        return try Box(options: options)
    }

    /// A clock `minutes` past the fixtures' first noon.
    static func clock(_ minutes: Int) -> ManualClock {
        let clock = ManualClock("2026-03-02")
        clock.advance(minutes: minutes)
        return clock
    }

    /// The ids in each level directory on disk.
    static func cardsOnDisk(_ dir: TemporaryDirectory) -> [(id: String, level: String)] {
        var cards: [(String, String)] = []
        for level in levels {
            guard let fd = try? FileDescriptor.openDirectory(dir.path + "/" + level) else { continue }
            defer { fd.close() }
            for entry in (try? FileSystem.list(fd)) ?? [] where entry.kind == .directory { cards.append((entry.name, level)) }
        }
        return cards.sorted { $0.0 < $1.0 }
    }

    /// The published files as they are now (absent ones left out).
    static func publishedFiles(_ dir: TemporaryDirectory) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in Self.files {
            if let bytes = try? FileSystem.readFile(atPath: dir.path + "/" + device + name) { files[name] = bytes }
        }
        return files
    }

    static func put(_ files: [String: [UInt8]], in dir: TemporaryDirectory, as name: (String) -> String = { $0 }) {
        for (file, bytes) in files {
            let out = Glibc.open(dir.path + "/" + device + name(file), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = bytes.withUnsafeBytes { Glibc.write(out, $0.baseAddress, $0.count) }
            Glibc.close(out)
        }
    }

    static func removePublished(_ dir: TemporaryDirectory) {
        for name in files where dir.exists(device + name) { dir.removeFile(device + name) }
    }

    /// A store with a random history: `sessions` runs of a box with adds (to `new/` or a level),
    /// grades right and wrong, undos, moves, suspensions, deletions and days passing, and between
    /// runs cards moved, made and removed by hand (R13). Returns it closed, the minutes its clock
    /// went, and the published files as they were after a run midway (stale by the end).
    static func history(seed: UInt64, prefix: String = "c", sessions: Int = 6) throws
        -> (dir: TemporaryDirectory, minutes: Int, stale: [String: [UInt8]]) {
        var random = SeededGenerator(seed: seed)
        let dir = TemporaryDirectory()
        var minutes = 0
        var made = 0
        var stale: [String: [UInt8]] = [:]
        let staleAfter = Int.random(in: 1..<(sessions - 1), using: &random)
        for session in 0..<sessions {
            let runClock = clock(minutes)
            let box = try open(dir, runClock)
            for _ in 0..<Int.random(in: 10...40, using: &random) {
                let ids = cardsOnDisk(dir).map(\.id)
                switch Int.random(in: 0..<12, using: &random) {
                case 0, 1, 2:
                    made += 1
                    let level = Bool.random(using: &random) ? nil : levels[Int.random(in: 0..<7, using: &random)]
                    _ = try? box.addText("front \(made)", "back", id: "\(prefix)\(made)", level: level)
                case 3, 4, 5, 6:
                    if let card = try? box.next().card {
                        _ = try? box.grade(id: card.id, correct: Int.random(in: 0..<3, using: &random) == 0, answerMs: 900)
                    }
                case 7:
                    _ = try? box.undo()
                case 8:
                    if let id = ids.randomElement(using: &random) {
                        _ = try? box.move(id: id, level: levels.randomElement(using: &random)!)
                    }
                case 9:
                    if let id = ids.randomElement(using: &random) {
                        _ = Bool.random(using: &random) ? try? box.suspend(ids: [id]) : try? box.unsuspend(ids: [id])
                    }
                case 10:
                    if let id = ids.randomElement(using: &random), Int.random(in: 0..<3, using: &random) == 0 { try? box.delete(id: id) }
                default:
                    let hours = Int.random(in: 1...20, using: &random)
                    runClock.advance(hours: hours)
                    minutes += hours * 60
                }
            }
            box.close()
            if session == staleAfter { stale = publishedFiles(dir) }
            // Changes by hand while no daemon runs.
            let cards = cardsOnDisk(dir)
            if let card = cards.randomElement(using: &random) {
                dir.move("\(card.level)/\(card.id)", "\(levels.randomElement(using: &random)!)/\(card.id)")
            }
            if Bool.random(using: &random), let card = cardsOnDisk(dir).randomElement(using: &random) {
                dir.removeTree("\(card.level)/\(card.id)")
            }
            if Bool.random(using: &random) {
                made += 1
                dir.writeCard("\(prefix)\(made)", level: levels.randomElement(using: &random)!)
            }
            let hours = Int.random(in: 1...30, using: &random)
            minutes += hours * 60
        }
        return (dir, minutes, stale)
    }

    /// Everything a box opened on `dir` answers, first and after a day's opening and a few
    /// grades: the status (counts, leeches, arrivals, the week's graded cards), the leeches, the
    /// calendar, the log with what the open found by hand, and the cards where they are.
    struct Answers: Equatable {
        static func == (a: Answers, b: Answers) -> Bool {
            a.status == b.status && a.leeches == b.leeches && a.calendar == b.calendar && a.log == b.log && a.prepared == b.prepared
                && a.graded == b.graded && a.after == b.after && a.logAfter == b.logAfter && a.cards == b.cards
        }

        var status: BoxStatus
        var leeches: [Leech]
        var calendar: [CalendarDay]
        var log: [LogEntry]
        var prepared: TestSummary
        var graded: [String]
        var after: BoxStatus
        var logAfter: [LogEntry]
        var cards: [String]
        /// How far the log was read when the places' ledger was taken from a file (0: read from the
        /// start): not compared, but said, so that a test knows a published file was taken.
        var placesTaken: Int = 0
    }

    static func answers(_ dir: TemporaryDirectory, minutes: Int, publishEvery: Int = 0) throws -> Answers {
        let box = try open(dir, clock(minutes), publishEvery: publishEvery)
        defer { box.close() }
        return try answers(box, dir)
    }

    /// `answers` of a box open on `dir`.
    static func answers(_ box: Box, _ dir: TemporaryDirectory) throws -> Answers {
        let status = try box.status()
        let placesTaken = box.placesKept ?? 0
        let leeches = try box.leeches()
        let calendar = try box.calendar(from: "2026-02-20", to: "2026-03-31")
        let log = try box.log(since: nil, limit: nil)
        let prepared = try box.prepare().test
        var graded: [String] = []
        for number in 0..<4 {
            guard let card = try box.next().card else { break }
            graded.append("\(card.id) \(try box.grade(id: card.id, correct: number % 2 == 0, answerMs: 500).card.level)")
        }
        return Answers(status: status, leeches: leeches, calendar: calendar, log: log, prepared: prepared, graded: graded,
                       after: try box.status(), logAfter: try box.log(since: nil, limit: nil),
                       cards: cardsOnDisk(dir).map { "\($0.id) \($0.level)" }, placesTaken: placesTaken)
    }

    /// The store as a copy without its local state, the published files then set by `change`.
    static func variant(of dir: TemporaryDirectory, _ change: (TemporaryDirectory) -> Void) -> TemporaryDirectory {
        let copy = dir.copy()
        copy.removeTree(local)
        change(copy)
        return copy
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func aStoreWithoutItsLocalStateAnswersTheSameWithOrWithoutThePublishedFiles(seed: UInt64) throws {
        let (dir, minutes, stale) = try Self.history(seed: seed)
        let (other, _, _) = try Self.history(seed: seed + 100, prefix: "o")
        defer { dir.remove(); other.remove() }
        let current = Self.publishedFiles(dir)
        #expect(current.count == 3, "every run's stop published the three files (seed \(seed))")
        let reference = Self.variant(of: dir, Self.removePublished)
        defer { reference.remove() }
        let expected = try Self.answers(reference, minutes: minutes)
        let variants: [(String, (TemporaryDirectory) -> Void)] = [
            ("current", { _ in }),
            ("stale", { Self.removePublished($0); Self.put(stale, in: $0) }),
            ("cut", { copy in Self.put(current.mapValues { Array($0.prefix($0.count / 2)) }, in: copy) }),
            ("damaged", { copy in
                Self.put(current.mapValues { bytes in
                    var damaged = bytes
                    damaged[bytes.count / 3] ^= 0x04
                    return damaged
                }, in: copy)
            }),
            ("another history's", { Self.put(Self.publishedFiles(other), in: $0) }),
            ("only a conflict copy", { copy in
                Self.removePublished(copy)
                Self.put(current, in: copy) { "\($0).sync-conflict-20261129-125700-ABCDEFG" }
            }),
            ("mixed", { copy in
                Self.put([PublishedHistory.loggedLevels: stale[PublishedHistory.loggedLevels] ?? []], in: copy)
                copy.removeFile(Self.device + PublishedHistory.gradedDays)
            }),
        ]
        for (name, change) in variants {
            let copy = Self.variant(of: dir, change)
            defer { copy.remove() }
            let answers = try Self.answers(copy, minutes: minutes)
            #expect(answers == expected, "\(name) published files, seed \(seed)")
            if name == "current" || name == "stale" {
                #expect(answers.placesTaken > 0, "the \(name) published ledger was taken, seed \(seed)")
            }
        }
        // The open that has nothing to publish compares the published file where its ids lie,
        // with the lines after it (the stale file: a run's or more of them).
        for (name, change) in variants where ["current", "stale", "mixed"].contains(name) {
            let copy = Self.variant(of: dir, change)
            defer { copy.remove() }
            #expect(try Self.answers(copy, minutes: minutes, publishEvery: Int.max) == expected,
                    "\(name) published files, nothing to publish at the open, seed \(seed)")
        }
    }

    /// The places' ledger is read at the open, beside the scan (`PlacesRead`), not at the first
    /// request that needs it: the published ledger removed after the open and before the first
    /// `Status` is still the one taken, and every answer is still that of the whole log.
    @Test(arguments: [UInt64(1), 2])
    func theLedgerIsReadAtTheOpen(seed: UInt64) throws {
        let (dir, minutes, _) = try Self.history(seed: seed)
        defer { dir.remove() }
        let reference = Self.variant(of: dir, Self.removePublished)
        defer { reference.remove() }
        let expected = try Self.answers(reference, minutes: minutes)
        let copy = Self.variant(of: dir) { _ in }
        defer { copy.remove() }
        let box = try Self.open(copy, Self.clock(minutes))
        defer { box.close() }
        copy.removeFile(Self.device + PublishedHistory.places)
        let answers = try Self.answers(box, copy)
        #expect(answers.placesTaken > 0, "the ledger read at the open was taken, seed \(seed)")
        #expect(answers == expected, "seed \(seed)")
    }

    /// The published files are taken, not the whole log read: after a store is published, its
    /// log's first line is rewritten in place to name another card (the bytes before every
    /// file's offset that its check covers are left as they were). A start without local state
    /// that took the files finds nothing changed by hand; one without them reads the rewritten
    /// line, and logs the card it names as removed by hand.
    @Test func theFilesAreTakenAndOnlyTheLinesAfterThemRead() throws {
        let clock = Self.clock(0)
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var box = try Self.open(dir, clock)
        for number in 1...3 { try box.addText("f\(number)", "b", id: "card\(number)", level: "1") }
        for _ in 0..<20 { try box.addText("x", "y", id: nil, level: "2") }
        box.close()
        box = try Self.open(dir, clock)
        _ = try box.move(id: "card1", level: "3")
        box.close()
        #expect(Self.publishedFiles(dir).count == 3)
        let log = dir.read(TestBox.log)
        dir.write(TestBox.log, log.replacingFirst("\tcard1\t", with: "\tcardX\t"))
        let withFiles = Self.variant(of: dir) { _ in }
        let withoutFiles = Self.variant(of: dir, Self.removePublished)
        defer { withFiles.remove(); withoutFiles.remove() }
        let handLines = { (store: TemporaryDirectory) throws -> [String] in
            let box = try Self.open(store, clock)
            box.close()
            return store.logLines.filter { $0.contains("origin=hand") }.map { "\($0[1]) \($0[2])" }
        }
        #expect(try handLines(withFiles) == [])
        #expect(try handLines(withoutFiles) == ["delete cardX"])
    }

    /// An open with its local state, as every store had before the published files, publishes
    /// nothing: it reads neither the published file nor the whole log for it, and its stop
    /// publishes (docs/store-format.md, "Published beside the log"). It read the whole log at
    /// every open until one was published (review F2 of 25cf039).
    @Test func anOpenWithItsLocalStateReadsNoWholeLogToPublish() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var options = BoxOptions(storePath: dir.path, device: TestBox.device, clock: ManualClock("2026-03-02"))
        options.publishEvery = 1
        do {
            let box = try Box(options: options)
            for index in 0..<50 { _ = try box.addText("front \(index)", "back \(index)", id: "c\(index)", level: "1") }
            box.close()
        }
        let published = ".leitner/devices/\(TestBox.device)/"
        #expect(dir.exists(".leitner/local.\(TestBox.device)/logged-levels"))
        for name in [PublishedHistory.loggedLevels, PublishedHistory.places, PublishedHistory.gradedDays]
        where dir.exists(published + name) { dir.removeFile(published + name) }
        let box = try Box(options: options)
        let publishedAtOpen = dir.exists(published + PublishedHistory.loggedLevels)
        box.close()
        #expect(!publishedAtOpen, "the open read the whole log and published logged-levels")
        #expect(dir.exists(published + PublishedHistory.loggedLevels), "the stop publishes it")
    }

    /// A stop killed while it wrote a published file leaves `FileSystem.writeAtomically`'s
    /// temporary in this device's directory, which every sync tool carries; the next open removes
    /// it, and leaves alone another device's directory and anything that is not such a temporary
    /// (review M3 of session 12).
    @Test func aKilledPublicationsTemporaryIsRemovedAtTheNextOpen() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let options = BoxOptions(storePath: dir.path, device: TestBox.device, clock: ManualClock("2026-03-02"))
        try Box(options: options).close()
        let mine = ".leitner/devices/\(TestBox.device)/", theirs = ".leitner/devices/there/"
        let leftovers = [".places.tmp-4242", ".logged-levels.tmp-1", ".days.tmp-77"]
        let kept = [".places.tmp-", ".tmp-12", "places.tmp-12", ".places.tmp-12x", "notes.txt"]
        for name in leftovers + kept { dir.write(mine + name, "x") }
        for name in leftovers { dir.write(theirs + name, "x") }
        try Box(options: options).close()
        for name in leftovers {
            #expect(!dir.exists(mine + name), "\(name) left in this device's directory")
            #expect(dir.exists(theirs + name), "\(name) removed from another device's")
        }
        for name in kept { #expect(dir.exists(mine + name), "\(name) is not a temporary and was removed") }
    }
}
