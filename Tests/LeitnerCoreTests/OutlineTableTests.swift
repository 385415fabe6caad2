import Synchronization
import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// A `List` without text answered from what the outline table learned (`OutlineTable`): a card is
/// read when a listing first reaches it and again only once it changed — by the box or by hand
/// (R13) — so that a damaged card is left out (R21) and a moved one listed at its level as soon
/// as the change is made, as when every directory was read at every listing.
@Suite(.serialized) struct OutlineTableTests {
    /// The cards a listing without text read from the disk, by id, while `body` ran.
    static func reads(_ f: BoxFixture, _ body: () throws -> Void) rethrows -> [String] {
        let read = Mutex<[String]>([])
        IndexBuildProbe.observe(storeRoot: f.box.storePath) { id in read.withLock { $0.append(id) } }
        defer { IndexBuildProbe.observe(storeRoot: f.box.storePath, nil) }
        try body()
        return read.withLock { $0 }.sorted()
    }

    /// What a box that never listed lists: every directory read.
    static func listedCold(_ f: BoxFixture, level: String? = nil) throws -> [Card] {
        try f.reopen()
        return try f.box.list(level: level, withText: false)
    }

    @Test func aSecondListingReadsOnlyTheCardsThatChanged() throws {
        let f = try BoxFixture()
        for number in 0..<12 { f.dir.writeCard("c\(number)", level: String(1 + number % 3)) }
        var first: [Card] = []
        #expect(try Self.reads(f) { first = try f.box.list(level: nil, withText: false) } == (0..<12).map { "c\($0)" }.sorted())
        var again: [Card] = []
        #expect(try Self.reads(f) { again = try f.box.list(level: nil, withText: false) } == [])
        #expect(again == first)
        // Graded-like moves by the box, a side rewritten by hand, tags written by hand: each
        // card read again, and only it.
        _ = try f.box.move(id: "c1", level: "5")
        f.dir.write("1/c3/back.txt", "new back")
        f.dir.write("3/c5/tags", "verbs\n")
        var second: [Card] = []
        #expect(try Self.reads(f) { second = try f.box.list(level: nil, withText: false) } == ["c1", "c3", "c5"])
        #expect(second.first { $0.id == "c1" }?.front.path == f.dir.path + "/5/c1/front.txt")
        #expect(second.first { $0.id == "c5" }?.tags == ["verbs"])
        #expect(try Self.listedCold(f) == second)
    }

    @Test func aCardDamagedByHandIsLeftOutAtTheNextListing() throws {
        let f = try BoxFixture()
        for number in 0..<6 { f.dir.writeCard("c\(number)", level: "2") }
        #expect(try f.box.list(level: "2", withText: false).count == 6)
        // R21: a side removed, a second front added.
        f.dir.removeFile("2/c1/back.txt")
        f.dir.write("2/c4/front.md", "another front")
        let listed = try f.box.list(level: "2", withText: false)
        #expect(listed.map(\.id) == ["c0", "c2", "c3", "c5"])
        // Recorded as any read records it: reported by status and doctor.
        #expect(f.box.store.isDamaged("c1") && f.box.store.isDamaged("c4"))
        #expect(try f.box.status().counts[.two] == 4)
        // Mended by hand: listed again.
        f.dir.write("2/c1/back.txt", "b")
        #expect(try f.box.list(level: "2", withText: false).map(\.id) == ["c0", "c1", "c2", "c3", "c5"])
        #expect(try Self.listedCold(f, level: "2") == (try f.box.list(level: "2", withText: false)))
    }

    @Test func aCardMovedByHandIsListedInItsNewLevel() throws {
        let f = try BoxFixture()
        for number in 0..<4 { f.dir.writeCard("c\(number)", level: "1") }
        #expect(try f.box.list(level: "1", withText: false).count == 4)
        f.dir.move("1/c2", "4/c2")
        #expect(try f.box.list(level: "1", withText: false).map(\.id) == ["c0", "c1", "c3"])
        let moved = try f.box.list(level: "4", withText: false)
        #expect(moved.map(\.id) == ["c2"])
        #expect(moved.first?.back.path == f.dir.path + "/4/c2/back.txt")
    }

    @Test func aReverseCardFollowsTheCardItReverses() throws {
        let f = try BoxFixture()
        f.dir.writeCard("hola", level: "1", front: "hola", back: "hello")
        f.dir.writeCard("adios", level: "1")
        _ = try f.box.addReverse(of: "hola", reverseID: nil, level: "3")
        #expect(try f.box.list(level: "3", withText: false).first?.front.path == f.dir.path + "/1/hola/back.txt")
        // Its sides are the card's files: where the card is now...
        _ = try f.box.move(id: "hola", level: "2")
        #expect(try f.box.list(level: "3", withText: false).first?.front.path == f.dir.path + "/2/hola/back.txt")
        // ...and gone with them when the card is damaged by hand (R28, R21).
        f.dir.removeFile("2/hola/back.txt")
        #expect(try f.box.list(level: "3", withText: false).isEmpty)
        f.dir.write("2/hola/back.txt", "hello")
        #expect(try f.box.list(level: "3", withText: false).map(\.id) == ["hola.rev"])
        #expect(try Self.listedCold(f) == (try f.box.list(level: nil, withText: false)))
    }

    @Test func aClozeCardFollowsItsNote() throws {
        let f = try BoxFixture()
        let cards = try f.box.addCloze(text: "{{c1::Paris}} is in {{c2::France}}", id: "paris", level: "1")
        #expect(cards.count == 2)
        #expect(try f.box.list(level: "1", withText: false).map(\.id) == ["paris.c1", "paris.c2"])
        // The note loses c2 by hand (R30): its card is damaged, left out.
        f.dir.write("notes/paris/text.md", "{{c1::Paris}} is in France")
        #expect(try f.box.list(level: "1", withText: false).map(\.id) == ["paris.c1"])
        #expect(try Self.listedCold(f, level: "1").map(\.id) == ["paris.c1"])
    }

    @Test func aSideThatIsALinkIsReadAtEveryListing() throws {
        let f = try BoxFixture()
        f.dir.writeCard("a", level: "1")
        f.dir.write("1/b/front.txt", "f")
        f.dir.write("shared-back.txt", "b")
        f.dir.symlink("../../shared-back.txt", at: "1/b/back.txt")
        #expect(try f.box.list(level: "1", withText: false).map(\.id) == ["a", "b"])
        // The link's target goes: no event of the card's directory, but the card is read again.
        f.dir.removeFile("shared-back.txt")
        var listed: [Card] = []
        #expect(try Self.reads(f) { listed = try f.box.list(level: "1", withText: false) } == ["b"])
        #expect(listed.map(\.id) == ["a"])
    }

    @Test func aFilterByTagSeesTagsWrittenByHand() throws {
        let f = try BoxFixture()
        for number in 0..<4 { f.dir.writeCard("c\(number)", level: "1") }
        f.dir.write("1/c2/tags", "ja\n")
        let ja = try TagFilter(tags: ["ja"])
        #expect(try f.box.list(level: nil, withText: false, filter: ja).map(\.id) == ["c2"])
        f.dir.write("1/c3/tags", "ja\n")
        f.dir.removeFile("1/c2/tags")
        #expect(try f.box.list(level: nil, withText: false, filter: ja).map(\.id) == ["c3"])
    }
}
