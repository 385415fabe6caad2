import Glibc
import Testing
@testable import LeitnerCore
import LeitnerSystem
import LeitnerTestSupport

/// A card changed on two machines at once (docs/sync.md, "Settling a card after a sync"): this
/// box is one machine (`here`), the other machine's log is written by hand into
/// `.leitner/devices/peer/` and its changes made to the level directories as a sync tool makes
/// them.
@Suite struct BoxTwoMachinesTests {
    /// A clock a few seconds ahead of the real one: the settling compares the log's times with the
    /// folders' real change times, and a hand change is only dated by its folder when that is
    /// not later than the box's now.
    final class AheadClock: WallClock {
        let millis: Int64
        init(seconds: Int64) { millis = SyncDevicesTests.realMillis() + seconds * 1000 }
        func now() -> Int64 { millis }
    }

    static func open(_ dir: TemporaryDirectory, settleAfter: Int64) throws -> Box {
        var options = BoxOptions(storePath: dir.path, device: TestBox.device, clock: AheadClock(seconds: 30))
        options.settleAfter = settleAfter
        return try Box(options: options)
    }

    /// A store shared with device `peer`, which added card x to `level` a minute ago (its log
    /// line, then `peerLines`), and the box on it, having taken x in.
    static func start(_ dir: TemporaryDirectory, x level: String, peerLines: String = "", settleAfter: Int64) throws -> Box {
        dir.write(".leitner/devices/peer/log",
                  SyncDevicesTests.line(SyncDevicesTests.realTime(plus: -60), "add", "x", "-", level) + peerLines)
        dir.writeCard("x", level: level)
        let box = try open(dir, settleAfter: settleAfter)
        _ = try box.status()
        return box
    }

