import Testing
@testable import LeitnerCore
import LeitnerTestSupport
import LeitnerSystem
import Glibc

/// Tags, a subset of the test and practice on a real store (R25–R27).
@Suite struct BoxTagsTests {
    @Test func taggingWritesTheFileAndFiltersFindTheCards() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-03-02"))
        defer { box.close() }
        try box.addText("hola", "hello", id: "hola")
        try box.addText("neko", "cat", id: "neko")
        try box.addText("hund", "dog", id: "hund")
        #expect(try box.tag(id: "neko", tags: ["ja:kana", "animals"]).tags == ["ja:kana", "animals"])
        _ = try box.tag(id: "hund", tags: ["de", "animals"])
        #expect(try FileSystem.readFile(atPath: dir.path + "/1/neko/tags") == Array("ja:kana\nanimals\n".utf8))
        #expect(try box.list(level: nil, withText: false, filter: TagFilter(tags: ["ja"])).map(\.id) == ["neko"])
        #expect(try box.list(level: nil, withText: false, filter: TagFilter(notTags: ["animals"])).map(\.id) == ["hola"])
        #expect(try box.tagCounts() == [TagCount(tag: "animals", cards: 2), TagCount(tag: "de", cards: 1),
                                        TagCount(tag: "ja:kana", cards: 1)])
        let found = try box.search(SearchPattern("o", regex: false), fields: [.front], level: nil, filter: TagFilter(tags: ["de"]))
        #expect(found.map(\.id) == [])
        #expect(try box.search(SearchPattern("u", regex: false), fields: [.front], level: nil, filter: TagFilter(tags: ["de"])).map(\.id) == ["hund"])
        // Untagging the last tag leaves an empty file, which a sync tool carries (docs/sync.md).
        #expect(try box.untag(id: "hund", tags: ["de", "animals", "absent"]).tags == [])
        #expect(try FileSystem.readFile(atPath: dir.path + "/1/hund/tags").isEmpty)
        #expect(throws: BoxError.invalidTag(tag: "a b", reason: "contains a space")) { try box.tag(id: "hola", tags: ["ok", "a b"]) }
        #expect(try box.show(id: "hola").tags == [])
    }

    /// `Add`'s tags are written with the card and its reverse in the change that adds them: one
    /// `add` line each and no `edit`; a bad tag refuses the card and adds nothing.
    @Test func addWritesTheTagsWithTheCardAndItsReverse() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-03-02"))
        defer { box.close() }
        let added = try box.add(front: Asset(name: "front.txt", text: "neko"), back: Asset(name: "back.txt", text: "cat"), id: "neko",
                                level: "2", allowDuplicateFront: true, withReverse: true, tags: ["ja:kana", "animals", "ja:kana"])
        #expect(added.card.tags == ["ja:kana", "animals"])
        #expect(added.reverse?.tags == ["ja:kana", "animals"])
        #expect(try FileSystem.readFile(atPath: dir.path + "/2/neko/tags") == Array("ja:kana\nanimals\n".utf8))
        #expect(try FileSystem.readFile(atPath: dir.path + "/2/neko.rev/tags") == Array("ja:kana\nanimals\n".utf8))
        #expect(dir.logLines.map { $0[1] } == ["add", "add"])
        #expect(try box.list(level: nil, withText: false, filter: TagFilter(tags: ["ja"])).map(\.id) == ["neko", "neko.rev"])
        #expect(throws: BoxError.invalidTag(tag: "a b", reason: "contains a space")) {
            try box.add(front: Asset(name: "front.txt", text: "hund"), back: Asset(name: "back.txt", text: "dog"), id: "hund",
                        level: nil, allowDuplicateFront: true, withReverse: false, tags: ["de", "a b"])
        }
        #expect(!dir.exists("1/hund") && !dir.exists("new/hund"))
        #expect(dir.logLines.count == 2)
    }

    @Test func aTagsFileEditedByHandIsTakenInAndItsBadLinesReported() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-03-02"))
        defer { box.close() }
        try box.addText("neko", "cat", id: "neko")
        #expect(try box.tagCounts() == [])
        dir.write("1/neko/tags", "ja\nnot a tag\n")
        #expect(try box.tagCounts() == [TagCount(tag: "ja", cards: 1)])
        #expect(try box.show(id: "neko").tags == ["ja"])
        let problems = try box.doctor()
        #expect(problems.map(\.kind) == [.badTag])
        #expect(problems.first?.path == dir.path + "/1/neko/tags:2")
        // Written on Windows: the line's "\r" is not printed in the message.
        dir.write("1/neko/tags", "ja\r\nnot a tag\r\n")
        let windows = try box.doctor()
        #expect(windows.map(\.path) == [dir.path + "/1/neko/tags:2"])
        #expect(windows.first?.reason.hasPrefix("not a tag, ignored: 'not a tag' ") == true)
        #expect(try box.tagCounts() == [TagCount(tag: "ja", cards: 1)])
    }

    /// The filters and `Tags` answer from the tag table, which follows every way a `tags` file
    /// changes by hand (R13) without the search index being built.
    @Test func theTagTableFollowsHandChangesWithoutTheSearchIndex() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-03-02"))
        defer { box.close() }
        try box.addText("neko", "cat", id: "neko")
        try box.addText("hund", "dog", id: "hund")
        try box.addText("hola", "hello", id: "hola")
        _ = try box.tag(id: "neko", tags: ["ja"])
        let ja = try TagFilter(tags: ["ja"])
        #expect(try box.list(level: nil, withText: false, filter: ja).map(\.id) == ["neko"])
        #expect(box.tagTable != nil && box.searchIndex == nil)
        // Created by hand in a card that had none, then rewritten in place by an editor.
        dir.write("1/hund/tags", "de\n")
        #expect(try box.tagCounts() == [TagCount(tag: "de", cards: 1), TagCount(tag: "ja", cards: 1)])
        dir.write("1/hund/tags", "de:noun\n")
        #expect(try box.tagCounts(filter: TagFilter(tags: ["de"])) == [TagCount(tag: "de:noun", cards: 1)])
        // A sync tool's way: written aside, renamed over.
        dir.write("1/hola/.tags.tmp", "es\n")
        dir.move("1/hola/.tags.tmp", "1/hola/tags")
        #expect(try box.list(level: nil, withText: false, filter: TagFilter(tags: ["es"])).map(\.id) == ["hola"])
        // Removed by hand; a card moved by hand keeps its tags at its new level.
        #expect(unlink(dir.path + "/1/neko/tags") == 0)
        dir.move("1/hund", "3/hund")
        #expect(try box.list(level: nil, withText: false, filter: ja).isEmpty)
        #expect(try box.list(level: "3", withText: false, filter: TagFilter(tags: ["de"])).map(\.id) == ["hund"])
        #expect(try box.list(level: nil, withText: false, filter: TagFilter(notTags: ["de", "es"])).map(\.id) == ["neko"])
        // The box's own changes: a card deleted, one tagged, one renamed.
        try box.delete(id: "hola")
        _ = try box.tag(id: "neko", tags: ["ja:kana"])
        #expect(try box.tagCounts() == [TagCount(tag: "de:noun", cards: 1), TagCount(tag: "ja:kana", cards: 1)])
        #expect(try box.practiceCards(PracticeSelection(filter: ja)).map(\.id) == ["neko"])
        #expect(box.searchIndex == nil)
    }

    /// A listing by tag keeps the entries its filter selected for the next listing by the same
    /// filter (a warm `list --tag` looks up no id), and lets go of them when a card's tags change,
    /// by hand or by the box (R13), or a card comes or goes (its entry numbers may name other
    /// cards then): each listing after such a change is the listing of the store as it is.
    @Test func aListingKeepsItsSelectionUntilTagsOrCardsChange() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-03-02"))
        defer { box.close() }
        try box.addText("neko", "cat", id: "neko")
        try box.addText("hund", "dog", id: "hund")
        _ = try box.tag(id: "neko", tags: ["ja"])
        let ja = try TagFilter(tags: ["ja"])
        func kept() -> [UInt32]? { box.tagTable?.selection(ja, cards: box.store.cardSetVersion) }
        #expect(try box.list(level: nil, withText: true, filter: ja).map(\.id) == ["neko"])
        #expect(kept() == box.store.cardLevels.entryNumber(of: "neko").map { [$0] })
        #expect(box.tagTable?.selection(try TagFilter(tags: ["de"]), cards: box.store.cardSetVersion) == nil)
        #expect(try box.list(level: nil, withText: true, filter: ja).map(\.id) == ["neko"])
        // Tagged by hand: taken in before the next listing, which selects again.
        dir.write("1/hund/tags", "ja:noun\n")
        #expect(try box.list(level: nil, withText: false, filter: ja).map(\.id) == ["hund", "neko"])
        #expect(kept()?.count == 2)
        // A card added without tags changes no tags, but the cards: the selection is made again.
        let version = box.store.cardSetVersion
        try box.addText("hola", "hello", id: "hola")
        #expect(box.store.cardSetVersion != version && kept() == nil)
        #expect(try box.list(level: nil, withText: false, filter: ja).map(\.id) == ["hund", "neko"])
        // A card deleted and another added under its id by hand, with the tag: a new entry.
        try box.delete(id: "neko")
        #expect(try box.list(level: nil, withText: false, filter: ja).map(\.id) == ["hund"])
        dir.write("2/neko/front.txt", "cat")
        dir.write("2/neko/back.txt", "neko")
        dir.write("2/neko/tags", "ja\n")
        #expect(try box.list(level: nil, withText: true, filter: ja).map { "\($0.id) \($0.level.name)" } == ["hund 1", "neko 2"])
        // Untagged by the box.
        _ = try box.untag(id: "hund", tags: ["ja:noun"])
        #expect(try box.list(level: nil, withText: false, filter: ja).map(\.id) == ["neko"])
        #expect(try box.list(level: nil, withText: false, filter: TagFilter(notTags: ["ja"])).map(\.id) == ["hola", "hund"])
    }

    @Test func practiceMovesNothingAndIsCountedApart() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-03-02"))
        defer { box.close() }
        try box.addText("neko", "cat", id: "neko")
        try box.addText("hund", "dog", id: "hund")
        _ = try box.tag(id: "neko", tags: ["ja"])
        let before = try box.prepare().test
        let cards = try box.practiceCards(PracticeSelection(filter: TagFilter(tags: ["ja"])))
        #expect(cards.map(\.id) == ["neko"])
        #expect(try box.practice(id: "neko", correct: false, answerMs: 900).level == .one)
        _ = try box.practice(id: "neko", correct: true, answerMs: 800)
        let after = try box.status().test
        #expect(after.remaining == before.remaining && after.passed == 0 && after.failed == 0)
        #expect(throws: BoxError.nothingToUndo) { try box.undo() }
        let stats = try box.statistics(window: nil, leeches: nil)
        #expect(stats.practiceAnswers == 2 && stats.practiceWrong == 1 && stats.practiceMs == 1700)
        #expect(stats.work.last?.reviews == 0)
        #expect(try box.practiceCards(PracticeSelection(wrongDays: 7)).map(\.id) == ["neko"])
        #expect(try box.log(since: nil, limit: nil).filter { $0.event == .practice }.count == 2)
    }

    @Test func aSubsetReviewLeavesTheRestQueuedAndTheTestOpen() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-03-02"))
        defer { box.close() }
        try box.addText("neko", "cat", id: "neko")
        try box.addText("hund", "dog", id: "hund")
        _ = try box.tag(id: "neko", tags: ["ja"])
        _ = try box.prepare()
        let filter = try TagFilter(tags: ["ja"])
        let first = try box.next(filter: filter, levels: [])
        #expect(first.card?.id == "neko" && first.outside == 1)
        _ = try box.grade(id: "neko", correct: true, answerMs: 500)
        let done = try box.next(filter: filter, levels: [])
        #expect(done.card == nil && done.outside == 1)
        #expect(done.test.state == .open && done.test.remaining == 1)
        let rest = try box.next()
        #expect(rest.card?.id == "hund")
        #expect(try box.grade(id: "hund", correct: true, answerMs: 500).test.state == .completed)
    }
}
