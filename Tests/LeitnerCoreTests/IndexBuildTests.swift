import Glibc
import Synchronization
import Testing
@testable import LeitnerCore
import LeitnerTestSupport
import LeitnerSystem

/// The search index and the tag table built off the box's turn (`IndexBuild`, docs/daemon.md,
/// "Indexes built off the turn"): what changes between the build's snapshot and its install —
/// by the box or by hand (R13), before or after the build read the card — is found right by
/// the next search, as a build under the turn would have found it.
@Suite struct IndexBuildTests {
    /// The box, for the probe's function, which the build calls on this test's own thread.
    final class Held: @unchecked Sendable {
        let box: Box
        init(_ box: Box) { self.box = box }
    }

    static func openApart(_ dir: TemporaryDirectory) throws -> Box {
        var options = BoxOptions(storePath: dir.path, device: TestBox.device, clock: ManualClock("2026-03-02"))
        options.buildsIndexesApart = true
        return try Box(options: options)
    }

    /// Every card as the search index holds it: id, level, folded front and back, tags.
    static func indexed(_ box: Box) -> [String] {
        var lines: [String] = []
        box.searchIndex?.forEach { parts in
            lines.append([String(decoding: parts.id, as: UTF8.self), "\(parts.slot.level)", String(decoding: parts.front, as: UTF8.self),
                          String(decoding: parts.back, as: UTF8.self), String(decoding: parts.tags, as: UTF8.self)].joined(separator: "|"))
        }
        return lines.sorted()
    }

    /// Every card as the store holds it now, read one by one: what the index must hold.
    static func truth(_ box: Box) throws -> [String] {
        try box.list(level: nil, withText: true).map { card in
            [card.id, "\(card.level.rawValue)", CaseFolding.fold(card.front.text ?? ""), CaseFolding.fold(card.back.text ?? ""),
             card.tags.joined(separator: "\n")].joined(separator: "|")
        }.sorted()
    }

    @Test func changesBetweenTheSnapshotAndTheInstallAreFoundByTheNextSearch() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Self.openApart(dir)
        defer { box.close() }
        let ids = (0..<40).map { "card\($0 < 10 ? "0" : "")\($0)" }
        for id in ids { try box.addText("front \(id)", "back \(id)", id: id) }
        _ = try box.prepare()
        let pattern = try SearchPattern("front", regex: false)

        // The first search begins the build and waits for it; a second waits for the same one.
        #expect(throws: BoxError.self) { try box.search(pattern, fields: [.front], level: nil) }
        let build = try #require(box.takeAwaitedBuild())
        #expect(throws: BoxError.self) { try box.search(pattern, fields: [.front], level: nil) }
        #expect(box.takeAwaitedBuild() === build)
        #expect(box.takeAwaitedBuild() == nil)

        // Halfway through the reading, the box and a hand change cards the build has read and
        // cards it has not read yet.
        let held = Held(box)
        let seen = Mutex<[String]>([])
        let failures = Mutex<[String]>([])
        IndexBuildProbe.observe(storeRoot: box.storePath) { id in
            let count = seen.withLock { seen -> Int in
                seen.append(id)
                return seen.count
            }
            guard count == 20 else { return }
            let read = seen.withLock { Array($0.dropLast()) }.sorted()
            let unread = ids.filter { !read.contains($0) && $0 != id }.sorted() + [id]
            do {
                for group in [read, unread] {
                    _ = try held.box.grade(id: group[0], correct: true, answerMs: 100)
                    dir.move("1/\(group[1])", "3/\(group[1])")
                    dir.write("1/\(group[2])/front.txt", "zebra by hand \(group[2])")
                    try held.box.delete(id: group[3])
                    _ = try held.box.edit(id: group[4], front: Asset(name: "front.txt", text: "Okapi by the box"), back: nil)
                    dir.write("1/\(group[5])/tags", "hand\n")
                    _ = try held.box.tag(id: group[6], tags: ["box"])
                }
                try held.box.addText("quokka added", "back", id: "added")
                dir.writeCard("handmade", level: "2", front: "wombat by hand")
                // A status meanwhile takes the hand changes in, as any other call would.
                _ = try held.box.status()
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        defer { IndexBuildProbe.observe(storeRoot: box.storePath, nil) }
        #expect(build.join(ring: {}) == .build)
        build.run()
        #expect(build.isDone && build.join(ring: {}) == .done)
        #expect(failures.withLock { $0 } == [])
        #expect(seen.withLock { $0.count } == ids.count)

        // The next search installs the build and reads again what was marked meanwhile.
        let hits = try box.search(try SearchPattern("zebra", regex: false), fields: [.front], level: nil)
        #expect(hits.count == 2)
        #expect(try Self.truth(box) == Self.indexed(box))
        #expect(try box.search(try SearchPattern("okapi", regex: false), fields: [.front], level: nil).count == 2)
        #expect(try box.search(try SearchPattern("quokka", regex: false), fields: [.front], level: nil).map(\.id) == ["added"])
        #expect(try box.search(try SearchPattern("wombat", regex: false), fields: [.front], level: nil).map(\.id) == ["handmade"])
        #expect(try box.search(pattern, fields: [.front], level: nil, filter: TagFilter(tags: ["hand"])).count == 2)
        #expect(try box.search(pattern, fields: [.front], level: "3").count == 2)
        #expect(try box.search(pattern, fields: [.front], level: "2").count == 2)

        // A hand edit after the install is found too: the build's watches stay.
        let kept = try #require(try box.search(pattern, fields: [.front], level: "1").first?.id)
        dir.write("1/\(kept)/front.txt", "platypus")
        #expect(try box.search(try SearchPattern("platypus", regex: false), fields: [.front], level: nil).map(\.id) == [kept])
        #expect(try Self.truth(box) == Self.indexed(box))
    }

    @Test func theTagTableBuiltOffTheTurnTakesInWhatChangedMeanwhile() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Self.openApart(dir)
        defer { box.close() }
        let ids = (0..<20).map { "card\($0 < 10 ? "0" : "")\($0)" }
        for id in ids { try box.addText("front \(id)", "back \(id)", id: id) }
        _ = try box.tag(id: "card00", tags: ["de"])
        _ = try box.tag(id: "card19", tags: ["de"])
        let filter = try TagFilter(tags: ["de"])
        #expect(throws: BoxError.self) { try box.list(level: nil, withText: false, filter: filter) }
        let build = try #require(box.takeAwaitedBuild())
        let held = Held(box)
        let count = Atomic<Int>(0)
        IndexBuildProbe.observe(storeRoot: box.storePath) { _ in
            guard count.add(1, ordering: .relaxed).newValue == 10 else { return }
            // Both ends of the order: one card read already, one not, whichever they are.
            dir.write("1/card00/tags", "fr\n")
            dir.write("1/card19/tags", "fr\n")
            _ = try? held.box.tag(id: "card05", tags: ["de"])
            dir.move("1/card07", "4/card07")
            dir.write("4/card07/tags", "de\n")
        }
        defer { IndexBuildProbe.observe(storeRoot: box.storePath, nil) }
        #expect(build.join(ring: {}) == .build)
        build.run()
        #expect(try box.list(level: nil, withText: false, filter: filter).map(\.id) == ["card05", "card07"])
        #expect(try box.tagCounts() == [TagCount(tag: "de", cards: 2), TagCount(tag: "fr", cards: 2)])
    }

