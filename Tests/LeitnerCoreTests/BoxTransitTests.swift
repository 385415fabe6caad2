import Dispatch
import Glibc
import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// docs/sync.md, "A store a sync tool is changing": in a store another device shares, a card
/// whose folder left its level is in transit until the store is quiet; it keeps its place in the
/// test, which does not complete meanwhile, and its coming back elsewhere is one move.
@Suite struct BoxTransitTests {
    /// A box on a store another device (`peer`) shares, quiet only after `settleAfter`; cards a
    /// and b in level 1, and today's test graded but for b.
    func testWaitingForB(settleAfter: Int64) throws -> (TemporaryDirectory, Box) {
        let dir = TemporaryDirectory()
        dir.write(".leitner/devices/peer/log", SyncDevicesTests.line("2026-03-01T09:00:00Z", "add", "p", "-", "5"))
        let box = try SyncDevicesTests.open(dir, clock: ManualClock("2026-03-02"), settleAfter: settleAfter)
        try box.addText("a", "front of a", id: "a")
        try box.addText("b", "front of b", id: "b")
        _ = try box.prepare()
        _ = try box.grade(id: "a", correct: true, answerMs: 900)
        return (dir, box)
    }

    @Test func aCardGoneWhileTheStoreIsNotQuietKeepsItsPlaceAndComesBackAsAMove() throws {
        let (dir, box) = try testWaitingForB(settleAfter: 600_000)
        defer { dir.remove(); box.close() }
        dir.removeTree("1/b")
        let status = try box.status()
        #expect((status.test.state, status.test.remaining, status.test.syncing) == (.open, 1, 1))
        #expect(try box.next().card == nil)
        #expect(try box.doctor().map(\.reason).contains { $0.hasPrefix("in transit: card 'b' left level 1") })
        #expect(try !box.log(since: nil, limit: nil).contains { $0.event == .delete })
        // Syncthing delivers it in level 2: one move from level 1, found by hand.
        dir.writeCard("b", level: "2")
        let back = try box.status()
        #expect((back.test.state, back.test.remaining, back.test.syncing) == (.open, 1, 0))
        let last = try #require(box.log(since: nil, limit: 1).first)
        #expect((last.event, last.id, last.from, last.to, last.origin) == (.move, "b", .one, .two, "hand"))
        #expect(try box.next().card?.id == "b")
    }

    /// R24: a leech whose folder is in transit is not counted while it is away, though no log
    /// line says it went: the count `Status` keeps follows the cards in the box, not the log only.
    @Test func aLeechInTransitIsNotCountedUntilItIsBack() throws {
        let dir = TemporaryDirectory()
        dir.write(".leitner/devices/peer/log", SyncDevicesTests.line("2026-03-01T09:00:00Z", "add", "p", "-", "5"))
        var options = BoxOptions(storePath: dir.path, device: TestBox.device, clock: ManualClock("2026-03-02"))
        options.settleAfter = 600_000
        options.leechAfter = 2
        let box = try Box(options: options)
        defer { dir.remove(); box.close() }
        try box.addText("a", "front of a", id: "a")
        _ = try box.prepare()
        for _ in 0..<2 { _ = try box.grade(id: "a", correct: false, answerMs: nil) }
        #expect(try box.status().leeches == 1)
        dir.removeTree("1/a")
        #expect(try box.status().leeches == 0)
        dir.writeCard("a", level: "1")
        #expect(try box.status().leeches == 1)
    }

    /// A card in transit is still the learner's card: `Show` and `List` wait for the sync tool
    /// to deliver it (here, its front 0.3 s later, in level 2, and its back 0.3 s after that),
    /// rather than answer NoSuchCard or leave it out: a folder that is back with only one of
    /// its sides has not arrived yet.
    @Test func showAndListWaitForACardInTransit() throws {
        let (dir, box) = try testWaitingForB(settleAfter: 600_000)
        defer { dir.remove(); box.close() }
        for level in ["2", "3"] {
            dir.removeTree("\(level == "2" ? "1" : "2")/b")
            #expect(try box.status().test.syncing == 1)
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
                dir.write("\(level)/b/front.txt", "f")
                usleep(300_000)
                dir.write("\(level)/b/back.txt", "b")
            }
            if level == "2" {
                #expect(try box.show(id: "b").level.name == level)
            } else {
                #expect(try box.list(level: nil, withText: false).first { $0.id == "b" }?.level.name == level)
            }
        }
        // An id that is no card is not waited for.
        expectBoxError(.noSuchCard(id: "ghost")) { try box.show(id: "ghost") }
    }

    @Test func aCardBackInTheLevelItLeftChangedNothing() throws {
        let (dir, box) = try testWaitingForB(settleAfter: 600_000)
        defer { dir.remove(); box.close() }
        let before = try box.log(since: nil, limit: nil).count
        dir.removeTree("1/b")
        _ = try box.status()
        dir.writeCard("b", level: "1")
        #expect(try box.status().test.remaining == 1)
        #expect(try box.log(since: nil, limit: nil).count == before)
    }

    @Test func aCardStillGoneOnceTheStoreIsQuietWasDeleted() throws {
        let (dir, box) = try testWaitingForB(settleAfter: 0)
        defer { dir.remove(); box.close() }
        dir.removeTree("1/b")
        // Quiet at once: deleted by hand, and the test, graded, is completed by its last card
        // leaving it (R10).
        #expect(try box.status().test.state == .completed)
        let deleted = try box.log(since: nil, limit: nil).filter { $0.event == .delete }
        #expect(deleted.map { "\($0.id ?? "") \($0.origin ?? "")" } == ["b hand"])
    }
}