    /// The other machine renamed card x to x-r while this one held a copy of x in another level,
    /// made before the rename: the rename wins, and x is gone once the sync has carried the
    /// rename over. This machine notices the copy as x's only folder when the sync tool deletes
    /// the renamed folder — after the rename, and after lines of its own about x-r — but the copy
    /// was made before it (its line's `made=`).
    @Test func aRenameWinsOverACopyMadeBeforeIt() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Self.start(dir, x: "3", settleAfter: 0)
        defer { box.close() }
        // `cp -a 3/x 1/x` here: a copy beside the card, which no log explains: it waits.
        dir.writeCard("x", level: "1")
        _ = try box.status()
        #expect(dir.levelOnDisk("x") == ["1", "3"])
        usleep(20_000)
        // The other machine renames x to x-r after the copy was made; the sync tool brings the
        // line, makes 3/x-r and deletes 3/x.
        let renamed = DayClock.rfc3339Milliseconds(SyncDevicesTests.realMillis())
        dir.write(".leitner/devices/peer/log", dir.read(".leitner/devices/peer/log")
                  + SyncDevicesTests.line(renamed, "rename", "x", "3", "3", extra: "renamed=x-r"))
        dir.writeCard("x-r", level: "3")
        _ = try box.status()
        dir.removeTree("3/x")
        _ = try box.status()
        _ = try box.status()
        #expect(dir.levelOnDisk("x") == [])
        #expect(dir.levelOnDisk("x-r") == ["3"])
        // The copy's line (served from the moment it was found: its files are the newer) says
        // when the copy was made, before the rename.
        let moved = try #require(dir.logLines.last { $0[1] == "move" && $0[2] == "x" })
        let made = try #require(moved.first { $0.hasPrefix("made=") }.flatMap { DayClock.parseRFC3339(String($0.dropFirst(5))) })
        #expect(made < DayClock.parseRFC3339(renamed)!)
    }

    /// The card a rename leaves behind: this machine held x in two levels (a sync's delivery,
    /// not settled yet) and renamed the copy it served. The other copy is x's only folder now, an
    /// arrival logged when noticed but made before the rename: the rename wins over it.
    @Test func theCopyARenameLeavesBehindIsSettledByTheRename() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Self.start(dir, x: "3", peerLines: SyncDevicesTests.line(SyncDevicesTests.realTime(plus: -50), "grade", "x", "3", "1", "wrong"),
                                 settleAfter: 600_000)
        // The other machine's grade arrives as a copy in 1 beside this machine's x in 3.
        dir.writeCard("x", level: "1")
        _ = try box.status()
        let served = try #require(box.store.level(of: "x"))
        _ = try box.rename(id: "x", to: "x-r")
        _ = try box.status()
        box.close()
        // Settled once the store is quiet.
        let quiet = try Self.open(dir, settleAfter: 0)
        defer { quiet.close() }
        _ = try quiet.status()
        _ = try quiet.status()
        #expect(dir.levelOnDisk("x") == [], "x's other copy outlived the rename")
        #expect(dir.levelOnDisk("x-r") == [served.name])
    }

    /// A hand move made while no daemon ran is logged at the next open, with when it was made
    /// (`made=`, its folder's change time), so that settling ranks it then, not at the open.
    @Test func aHandMoveWhileClosedSaysWhenItWasMade() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Self.start(dir, x: "1", settleAfter: 600_000)
        _ = try box.prepare()
        box.close()
        dir.move("1/x", "5/x")
        let reopened = try Self.open(dir, settleAfter: 600_000)
        defer { reopened.close() }
        let moved = try #require(dir.logLines.last { $0[1] == "move" && $0[2] == "x" })
        #expect(moved[4] == "5")
        let made = try #require(moved.first { $0.hasPrefix("made=") }.flatMap { DayClock.parseRFC3339(String($0.dropFirst(5))) })
        #expect(made <= SyncDevicesTests.realMillis() && made < DayClock.parseRFC3339(moved[0])!)
    }

    /// A move of a card in two levels: this machine moved x 3 → finished, the other machine
    /// 3 → 1 a moment before; after the sync this machine moved the copy it served (1) to 5.
    /// The logs now say where x is (5), and the copy in `finished`, explained only by this
    /// machine's own overtaken line, is settled with it (R18: exactly one level).
    @Test func aMovedCardsOtherCopyIsSettledOnceTheLogsSayWhereItIs() {
        var a = SettlePlannerTests.Log("A"), b = SettlePlannerTests.Log("B")
        a.append(1_000, .add, to: .three)
        a.append(2_000, .move, from: .three, to: .one)
        b.append(3_000, .move, from: .three, to: .finished)
        b.append(4_000, .move, from: .one, to: .five)
        #expect(SettlePlannerTests.decide([.five, .finished], a, b) == .keep(.five))
        // A copy no line ever put there is still waited for: its log may be on its way.
        #expect(SettlePlannerTests.isWait(SettlePlannerTests.decide([.five, .six], a, b)))
    }

    /// A grade or a move into the level that holds the card's other copy (a sync's delivery not
    /// settled yet) moves the copy served, and settles the other: no "File exists".
    @Test func aMoveIntoTheLevelOfTheOtherCopyMovesTheServedOne() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Self.start(dir, x: "2", settleAfter: 600_000)
        defer { box.close() }
        dir.writeCard("x", level: "5", back: "the other back")
        _ = try box.status()
        let served = try #require(box.store.level(of: "x"))
        let other: Level = served == .two ? .five : .two
        let moved = try box.move(id: "x", level: other.name)
        #expect(moved.level == other)
        #expect(dir.levelOnDisk("x") == [other.name])
        // The copy that differed is kept for the person.
        #expect(dir.exists(".leitner/conflicts/x.\(other.name)/back.txt"))
        #expect(try !box.doctor().contains { $0.kind == .duplicateCard })
    }
}

extension SyncDevicesTests {
    /// The real time now, in ms since the epoch.
    static func realMillis() -> Int64 {
        var clock = timespec()
        clock_gettime(CLOCK_REALTIME, &clock)
        return Int64(clock.tv_sec) * 1000 + Int64(clock.tv_nsec) / 1_000_000
    }
}