    /// The daemon's tag build reads every card's `tags` without watching (the watches cost twice
    /// the reads): the table reads the unwatched cards' `tags` again at each use until the
    /// build's thread has watched them, and a card's watch finds a hand edit after.
    @Test func theTagTableWatchesItsCardsAfterTheBuild() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Self.openApart(dir)
        defer { box.close() }
        for id in ["card0", "card1", "card2"] { try box.addText("front \(id)", "back \(id)", id: id) }
        _ = try box.tag(id: "card0", tags: ["de"])
        #expect(throws: BoxError.self) { try box.tagCounts() }
        let build = try #require(box.takeAwaitedBuild())
        build.run()
        // Before the watches are taken in: read again at the use.
        dir.write("1/card1/tags", "fr\n")
        #expect(try box.tagCounts() == [TagCount(tag: "de", cards: 1), TagCount(tag: "fr", cards: 1)])
        while !build.isFinished { usleep(1000) }
        _ = try box.tagCounts()
        #expect(box.tagTable?.unwatched.isEmpty == true)
        // After: by the card's watch.
        dir.write("1/card2/tags", "fr\n")
        #expect(try box.tagCounts() == [TagCount(tag: "de", cards: 1), TagCount(tag: "fr", cards: 2)])
    }

    /// A box of `TagTable.publishEvery` + 50 cards whose tag build is run, its thread then held
    /// at the watch after the first part, handed over: `body` is called then with the box, its
    /// directory, the number of cards, and the probe's calls so far (each card read, each
    /// watched, each read again under the turn); then the watches are all taken in.
    /// - Parameter callBegan: the call is said to have begun before the build (a daemon's call).
    static func withTheFirstWatchesHandedOver(callBegan: Bool,
                                              _ body: (Box, TemporaryDirectory, Int, () -> Int) throws -> Void) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let count = TagTable.publishEvery + 50
        for index in 0..<count { dir.writeCard("c\(index)", level: "1", front: "front \(index)") }
        let box = try Self.openApart(dir)
        defer { box.close() }
        let use = { () throws in _ = try box.tagCounts() }
        #expect(throws: BoxError.self) { try use() }
        let build = try #require(box.takeAwaitedBuild())
        let calls = Atomic<Int>(0)
        let released = Atomic<Bool>(false)
        IndexBuildProbe.observe(storeRoot: box.storePath) { _ in
            guard calls.add(1, ordering: .relaxed).newValue == count + TagTable.publishEvery + 1 else { return }
            let until = MonotonicTime.now + .seconds(20)
            while !released.load(ordering: .relaxed), MonotonicTime.now < until { usleep(1000) }
        }
        defer {
            released.store(true, ordering: .relaxed)
            IndexBuildProbe.observe(storeRoot: box.storePath, nil)
        }
        if callBegan { box.callBegan = .now }
        build.run()
        let until = MonotonicTime.now + .seconds(20)
        while calls.load(ordering: .relaxed) <= count + TagTable.publishEvery, MonotonicTime.now < until { usleep(1000) }
        try body(box, dir, count) { calls.load(ordering: .relaxed) }
        released.store(true, ordering: .relaxed)
        while !build.isFinished { usleep(1000) }
        // The last watches are taken in by the next use, once the build's thread is done.
        try use()
        #expect(box.tagTable?.unwatched.isEmpty == true)
    }

    /// The tag build's thread hands the watches it added over `TagTable.publishEvery` cards at
    /// a time: held after the first 2,048, the next use takes those
    /// in, and reads only the other cards' `tags` again. They were handed over when all were
    /// added, and until then every use read every card's `tags` again under the turn.
    @Test func theTagBuildHandsItsWatchesOverAPartAtATime() throws {
        try Self.withTheFirstWatchesHandedOver(callBegan: false) { (box, _, count, _) throws in
            #expect(try box.tagCounts() == [])
            #expect(box.tagTable?.unwatched.count == count - TagTable.publishEvery)
        }
    }

    /// The call that installs the tag build, begun before the build began reading (a daemon's
    /// call that waits for it), reads no card's `tags` again under the turn when it takes in the
    /// watches the build's thread handed over meanwhile: the build's reads are as current as the
    /// call needs. It read every card still unwatched again, 98,000 `openat` at 100,000 cards.
    @Test func theCallThatInstallsTheTagBuildReadsNoTagsAgainWithTheWatchesItTakes() throws {
        try Self.withTheFirstWatchesHandedOver(callBegan: true) { (box, _, count, calls) throws in
            let before = calls()
            #expect(try box.tagCounts() == [])
            #expect(calls() == before)
            #expect(box.tagTable?.unwatched.count == count - TagTable.publishEvery)
        }
    }

    /// The daemon's search build watches each card before it reads it (or asks its stamp in the
    /// index's file), so that the index is installed with every card watched: the search after
    /// the install asks no card's stamp under the turn, where it asked every card's that a
    /// thread after the build had not yet watched (0.5 s at 100,000 cards), and a hand edit is
    /// found by its card's watch (R13).
    @Test func theSearchBuildInstallsEveryCardWatched() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let count = 600
        for index in 0..<count { dir.writeCard("c\(index)", level: "1", front: "front \(index)") }
        // Older than the kernel clock's tick: each card is read with a stamp it trusts (a build
        // that watched after left such cards unwatched until then).
        usleep(1_100_000)
        let box = try Self.openApart(dir)
        defer { box.close() }
        let pattern = try SearchPattern("front", regex: false)
        #expect(throws: BoxError.self) { try box.search(pattern, fields: [.front], level: nil) }
        let build = try #require(box.takeAwaitedBuild())
        let calls = Atomic<Int>(0)
        IndexBuildProbe.observe(storeRoot: box.storePath) { _ in calls.add(1, ordering: .relaxed) }
        defer { IndexBuildProbe.observe(storeRoot: box.storePath, nil) }
        build.run()
        #expect(try box.search(pattern, fields: [.front], level: nil).count == count)
        #expect(box.searchIndex?.unwatchedCount == 0)
        // Each card read once by the build, none watched or asked again.
        #expect(calls.load(ordering: .relaxed) == count)
        dir.write("1/c7/front.txt", "zebra")
        #expect(try box.search(SearchPattern("zebra", regex: false), fields: [.front], level: nil).map(\.id) == ["c7"])
        #expect(calls.load(ordering: .relaxed) == count)
    }

    /// R13 over the window inside the daemon's build with the index's file, where the two threads
    /// that ask a piece's stamps watch each card before asking its stamp: a card taken from the
    /// file (watched, its stamp asked) edited by hand while the build still reads another card is
    /// found by the search after the install, by its watch's event.
    @Test func anEditOfACardTakenFromTheFileDuringTheBuildIsFound() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let ids = (0..<600).map { "c" + String(1000 + $0) }
        for id in ids { dir.writeCard(id, level: "1", front: "front \(id)") }
        // Older than the kernel clock's tick: the cards' stamps in the file are trusted.
        usleep(1_100_000)
        do {
            // A first box writes the index's file.
            let box = try Box(options: BoxOptions(storePath: dir.path, device: TestBox.device, clock: ManualClock("2026-03-02")))
            _ = try box.search(SearchPattern("front", regex: false), fields: [.front], level: nil)
            box.close()
        }
        // One card changed while no box was open: the build reads it, after every stamp of its
        // piece was asked.
        dir.write("1/c1300/front.txt", "front c1300 changed")
        let box = try Self.openApart(dir)
        defer { box.close() }
        #expect(throws: BoxError.self) { try box.search(SearchPattern("front", regex: false), fields: [.front], level: nil) }
        let build = try #require(box.takeAwaitedBuild())
        let path = dir.path
        IndexBuildProbe.observe(storeRoot: box.storePath) { id in
            guard id == "c1300" else { return }
            // c1100 was taken from the file, its stamp asked: edited now, by hand, in place.
            let fd = open(path + "/1/c1100/front.txt", O_WRONLY | O_TRUNC)
            _ = "zebra by hand".withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        defer { IndexBuildProbe.observe(storeRoot: box.storePath, nil) }
        build.run()
        guard case .search(let built) = build.outcome else { Issue.record("no search index built"); return }
        #expect(built.taken == 599)
        #expect(try box.search(SearchPattern("zebra", regex: false), fields: [.front], level: nil).map(\.id) == ["c1100"])
        #expect(try box.search(SearchPattern("zebra", regex: false), fields: [.front], level: nil).map(\.id) == ["c1100"])
    }

    /// A box apart over `count` cards of level 1 in `dir`, a use of its tags having failed for
    /// the tag table's build, and that build, not yet run.
    static func awaitingTheTagBuild(_ dir: TemporaryDirectory, count: Int) throws -> (Box, IndexBuild) {
        for index in 0..<count { dir.writeCard("c\(index)", level: "1", front: "front \(index)") }
        let box = try Self.openApart(dir)
        #expect(throws: BoxError.self) { try box.tagCounts() }
        guard let build = box.takeAwaitedBuild() else {
            box.close()
            throw BoxError.storeFailure(path: dir.path, reason: "no tag build awaited")
        }
        return (box, build)
    }

    /// The tag table's twin (R13, R25): a card whose `tags` the build's thread read after adding
    /// its watch, given a `tags` file by hand before the installing call (begun before the
    /// build), which takes the watch's event while no entry holds that watch and reads no
    /// unwatched card's `tags` again. The watch taken in later comes with the tags read before
    /// the edit: they are read again then, and the card is counted and listed by its tag. It was
    /// missing from both until it changed again.
    @Test func aTagsEditBetweenAWatchAndItsHandOverIsFoundByALaterCall() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let count = 300
        let (box, build) = try Self.awaitingTheTagBuild(dir, count: count)
        defer { box.close() }
        // The build reads `count` cards, then its thread watches them and reads their `tags`:
        // held at the second, the first watched and read, not handed over.
        try Self.withTheThreadHeld(at: count + 2, of: build, in: box) { seen in
            dir.write("1/\(seen[count])/tags", "fr\n")
            _ = try box.tagCounts()
        }
        // The next call takes the watches in.
        _ = try box.tagCounts()
        #expect(box.tagTable?.unwatched.isEmpty == true)
        #expect(try box.tagCounts() == [TagCount(tag: "fr", cards: 1)])
    }

    /// The hand-over compares the `tags` the build's thread read after the watch with those the
    /// build read (`TagTable.Watched.changed`), and reads again the cards whose tags the table
    /// set since while they were unwatched: a card given a `tags` file by hand, seen by a use,
    /// then its file removed before its watch was added (no event) has the build's tags again
    /// at the watch, and the table's are read again, not kept (R13).
    @Test func aTagsEditUndoneBeforeItsWatchIsFoundAtTheHandOver() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let count = 300
        let (box, build) = try Self.awaitingTheTagBuild(dir, count: count)
        defer { box.close() }
        // Held before the thread's first watch.
        try Self.withTheThreadHeld(at: count + 1, of: build, in: box) { seen in
            let held = seen[count]
            _ = try box.tagCounts()
            dir.write("1/\(held)/tags", "fr\n")
            #expect(try box.tagCounts() == [TagCount(tag: "fr", cards: 1)])
            #expect(unlink(dir.path + "/1/\(held)/tags") == 0)
        }
        _ = try box.tagCounts()
        #expect(box.tagTable?.unwatched.isEmpty == true)
        #expect(try box.tagCounts() == [])
    }

    /// Runs `build` for a call said to have begun before it (a daemon's call that waits for it),
    /// its thread held at the probe's `holdAt`th call (each card read, then each watched) while
    /// `body` runs, given the ids the probe saw; then lets it finish.
    static func withTheThreadHeld(at holdAt: Int, of build: IndexBuild, in box: Box,
                                  _ body: ([String]) throws -> Void) throws {
        let released = Atomic<Bool>(false)
        let seen = Mutex<[String]>([])
        IndexBuildProbe.observe(storeRoot: box.storePath) { id in
            guard seen.withLock({ $0.append(id); return $0.count }) == holdAt else { return }
            let until = MonotonicTime.now + .seconds(20)
            while !released.load(ordering: .relaxed), MonotonicTime.now < until { usleep(1000) }
        }
        defer {
            released.store(true, ordering: .relaxed)
            IndexBuildProbe.observe(storeRoot: box.storePath, nil)
            box.callBegan = nil
        }
        box.callBegan = .now
        build.run()
        let until = MonotonicTime.now + .seconds(20)
        while seen.withLock({ $0.count }) < holdAt, MonotonicTime.now < until { usleep(1000) }
        try body(seen.withLock { $0 })
        box.callBegan = nil
        released.store(true, ordering: .relaxed)
        while !build.isFinished { usleep(1000) }
    }

    @Test func aBuildThatGivesUpIsBegunAgainAndOneWhoseBoxClosesStops() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Self.openApart(dir)
        for index in 0..<600 { try box.addText("front \(index)", "back", id: "c\(index)") }
        let pattern = try SearchPattern("front", regex: false)
        #expect(throws: BoxError.self) { try box.search(pattern, fields: [.front], level: nil) }
        let first = try #require(box.takeAwaitedBuild())
        first.stop()
        _ = first.join(ring: {})
        first.run()
        // Given up: the next search begins another, which it then installs.
        #expect(throws: BoxError.self) { try box.search(pattern, fields: [.front], level: nil) }
        let second = try #require(box.takeAwaitedBuild())
        #expect(second !== first)
        _ = second.join(ring: {})
        second.run()
        #expect(try box.search(pattern, fields: [.front], level: nil).count == 600)

        // The box closing stops a build under way: it reads no more than 256 cards after.
        #expect(throws: BoxError.self) { try box.tagCounts() }
        let third = try #require(box.takeAwaitedBuild())
        let read = Atomic<Int>(0)
        IndexBuildProbe.observe(storeRoot: box.storePath) { _ in read.add(1, ordering: .relaxed) }
        defer { IndexBuildProbe.observe(storeRoot: box.storePath, nil) }
        box.close()
        _ = third.join(ring: {})
        third.run()
        #expect(third.isDone && read.load(ordering: .relaxed) < 600)
    }

    /// The builds of `box`'s store held before their first card of level 3 (an id `l3-…`) until
    /// `release` is called; `close` lets go and closes the box.
    class HeldAtThreeProbe: @unchecked Sendable {
        // @unchecked: `box` is used on the test's thread only; the probe reads the flags.
        let box: Box
        /// The probe's: a build held, and let go.
        final class Flags: Sendable {
            let holding = Atomic<Bool>(false)
            let released = Atomic<Bool>(false)
        }
        let flags = Flags()

        init(holding box: Box) {
            self.box = box
            let flags = flags
            IndexBuildProbe.observe(storeRoot: box.storePath) { id in
                guard id.hasPrefix("l3-") else { return }
                flags.holding.store(true, ordering: .relaxed)
                let until = MonotonicTime.now + .seconds(20)
                while !flags.released.load(ordering: .relaxed), MonotonicTime.now < until { usleep(1000) }
            }
        }

        func release() { flags.released.store(true, ordering: .relaxed) }

        func close() {
            IndexBuildProbe.observe(storeRoot: box.storePath, nil)
            release()
            box.close()
        }
    }

    /// A box apart with cards at levels 1 and 3, whose builds wait before their first card of
    /// level 3 until `release` is called.
    final class HeldAtThree: HeldAtThreeProbe, @unchecked Sendable {
        init(_ dir: TemporaryDirectory) throws {
            let box = try IndexBuildTests.openApart(dir)
            for index in 0..<4 {
                for level in ["3", "1"] {
                    _ = try box.add(front: Asset(name: "front.txt", text: "front \(level)-\(index)"),
                                    back: Asset(name: "back.txt", text: "back"), id: "l\(level)-\(index)", level: level)
                }
            }
            super.init(holding: box)
        }
    }

    /// A search that begins the build (`duringBuild`, as the daemon's `Search` does) gives each
    /// level's lines as soon as the build has read that level: with the build held before its
    /// first card of level 3, level 1's lines are given; the rest once it goes on, in the order
    /// of level then id. Before, the first search waited for every card to be read.
    @Test func aSearchThatBeginsTheBuildGivesEachLevelWhileTheNextIsRead() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let held = try HeldAtThree(dir)
        defer { held.close() }
        let box = held.box
        let pattern = try SearchPattern("FRONT", regex: false)

        var scan = try box.startSearch(pattern, fields: [.front], level: nil, limit: nil, duringBuild: true)
        let build = try #require(scan.build)
        var lines: [SearchMatch] = []
        while lines.isEmpty, !scan.isFinished { lines += try box.nextMatches(of: &scan, upTo: 100) }
        #expect(lines.map(\.id) == ["l1-0", "l1-1", "l1-2", "l1-3"])
        #expect(!build.isDone)

        // A second search meanwhile waits for the same build, as every other call that needs it.
        #expect(throws: BoxError.self) { try box.startSearch(pattern, fields: [.front], level: nil, limit: nil, duringBuild: true) }
        #expect(box.takeAwaitedBuild() === build)

        held.release()
        while !scan.isFinished { lines += try box.nextMatches(of: &scan, upTo: 100) }
        #expect(lines.map(\.id) == ["l1-0", "l1-1", "l1-2", "l1-3", "l3-0", "l3-1", "l3-2", "l3-3"])
        #expect(lines.map(\.level.rawValue) == [1, 1, 1, 1, 3, 3, 3, 3])
        // The next search installs the build.
        #expect(try box.search(pattern, fields: [.front], level: "3").map(\.id) == ["l3-0", "l3-1", "l3-2", "l3-3"])
        #expect(box.searchIndex != nil)
    }

    /// A card moved while the build reads is not where the build's snapshot has it: the search
    /// that began the build still gives it, read at its new level, after the others, as a
    /// streamed search gives a card moved after it began. It was left out.
    @Test func aCardMovedWhileTheBuildReadsIsGivenAtItsNewLevel() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let held = try HeldAtThree(dir)
        defer { held.close() }
        let box = held.box
        var scan = try box.startSearch(try SearchPattern("front", regex: false), fields: [.front], level: nil, limit: nil,
                                       duringBuild: true)
        var lines: [SearchMatch] = []
        while lines.isEmpty, !scan.isFinished { lines += try box.nextMatches(of: &scan, upTo: 100) }
        // Held before level 3: a card of it moved by hand to level 5, one answered out of the box.
        _ = mkdir(dir.path + "/5", 0o755)
        #expect(rename(dir.path + "/3/l3-2", dir.path + "/5/l3-2") == 0)
        held.release()
        while !scan.isFinished { lines += try box.nextMatches(of: &scan, upTo: 100) }
        #expect(lines.map(\.id) == ["l1-0", "l1-1", "l1-2", "l1-3", "l3-0", "l3-1", "l3-3", "l3-2"])
        #expect(lines.last?.level == .five)
    }

    /// A search whose limit the first level fills, or of that level only, waits for no more of
    /// the build.
    @Test(arguments: [(3, nil), (nil, "1")] as [(Int?, String?)])
    func aSearchDuringTheBuildEndsAtItsLimitOrItsLevel(limit: Int?, level: String?) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let held = try HeldAtThree(dir)
        defer { held.close() }
        var scan = try held.box.startSearch(try SearchPattern("front", regex: false), fields: [.front], level: level, limit: limit,
                                            duringBuild: true)
        let build = try #require(scan.build)
        var lines: [SearchMatch] = []
        while !scan.isFinished { lines += try held.box.nextMatches(of: &scan, upTo: 2) }
        #expect(lines.map(\.id) == Array(["l1-0", "l1-1", "l1-2", "l1-3"].prefix(limit ?? 4)))
        #expect(!build.isDone)
    }

    /// A listing by tag `de` of `level` (or of all) that began the tag build of a box held at
    /// three (`HeldAtThree`), once it gave its first cards: level 1's two tagged cards.
    static func listingThatBeganTheTagBuild(_ box: Box, level: String?) throws -> (CardListing, IndexBuild, [Card]) {
        for id in ["l3-2", "l1-3", "l3-0", "l1-1"] { _ = try box.tag(id: id, tags: ["de"]) }
        var listing = try box.startListing(level: level, withText: false, filter: try TagFilter(tags: ["de"]), duringBuild: true)
        let build = try #require(listing.build)
        var cards: [Card] = []
        while cards.isEmpty, !listing.isFinished { cards += try box.nextCards(of: &listing, upTo: 100) }
        return (listing, build, cards)
    }

    /// A listing by tag that begins the tag table's build (`duringBuild`, as the daemon's `List`
    /// does) gives the cards of each piece the build has read: with the build held before its
    /// first card of level 3, level 1's tagged cards are given; the rest once it goes on, in the
    /// order of level then id. Before, the first listing by tag waited for every card's `tags`.
    @Test func aListingByTagThatBeginsTheBuildGivesEachPieceWhileTheNextIsRead() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let held = try HeldAtThree(dir)
        defer { held.close() }
        let box = held.box
        var (listing, build, cards) = try Self.listingThatBeganTheTagBuild(box, level: nil)
        #expect(cards.map(\.id) == ["l1-1", "l1-3"])
        #expect(!build.isDone)

        // Another call by tag meanwhile waits for the same build, as every other call that needs it.
        #expect(throws: BoxError.self) { try box.tagCounts() }
        #expect(box.takeAwaitedBuild() === build)

        held.release()
        while !listing.isFinished { cards += try box.nextCards(of: &listing, upTo: 100) }
        #expect(cards.map(\.id) == ["l1-1", "l1-3", "l3-0", "l3-2"])
        #expect(cards.map(\.level.rawValue) == [1, 1, 3, 3])
        // The listing's end installed the build.
        #expect(box.tagTable != nil)
        #expect(try box.tagCounts() == [TagCount(tag: "de", cards: 4)])
    }

    /// The install of the tag build lets go of the pieces no listing took: a listing of one level
    /// never takes the others', and each kept a copy of its cards' tags until the build was
    /// freed. A listing whose next pieces the install let go, by another call's, gives their
    /// cards from the installed table, in the same order.
    @Test(arguments: [nil, "1"] as [String?])
    func theInstallLetsGoOfThePiecesNoListingTook(level: String?) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let held = try HeldAtThree(dir)
        defer { held.close() }
        let box = held.box
        var (listing, build, cards) = try Self.listingThatBeganTheTagBuild(box, level: level)
        held.release()
        while !build.isDone { usleep(1000) }
        if level == nil {
            #expect(build.tagPiecesHeld > 0)
            #expect(try box.tagCounts() == [TagCount(tag: "de", cards: 4)])
            #expect(build.tagPiecesHeld == 0)
        }
        while !listing.isFinished { cards += try box.nextCards(of: &listing, upTo: 100) }
        #expect(cards.map(\.id) == (level == nil ? ["l1-1", "l1-3", "l3-0", "l3-2"] : ["l1-1", "l1-3"]))
        #expect(box.tagTable != nil)
        #expect(build.tagPiecesHeld == 0)
    }

    /// A tagged card moved while the tag table's build reads is not where the build's snapshot
    /// has it, and the build finds no `tags` there: the listing that began the build still gives
    /// it, at its new level, after the others, as a listing gives a card moved after it began.
    @Test func aTaggedCardMovedWhileTheTagBuildReadsIsListedAtItsNewLevel() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let held = try HeldAtThree(dir)
        defer { held.close() }
        let box = held.box
        for id in ["l1-0", "l3-1", "l3-2"] { _ = try box.tag(id: id, tags: ["de"]) }
        var listing = try box.startListing(level: nil, withText: true, filter: try TagFilter(tags: ["de"]), duringBuild: true)
        var cards: [Card] = []
        while cards.isEmpty, !listing.isFinished { cards += try box.nextCards(of: &listing, upTo: 100) }
        // Held before level 3: a tagged card of it moved by hand to level 5.
        _ = mkdir(dir.path + "/5", 0o755)
        #expect(rename(dir.path + "/3/l3-2", dir.path + "/5/l3-2") == 0)
        held.release()
        while !listing.isFinished { cards += try box.nextCards(of: &listing, upTo: 100) }
        #expect(cards.map(\.id) == ["l1-0", "l3-1", "l3-2"])
        #expect(cards.last?.level == .five)
        #expect(cards.last?.front.text == "front 3-2")
    }

    /// A listing by tag whose limit the first level fills waits for no more of the build; one of
    /// a level gives that level's cards, and ends once the build is done (the cards it did not
    /// select are known only then).
    @Test(arguments: [(1, nil), (nil, "1")] as [(Int?, String?)])
    func aListingByTagDuringTheBuildEndsAtItsLimitOrItsLevel(limit: Int?, level: String?) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let held = try HeldAtThree(dir)
        defer { held.close() }
        for id in ["l1-1", "l1-3", "l3-0"] { _ = try held.box.tag(id: id, tags: ["de"]) }
        var listing = try held.box.startListing(level: level, withText: false, filter: try TagFilter(tags: ["de"]),
                                                limit: limit, duringBuild: true)
        let build = try #require(listing.build)
        var cards: [Card] = []
        while cards.count < 2, !listing.isFinished { cards += try held.box.nextCards(of: &listing, upTo: 2) }
        #expect(cards.map(\.id) == Array(["l1-1", "l1-3"].prefix(limit ?? 2)))
        #expect(listing.isFinished == (limit != nil))
        #expect(!build.isDone)
        held.release()
        while !listing.isFinished { cards += try held.box.nextCards(of: &listing, upTo: 2) }
        #expect(cards.map(\.id) == Array(["l1-1", "l1-3"].prefix(limit ?? 2)))
    }

    /// Within a level the build reads the cards in the order of their ids, a piece at a time
    /// (`SearchIndex.pieceSize`): held at the first card of the second piece, the build has
    /// given the search the first piece's lines, and the whole search is in order of id.
    @Test func aLevelIsReadAndGivenAPieceAtATimeInTheOrderOfIDs() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let count = SearchIndex.pieceSize * 2 + 10
        // Made by hand, in an order other than their ids'.
        let ids = (0..<count).map { "c" + String(String(($0 * 7919) % count + 100_000).dropFirst()) }
        for id in ids { dir.writeCard(id, level: "1", front: "front \(id)") }
        let box = try Self.openApart(dir)
        defer { box.close() }
        let sorted = ids.sorted()
        let holdAt = sorted[SearchIndex.pieceSize]
        let released = Atomic<Bool>(false)
        IndexBuildProbe.observe(storeRoot: box.storePath) { id in
            guard id == holdAt else { return }
            let until = MonotonicTime.now + .seconds(20)
            while !released.load(ordering: .relaxed), MonotonicTime.now < until { usleep(1000) }
        }
        defer { IndexBuildProbe.observe(storeRoot: box.storePath, nil) }

        var scan = try box.startSearch(try SearchPattern("front", regex: false), fields: [.front], level: "1", limit: nil, duringBuild: true)
        let build = try #require(scan.build)
        var lines: [SearchMatch] = []
        while lines.count < SearchIndex.pieceSize, !scan.isFinished { lines += try box.nextMatches(of: &scan, upTo: 4096) }
        #expect(lines.map(\.id) == Array(sorted.prefix(SearchIndex.pieceSize)))
        #expect(!build.isDone)
        released.store(true, ordering: .relaxed)
        while !scan.isFinished { lines += try box.nextMatches(of: &scan, upTo: 4096) }
        #expect(lines.map(\.id) == sorted)
    }

    /// A store searched before (the index's file there, written by a box that searched and
    /// closed), opened apart with its search index built ahead (`Box.buildSearchIndexAhead`, as
    /// the daemon does once ready), the build held before its first card of level 3 until
    /// `release`: cards `l1-0…3` and `l3-0…3` whose fronts hold "front", and `a1`, `x1`, `y1` at
    /// level 1 whose fronts do not.
    final class AheadHeld: HeldAtThreeProbe, @unchecked Sendable {
        // @unchecked: `build` is used on the test's thread only.
        /// Begun once the probe holds the store's builds, in `init`.
        private(set) var build: IndexBuild!

        /// - Parameter watchLimit: the views' watches (`BoxOptions.watchLimit`); nil for the default.
        init(_ dir: TemporaryDirectory, watchLimit: Int? = nil) throws {
            for index in 0..<4 {
                for level in ["3", "1"] { dir.writeCard("l\(level)-\(index)", level: level, front: "front \(level)-\(index)") }
            }
            dir.writeCard("a1", level: "1", front: "nothing yet")
            dir.writeCard("x1", level: "1", front: "nothing yet")
            dir.writeCard("y1", level: "1", front: "nothing yet")
            do {
                let first = try Box(options: BoxOptions(storePath: dir.path, device: TestBox.device, clock: ManualClock("2026-03-02")))
                _ = try first.search(SearchPattern("front", regex: false), fields: [.front], level: nil)
                first.close()
            }
            var options = BoxOptions(storePath: dir.path, device: TestBox.device, clock: ManualClock("2026-03-02"))
            options.buildsIndexesApart = true
            options.watchLimit = watchLimit
            super.init(holding: try Box(options: options))
            box.buildSearchIndexAhead()
            guard let begun = box.searchBuild, begun.ahead else {
                close()
                throw BoxError.storeFailure(path: dir.path, reason: "no build begun ahead")
            }
            build = begun
            // Held: level 1 read and handed over.
            let until = MonotonicTime.now + .seconds(20)
            while !flags.holding.load(ordering: .relaxed), MonotonicTime.now < until { usleep(1000) }
        }
    }

    /// The daemon begins the search index's build once ready when the store was searched before
    /// (the file there), and not for a store never searched: no card is read for it then.
    @Test func theSearchIndexIsBuiltAheadOnlyForAStoreSearchedBefore() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.writeCard("c1", level: "1", front: "front")
        do {
            let box = try Self.openApart(dir)
            defer { box.close() }
            box.buildSearchIndexAhead()
            #expect(box.searchBuild == nil)
        }
        let held = try AheadHeld(dir)
        defer { held.close() }
        #expect(!held.build.isDone)
    }

    /// A search that comes while the build begun ahead reads gives each level's lines as the
    /// build reads it, as one that began the build does; then, the index installed, the lines of
    /// the cards it did not read that match: a card the box edited and one edited by hand after
    /// the build read them, before the search began (R13). Before, a search waited for the whole
    /// build; as a search that began it, it would have missed those two.
    @Test func aSearchJoinsTheBuildBegunAheadAndFindsWhatChangedSinceItsSnapshot() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let held = try AheadHeld(dir)
        defer { held.close() }
        let box = held.box
        _ = try box.edit(id: "x1", front: Asset(name: "front.txt", text: "front by the box"), back: nil)
        let fd = open(dir.path + "/1/y1/front.txt", O_WRONLY | O_TRUNC)
        _ = "front by hand".withCString { write(fd, $0, strlen($0)) }
        close(fd)

        var scan = try box.startSearch(try SearchPattern("front", regex: false), fields: [.front], level: nil, limit: nil,
                                       duringBuild: true)
        #expect(scan.build === held.build)
        var lines: [SearchMatch] = []
        while lines.isEmpty, !scan.isFinished { lines += try box.nextMatches(of: &scan, upTo: 100) }
        #expect(lines.map(\.id) == ["l1-0", "l1-1", "l1-2", "l1-3"])
        #expect(!held.build.isDone)
        // One search takes the pieces: another waits for the build.
        #expect(throws: BoxError.self) { try box.startSearch(try SearchPattern("front", regex: false), fields: [.front], level: nil,
                                                             limit: nil, duringBuild: true) }
        #expect(box.takeAwaitedBuild() === held.build)

        held.release()
        while !scan.isFinished { lines += try box.nextMatches(of: &scan, upTo: 100) }
        #expect(lines.map(\.id) == ["l1-0", "l1-1", "l1-2", "l1-3", "l3-0", "l3-1", "l3-2", "l3-3", "x1", "y1"])
        #expect(lines.suffix(2).map(\.line) == ["front by the box", "front by hand"])
        #expect(box.searchIndex != nil)
    }

    /// The same when the watches ran out, as at 100,000 cards under an older kernel's 8,192: the
    /// card edited by hand after the build read it has no watch, so the change feed says nothing
    /// of it, and a search that took the build for unchanged missed it (review of 86a38d2, R13).
    /// With no room for a card's watch, a search without a limit still joins the build and finds
    /// the card once the index is installed; one with a limit waits for the index.
    @Test(arguments: [nil, 2] as [Int?])
    func aCardEditedByHandWithoutAWatchIsFoundByTheSearchThatComesDuringTheBuildAhead(limit: Int?) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let held = try AheadHeld(dir, watchLimit: 1 + Level.allCases.count)
        defer { held.close() }
        let box = held.box
        let fd = open(dir.path + "/1/y1/front.txt", O_WRONLY | O_TRUNC)
        _ = "front by hand".withCString { write(fd, $0, strlen($0)) }
        close(fd)
        let pattern = try SearchPattern("front", regex: false)
        guard limit == nil else {
            #expect(throws: BoxError.self) { _ = try box.startSearch(pattern, fields: [.front], level: nil, limit: limit, duringBuild: true) }
            #expect(box.takeAwaitedBuild() === held.build)
            held.release()
            while !held.build.isDone { usleep(1000) }
            #expect(try box.search(pattern, fields: [.front], level: nil, limit: limit).map(\.id) == ["l1-0", "l1-1"])
            #expect(try box.search(pattern, fields: [.front], level: "1").map(\.id).contains("y1"))
            return
        }
        var scan = try box.startSearch(pattern, fields: [.front], level: nil, limit: nil, duringBuild: true)
        #expect(scan.build === held.build)
        held.release()
        var lines: [SearchMatch] = []
        while !scan.isFinished { lines += try box.nextMatches(of: &scan, upTo: 100) }
        #expect(lines.filter { $0.id == "y1" }.map(\.line) == ["front by hand"])
    }

    /// A search with a limit may end with the build's first pieces: it joins the build begun
    /// ahead only when no card changed since the build's snapshot (then it is as one that began
    /// the build), and otherwise waits for the index, so that a card changed before it began is
    /// among its first lines if it sorts there (R13).
    @Test(arguments: [false, true])
    func aSearchWithALimitJoinsTheBuildBegunAheadOnlyWhenNothingChanged(changed: Bool) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let held = try AheadHeld(dir)
        defer { held.close() }
        let box = held.box
        if changed { _ = try box.edit(id: "a1", front: Asset(name: "front.txt", text: "front a"), back: nil) }
        let start = { () throws -> SearchScan in
            try box.startSearch(try SearchPattern("front", regex: false), fields: [.front], level: nil, limit: 3, duringBuild: true)
        }
        guard changed else {
            var scan = try start()
            var lines: [SearchMatch] = []
            while !scan.isFinished { lines += try box.nextMatches(of: &scan, upTo: 2) }
            #expect(lines.map(\.id) == ["l1-0", "l1-1", "l1-2"])
            #expect(!held.build.isDone)
            return
        }
        #expect(throws: BoxError.self) { _ = try start() }
        #expect(box.takeAwaitedBuild() === held.build)
        held.release()
        while !held.build.isDone { usleep(1000) }
        #expect(try box.search(SearchPattern("front", regex: false), fields: [.front], level: nil, limit: 3).map(\.id)
                == ["a1", "l1-0", "l1-1"])
    }

    /// A search sent as the daemon starts, while the build begun ahead still asks the stamps of
    /// the cards before its match's, gives the cards the index's file holds matching without
    /// waiting for the build: each read now, so that a card edited by hand (while no box was
    /// open) to no longer match gives no line; and, once the build has read them, the cards
    /// edited to match, after the others (R13). Before, the search waited for the build to reach
    /// the level of its one card; held there, it gave nothing until released.
    @Test func aSearchDuringTheBuildAheadAnswersFromTheFileFirst() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        for id in ["a0", "a1", "b1", "c1"] { dir.writeCard(id, level: "1", front: id == "c1" ? "front needle c1" : "nothing") }
        dir.writeCard("l3-0", level: "3", front: "front needle 3")
        // Older than the kernel clock's tick, so that the file keeps their stamps.
        usleep(1_100_000)
        do {
            let first = try Box(options: BoxOptions(storePath: dir.path, device: TestBox.device, clock: ManualClock("2026-03-02")))
            #expect(try first.search(SearchPattern("needle", regex: false), fields: [.front], level: nil).map(\.id) == ["c1", "l3-0"])
            first.close()
        }
        // By hand, no box open: b1 now matches, c1 no longer does.
        dir.write("1/b1/front.txt", "a needle b1")
        dir.write("1/c1/front.txt", "no")
        let box = try Self.openApart(dir)
        defer { box.close() }
        let released = Atomic<Bool>(false)
        let holding = Atomic<Bool>(false)
        IndexBuildProbe.observe(storeRoot: box.storePath) { id in
            guard id == "a0" else { return }
            holding.store(true, ordering: .relaxed)
            let until = MonotonicTime.now + .seconds(20)
            while !released.load(ordering: .relaxed), MonotonicTime.now < until { usleep(1000) }
        }
        defer {
            released.store(true, ordering: .relaxed)
            IndexBuildProbe.observe(storeRoot: box.storePath, nil)
        }
        box.buildSearchIndexAhead()
        let build = try #require(box.searchBuild)
        let until = MonotonicTime.now + .seconds(20)
        while !holding.load(ordering: .relaxed), MonotonicTime.now < until { usleep(1000) }

        var scan = try box.startSearch(try SearchPattern("needle", regex: false), fields: [.front], level: nil, limit: nil,
                                       duringBuild: true)
        #expect(scan.build === build)
        var lines: [SearchMatch] = []
        while lines.isEmpty, !scan.isFinished { lines += try box.nextMatches(of: &scan, upTo: 100) }
        #expect(lines.map(\.id) == ["l3-0"])
        #expect(lines.map(\.line) == ["front needle 3"])
        #expect(!build.isDone)
        released.store(true, ordering: .relaxed)
        while !scan.isFinished { lines += try box.nextMatches(of: &scan, upTo: 100) }
        #expect(lines.map(\.id) == ["l3-0", "b1"])
        #expect(lines.map(\.line) == ["front needle 3", "a needle b1"])
        #expect(try box.search(SearchPattern("needle", regex: false), fields: [.front], level: nil).map(\.id) == ["b1", "l3-0"])
    }
}
