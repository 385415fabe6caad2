import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// `ChangeFeed`, the store's numbered changes: each cursor takes every change once, in order; the
/// feed keeps only what the slowest open cursor still needs, and at most its limit, past which
/// that cursor is told it lost them.
@Suite struct ChangeFeedTests {
    static func ids(_ changes: ArraySlice<ChangeFeed.Change>?) -> [String]? {
        changes.map { slice in
            slice.map { change in
                switch change {
                case .level(let id, _, _), .written(let id): id
                case .directory(let entry, let watch): "\(watch)/\(entry)"
                case .note(let id): "notes/\(id)"
                }
            }
        }
    }

    @Test func eachCursorTakesWhatCameAfterItOnceAndInOrder() {
        var feed = ChangeFeed()
        feed.publish(.written(id: "before"))
        #expect(feed.count == 0, "nothing is kept while no cursor is open")
        let first = feed.open()
        feed.publish(.level(id: "a", from: nil, to: .one))
        let second = feed.open()
        feed.publish(.written(id: "b"))
        feed.publish(.directory(entry: "tags", watch: 7))
        #expect(Self.ids(feed.take(first)) == ["a", "b", "7/tags"])
        #expect(Self.ids(feed.take(first)) == [])
        #expect(Self.ids(feed.take(second)) == ["b", "7/tags"])
        feed.publish(.written(id: "c"))
        #expect(Self.ids(feed.take(second)) == ["c"])
        #expect(Self.ids(feed.take(first)) == ["c"])
        // What `ChangeFeed.defaultLimit` is sized by.
        #expect(MemoryLayout<ChangeFeed.Change>.stride == 24)
    }

    @Test func keepsOnlyWhatTheSlowestCursorNeeds() {
        var feed = ChangeFeed()
        let fast = feed.open()
        let slow = feed.open()
        for number in 0..<100 { feed.publish(.written(id: "\(number)")) }
        #expect(Self.ids(feed.take(fast))?.count == 100)
        feed.publish(.written(id: "x"))
        #expect(feed.count == 101, "the slow cursor has taken nothing yet")
        #expect(Self.ids(feed.take(slow))?.count == 101)
        feed.publish(.written(id: "y"))
        #expect(feed.count == 2, "both took the first hundred: only x (the fast one's) and y remain")
        _ = feed.take(fast)
        feed.publish(.written(id: "z"))
        #expect(feed.count == 2)
        feed.close(slow)
        #expect(feed.count == 1, "only z, which the one cursor left has not taken")
        feed.close(fast)
        feed.publish(.written(id: "after"))
        #expect(feed.count == 0)
    }

    @Test func aCursorLeftBehindTheLimitIsLostAndCatchesUpAfterward() {
        var feed = ChangeFeed(limit: 8)
        let reader = feed.open()
        let idle = feed.open()
        for number in 0..<20 {
            feed.publish(.written(id: "\(number)"))
            #expect(Self.ids(feed.take(reader)) == ["\(number)"])
            #expect(feed.count <= 8)
        }
        #expect(feed.isLost(idle))
        #expect(!feed.isLost(reader))
        #expect(feed.take(idle) == nil)
        #expect(!feed.isLost(idle))
        feed.publish(.written(id: "next"))
        #expect(Self.ids(feed.take(idle)) == ["next"])
        // A lost cursor pins nothing: the reader alone decides what is kept.
        for number in 0..<20 { feed.publish(.written(id: "\(number)")) }
        _ = feed.take(reader)
        feed.publish(.written(id: "last"))
        #expect(feed.count <= 8)
    }

    @Test func lostEventsLoseEveryOpenCursorButNotALaterOne() {
        var feed = ChangeFeed()
        let caughtUp = feed.open()
        let behind = feed.open()
        feed.publish(.written(id: "a"))
        _ = feed.take(caughtUp)
        feed.loseAll()
        #expect(feed.isLost(caughtUp) && feed.isLost(behind))
        let later = feed.open()
        #expect(!feed.isLost(later))
        feed.publish(.written(id: "b"))
        #expect(feed.take(caughtUp) == nil)
        #expect(feed.take(behind) == nil)
        #expect(Self.ids(feed.take(later)) == ["b"])
        feed.publish(.written(id: "c"))
        #expect(Self.ids(feed.take(caughtUp)) == ["c"])
    }

    @Test func aClosedOrUnopenedCursorTakesLost() {
        var feed = ChangeFeed()
        let cursor = feed.open()
        feed.close(cursor)
        #expect(feed.take(cursor) == nil)
        #expect(feed.isLost(.none) && feed.take(.none) == nil)
    }

