import Testing
@testable import LeitnerCore
import LeitnerTestSupport
import LeitnerSystem
import Glibc

/// A box whose inotify watches ran out (`BoxOptions.watchLimit`, `fs.inotify.max_user_watches`:
/// 8,192 on kernels before 5.11, shared with a sync tool's watcher): the views watch what they
/// may, look at the other cards' files' times before each use, and stay as correct as with a
/// watch each (R13); the box says so once (docs/performance.md, "Watches").
@Suite struct WatchLimitTests {
    static func open(_ dir: TemporaryDirectory, watchLimit: Int, apart: Bool = false) throws -> Box {
        var options = BoxOptions(storePath: dir.path, device: TestBox.device, clock: ManualClock("2026-03-02"))
        options.watchLimit = watchLimit
        options.buildsIndexesApart = apart
        return try Box(options: options)
    }

    /// Past the kernel clock's tick (`DirectoryStamp.racyWindow`): stamps taken from now on are
    /// trusted, so what follows is found by them and not by a card read again for being new.
    static func letStampsSettle() { usleep(1_100_000) }

    static func ids(_ matches: [SearchMatch]) -> [String] { Array(Set(matches.map(\.id))).sorted() }

    @Test func cardsWithoutAWatchAreFoundAsTheirFilesChangeByHand() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Self.open(dir, watchLimit: 0)
        defer { box.close() }
        for id in ["alpha", "beta", "gamma", "delta"] { try box.addText("front \(id)", "back \(id)", id: id) }
        let front = try SearchPattern("front", regex: false)
        #expect(Self.ids(try box.search(front, fields: [.front], level: nil)).count == 4)
        #expect(try box.list(level: nil, withText: false, filter: TagFilter(tags: ["hand"])).isEmpty)
        // The box says once that the watches ran out: here, at the first card.
        let warnings = box.takeWarnings()
        #expect(warnings.count == 1 && warnings[0].hasPrefix("inotify watches ran out at "))
        #expect(warnings[0].contains("WatchLimit= is 0"))
        Self.letStampsSettle()
        _ = try box.search(front, fields: [.front], level: nil)
        Self.letStampsSettle()

        // In place, the same length: only the file's times tell.
        dir.write("1/alpha/front.txt", "zebra alpha")
        // A new file renamed over the side, as an editor or a sync tool saves.
        dir.write("1/beta/.back.txt.tmp", "okapi beta")
        #expect(rename(dir.path + "/1/beta/.back.txt.tmp", dir.path + "/1/beta/back.txt") == 0)
        // A `tags` file written by hand, and a side given another extension.
        dir.write("1/gamma/tags", "hand\n")
        #expect(rename(dir.path + "/1/delta/front.txt", dir.path + "/1/delta/front.md") == 0)
        dir.write("1/delta/front.md", "zebra delta")

        #expect(Self.ids(try box.search(SearchPattern("zebra", regex: false), fields: [.front], level: nil)) == ["alpha", "delta"])
        #expect(Self.ids(try box.search(SearchPattern("okapi", regex: false), fields: [.back], level: nil)) == ["beta"])
        #expect(Self.ids(try box.search(front, fields: [.front], level: nil, filter: TagFilter(tags: ["hand"]))) == ["gamma"])
        #expect(try box.list(level: nil, withText: false, filter: TagFilter(tags: ["hand"])).map(\.id) == ["gamma"])
        #expect(try box.tagCounts() == [TagCount(tag: "hand", cards: 1)])
        // Said once only.
        #expect(box.takeWarnings().isEmpty)
    }

    /// Some cards watched, the rest not: the index built off the turn (as the daemon builds it)
    /// finds hand edits of both, and the tag table built after it shares the watches the index holds.
    @Test func aLimitBetweenWatchesEveryCardAndNone() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let ids = (0..<12).map { "card\($0 < 10 ? "0" : "")\($0)" }
        do {
            let box = try Box.open(dir, clock: ManualClock("2026-03-02"))
            for id in ids { try box.addText("front \(id)", "back \(id)", id: id) }
            box.close()
        }
        // The store's own: the root and ten places; then five cards.
        let box = try Self.open(dir, watchLimit: 1 + Level.allCases.count + 5, apart: true)
        defer { box.close() }
        let front = try SearchPattern("front", regex: false)
        #expect(throws: BoxError.self) { try box.search(front, fields: [.front], level: nil) }
        try #require(box.takeAwaitedBuild()).run()
        #expect(Self.ids(try box.search(front, fields: [.front], level: nil)) == ids)
        #expect(throws: BoxError.self) { try box.tagCounts() }
        try #require(box.takeAwaitedBuild()).run()
        #expect(try box.tagCounts() == [])
        let warnings = box.takeWarnings()
        #expect(warnings.count == 1 && warnings[0].hasPrefix("inotify watches ran out at \(1 + Level.allCases.count + 5) ("))
        Self.letStampsSettle()
        _ = try box.search(front, fields: [.front], level: nil)
        Self.letStampsSettle()
        for id in ids { dir.write("1/\(id)/back.txt", "zebra \(id)") }
        dir.write("1/card01/tags", "hand\n")
        dir.write("1/card11/tags", "hand\n")
        #expect(Self.ids(try box.search(SearchPattern("zebra", regex: false), fields: [.back], level: nil)) == ids)
        #expect(try box.tagCounts() == [TagCount(tag: "hand", cards: 2)])
        #expect(box.takeWarnings().isEmpty)
    }

    /// R30 with no watch left for `notes/` or a note: a number written into a note by hand gets
    /// its card at the next request, as with watches.
    @Test func aNoteWithoutAWatchStillGivesANewNumberItsCard() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Self.open(dir, watchLimit: 0)
        defer { box.close() }
        _ = try box.addCloze(text: "{{c1::eins}} {{c2::zwei}}", id: "zahl", level: "2")
        _ = try box.status()
        Self.letStampsSettle()
        _ = try box.status()
        Self.letStampsSettle()
        dir.write("notes/zahl/text.md", "{{c1::eins}} {{c2::zwei}} {{c3::drei}}")
        _ = try box.status()
        #expect(try box.list(level: nil, withText: false).map(\.id).contains("zahl.c3"))
        // A note put into `notes/` by hand gets its cards too.
        Self.letStampsSettle()
        dir.write("notes/hund/text.txt", "{{c1::Hund}}")
        _ = try box.status()
        #expect(try box.list(level: nil, withText: false).map(\.id).contains("hund.c1"))
    }
}
