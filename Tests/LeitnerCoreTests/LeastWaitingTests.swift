import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// R23, R13: the least ids of `new/` the box keeps from one day's opening to the next
/// (`LeastWaiting`) are those a walk of `new/` finds, whatever changed it — a request, a hand, a
/// day's admissions — so that the opening reads only what changed (docs/performance.md, "The
/// least ids of `new/`, kept").
@Suite struct LeastWaitingTests {
    func admitted(_ f: BoxFixture) -> [String] {
        f.dir.logLines.filter { $0[1] == "move" && $0.contains("origin=admit") }.map { $0[2] }
    }

    /// After every change, the view kept (five ids, so that cards come past what it keeps and
    /// the admissions use it up) answers as a walk of the index does, at each limit; it is
    /// walked again only when it says it ran short.
    @Test func theIdsKeptAreThoseAWalkFindsAfterEveryChange() throws {
        let f = try BoxFixture(places: PlacesSettings(newPerDay: 3))
        var random = SeededGenerator(seed: 40)
        let store = f.box.store
        var view = LeastWaiting(store: store, capacity: 5)
        var walks = 1
        // Ids of several scripts, whose byte order is not their order as strings.
        func id(_ n: UInt64) -> String { ["c", "card-", "é", "猫"][Int(n % 4)] + "\(n % 60)" }
        let levels = ["new", "1", "3"]
        for step in 0..<400 {
            let card = id(random.next())
            let level = store.level(of: card)
            switch random.next() % 8 {
            case 0, 1:
                // Into new/ while the day has not opened or has no room, else level 1 (R23).
                if level == nil { _ = try f.box.addText(card, card, id: card) }
            case 2:
                if let level, level != .new { _ = try f.box.move(id: card, level: "new") }
            case 3:
                if let level, level != .three { _ = try f.box.move(id: card, level: "3") }
            case 4:
                // Made by hand in new/, or moved there or out of it by hand (R13).
                if level == nil { f.dir.writeCard(card, level: "new") }
            case 5:
                if let level, level.name != "suspended" {
                    let to = levels[Int(random.next() % 3)]
                    if to != level.name { f.dir.move("\(level.name)/\(card)", "\(to)/\(card)") }
                }
            case 6:
                if level != nil { try f.box.delete(id: card) }
            default:
                let other = id(random.next())
                if level != nil, store.level(of: other) == nil { _ = try f.box.rename(id: card, to: other) }
            }
            if random.next() % 6 == 0 {
                f.clock.advance(days: 1)
                _ = try f.box.prepare()
            }
            // Takes in the hand changes.
            _ = try f.box.status()
            if !view.follow(store: store) {
                Issue.record("step \(step): the feed lost no change here")
                store.closeCursor(view.cursor)
                view = LeastWaiting(store: store, capacity: 5)
            }
            let index = store.cardLevels
            for limit in [1, 3, 5] {
                let walked = index.leastEntries(limit, at: .new).map { index.id(ofEntry: $0) }
                if view.first(limit) == nil {
                    store.closeCursor(view.cursor)
                    view = LeastWaiting(store: store, capacity: 5)
                    walks += 1
                }
                #expect(view.first(limit).map(Array.init) == walked, "step \(step), limit \(limit)")
            }
        }
        // Kept across most steps: walked again only when the admissions and moves used it up.
        #expect(walks < 200)
    }

    /// The open walks `new/` once; the days' openings after it read what was kept since, a card
    /// put in `new/` or taken out of it by hand meanwhile included, and admit by id the cards
    /// no request put there (R23's order), as a walk would.
    @Test func r23TheDaysOpeningsReadWhatTheOpenKept() throws {
        let f = try BoxFixture(places: PlacesSettings(newPerDay: 2))
        // Put there while no daemon ran: logged by hand at the open, admitted by id.
        for id in ["k", "d", "h", "b", "f"] { f.dir.writeCard(id, level: "new") }
        try f.reopen()
        let kept = try #require(f.box.leastWaiting).cursor
        _ = try f.box.prepare()
        #expect(admitted(f) == ["b", "d"])
        f.clock.advance(days: 1)
        f.dir.writeCard("a", level: "new")
        f.dir.move("new/f", "2/f")
        _ = try f.box.prepare()
        #expect(admitted(f) == ["b", "d", "a", "h"])
        f.clock.advance(days: 1)
        _ = try f.box.prepare()
        #expect(admitted(f) == ["b", "d", "a", "h", "k"])
        // The same view throughout: no walk of `new/` after the open's.
        #expect(f.box.leastWaiting?.cursor == kept)
    }
}