    /// The store publishes its changes rather than holding each view's marks: its own state stays
    /// in a few groups (docs/architecture.md, "LeitnerCore's rooms"), and a new view adds none.
    @Test func theStoreKeepsItsStateInAtMostFifteenStoredProperties() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-03-02"))
        defer { box.close() }
        let stored = Mirror(reflecting: box.store).children.compactMap(\.label)
        #expect(stored.count <= 15, "\(stored)")
        #expect(stored.contains("feed"))
    }

    /// A view left further behind than the feed keeps is told it lost changes, and reads
    /// everything again: a `tags` file written by hand whose event the feed dropped is still found.
    @Test func aViewFarBehindReadsEverythingAgain() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-03-02"))
        defer { box.close() }
        _ = try box.addText("neko", "cat", id: "neko")
        _ = try box.addText("inu", "dog", id: "inu")
        #expect(try box.tagCounts() == [])
        dir.write("1/neko/tags", "ja\n")
        _ = try box.status()
        for _ in 0...ChangeFeed.defaultLimit { box.store.publishWritten("inu") }
        #expect(box.tagTable.map { box.store.isLost($0.cursor) } == true)
        #expect(try box.tagCounts() == [TagCount(tag: "ja", cards: 1)])
        #expect(box.tagTable.map { box.store.isLost($0.cursor) } == false)
    }

    /// The watches a view asks about each of its cards: the same answers as the set they were
    /// given, whether they lie close (a bit each) or too far apart for bits (the set asked).
    @Test func touchedWatchesAnswerAsTheirSet() {
        var random = SeededGenerator(seed: 40)
        for spread in [Int32(64), 100_000, Int32.max - 1] {
            let watches = Set((0..<50).map { _ in Int32.random(in: 1...spread, using: &random) })
            let touched = TouchedWatches(watches)
            #expect(touched.all == watches && !touched.isEmpty)
            for watch in watches { #expect(touched.contains(watch)) }
            for _ in 0..<2_000 {
                let watch = Int32.random(in: -1...spread, using: &random)
                #expect(touched.contains(watch) == watches.contains(watch))
            }
            #expect(!touched.contains(-1) && !touched.contains(Int32.max) && !touched.contains(Int32.min))
        }
        #expect(TouchedWatches([]).isEmpty && !TouchedWatches([]).contains(0) && !TouchedWatches([]).contains(-1))
    }

    /// Every view asks the touched watches about each card it knows (`TouchedWatches`): after
    /// hand edits to cards scattered among 300 (the first and the last among them, so that the
    /// touched watches span words of bits, and a word's first and last bit are asked), the
    /// search finds each card's new text (R13), the listing leaves out each card whose side was
    /// removed (R21), the tag counts count each `tags` written; the cards not edited are as
    /// they were, and a box that reads everything afresh sees the same. Two rounds: the second
    /// mends the damaged cards and edits others.
    @Test func everyViewSeesHandEditsScatteredAmongItsCards() throws {
        let f = try BoxFixture()
        let count = 300
        let ids = (0..<count).map { "c\(1000 + $0)" }
        for id in ids { f.dir.writeCard(id, level: "2", front: "word \(id)") }
        func searched(_ word: String) throws -> Set<String> {
            Set(try f.box.search(SearchPattern(word, regex: false), fields: [.front], level: nil).map(\.id))
        }
        // Each view learns every card (and watches its directory).
        #expect(try searched("word").count == count)
        #expect(try f.box.list(level: "2", withText: false).count == count)
        #expect(try f.box.tagCounts() == [])
        var random = SeededGenerator(seed: 13)
        var damaged = Set<String>(), tagged = Set<String>(), rewritten = Set<String>()
        for round in 0..<2 {
            for id in damaged { f.dir.write("2/\(id)/back.txt", "mended") }
            damaged = []
            var edited = Set([ids[0], ids[count - 1]])
            while edited.count < 40 { edited.insert(ids[Int.random(in: 0..<count, using: &random)]) }
            for (number, id) in edited.sorted().enumerated() {
                switch number % 3 {
                case 0: f.dir.write("2/\(id)/front.txt", "zebra \(round) \(id)"); rewritten.insert(id)
                case 1: f.dir.removeFile("2/\(id)/back.txt"); damaged.insert(id)
                default: f.dir.write("2/\(id)/tags", "hand\n"); tagged.insert(id)
                }
            }
            let zebras = rewritten.subtracting(damaged)
            #expect(try searched("zebra \(round)") == Set(edited.sorted().enumerated().filter { $0.offset % 3 == 0 }.map(\.element)))
            #expect(try searched("zebra") == zebras)
            let words = try searched("word"), wanted = Set(ids).subtracting(rewritten).subtracting(damaged)
            #expect(words == wanted, "round \(round): extra \(words.subtracting(wanted).sorted()), missing \(wanted.subtracting(words).sorted())")
            let listed = try f.box.list(level: "2", withText: false)
            #expect(listed.map(\.id) == ids.filter { !damaged.contains($0) })
            #expect(Set(listed.filter { $0.tags == ["hand"] }.map(\.id)) == tagged.subtracting(damaged))
            #expect(try f.box.tagCounts() == [TagCount(tag: "hand", cards: tagged.subtracting(damaged).count)])
        }
        let warm = try f.box.list(level: nil, withText: false)
        try f.reopen()
        #expect(try f.box.list(level: nil, withText: false) == warm)
    }
}
