import Glibc
import Testing
@testable import LeitnerCore
import LeitnerSystem
import LeitnerTestSupport

/// A box whose store another device shares (docs/sync.md): this device reads the other's files in
/// `.leitner/devices/peer/`, written here by hand as a sync tool would bring them, and settles a
/// card a sync left in two levels.
@Suite struct SyncDevicesTests {
    /// A box on `dir` that settles at once (`settleAfter` 0).
    static func open(_ dir: TemporaryDirectory, clock: ManualClock, settleAfter: Int64 = 0) throws -> Box {
        var options = BoxOptions(storePath: dir.path, device: TestBox.device, clock: clock)
        options.settleAfter = settleAfter
        return try Box(options: options)
    }

    /// A log line in the format of docs/store-format.md.
    static func line(_ time: String, _ event: String, _ id: String, _ from: String, _ to: String,
                     _ correct: String = "-", extra: String = "") -> String {
        "\(time)\t\(event)\t\(id)\t\(from)\t\(to)\t\(correct)\t-\(extra.isEmpty ? "" : "\t" + extra)\n"
    }

    /// An RFC 3339 time `seconds` from the real now: the settling rules compare the logs' times
    /// with the files' real modification times.
    static func realTime(plus seconds: Int64) -> String {
        var clock = timespec()
        clock_gettime(CLOCK_REALTIME, &clock)
        return DayClock.rfc3339((Int64(clock.tv_sec) + seconds) * 1000)
    }

    @Test func anotherDevicesDaysJoinTheDayRecord() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let clock = ManualClock("2026-03-05")
        dir.write(".leitner/devices/here/days", "2026-03-01 completed\n2026-03-02 skipped\n")
        dir.write(".leitner/devices/peer/days", "2026-03-02 completed\n2026-03-03 completed\n2026-03-04 completed\n")
        let box = try SyncDevicesTests.open(dir, clock: clock)
        defer { box.close() }
        // Four distinct dates: position 4; 03-02 completed (completed beats skipped).
        #expect(box.days.position == 4)
        #expect(box.days.state(of: LogicalDate("2026-03-02")!) == .completed)
        let calendar = try box.calendar(from: "2026-03-01", to: "2026-03-04")
        #expect(calendar.map(\.state) == [.completed, .completed, .completed, .completed])
        // The other device completes today: this one shows today's test completed, and its own
        // day record is not written for it.
        dir.write(".leitner/devices/peer/days", "2026-03-02 completed\n2026-03-03 completed\n2026-03-04 completed\n2026-03-05 completed\n")
        #expect(try box.status().test.state == .completed)
        #expect(dir.read(TestBox.days) == "2026-03-01 completed\n2026-03-02 skipped\n")
    }

    @Test func everyDevicesLogIsReadInTimeOrder() throws {
        let f = try BoxFixture("2026-03-02")
        try f.box.addText("hola", "hi", id: "hola")
        f.dir.write(".leitner/devices/peer/log",
                    SyncDevicesTests.line("2026-03-01T09:00:00Z", "add", "perro", "-", "1")
                    + SyncDevicesTests.line("2026-03-01T10:00:00Z", "grade", "perro", "1", "2", "correct")
                    + SyncDevicesTests.line("2026-03-03T09:00:00Z", "move", "perro", "2", "3"))
        let entries = try f.box.log(since: nil, limit: nil)
        #expect(entries.map(\.id) == ["perro", "perro", "hola", "perro"])
        #expect(entries.map(\.device) == ["peer", "peer", "here", "peer"])
        #expect(try f.box.log(since: nil, limit: 1).map(\.device) == ["peer"])
        let stats = try f.box.statistics(window: 30, leeches: 0)
        #expect(stats.heatmap.first { $0.date == LogicalDate("2026-03-01")! }?.reviews == 1)
    }

    /// Card x in level 3 on both devices; here it moved to 4, the other device moved it to 1
    /// later; the sync left it in both levels.
    func cardInTwoLevels(sameContent: Bool, peerLater: Bool) throws -> (TemporaryDirectory, Box) {
        let dir = TemporaryDirectory()
        let clock = ManualClock("2026-03-02")
        let box = try SyncDevicesTests.open(dir, clock: clock)
        try box.addText("x", "ex", id: "x", level: "3")
        _ = try box.move(id: "x", level: "4")
        let ours = try #require(box.log(since: nil, limit: 1).first)
        let theirs = ours.time + (peerLater ? 60_000 : -60_000)
        dir.write(".leitner/devices/peer/log",
                  SyncDevicesTests.line(DayClock.rfc3339(ours.time - 120_000), "add", "x", "-", "3")
                  + SyncDevicesTests.line(DayClock.rfc3339(theirs), "move", "x", "3", "1"))
        dir.writeCard("x", level: "1", front: "x", back: sameContent ? "ex" : "ex, edited there")
        // The sides' names as leitner writes them.
        dir.removeFile("1/x/front.txt")
        dir.removeFile("1/x/back.txt")
        dir.write("1/x/front.txt", "x")
        dir.write("1/x/back.txt", sameContent ? "ex" : "ex, edited there")
        return (dir, box)
    }

    @Test(arguments: [true, false])
    func aCardInTwoLevelsKeepsTheNewerEventsLevel(peerLater: Bool) throws {
        let (dir, box) = try cardInTwoLevels(sameContent: true, peerLater: peerLater)
        defer { box.close(); dir.remove() }
        _ = try box.status()
        let kept = peerLater ? "1" : "4"
        #expect(dir.levelOnDisk("x") == [kept])
        #expect(try box.show(id: "x").level.name == kept)
        #expect(!dir.exists(".leitner/conflicts"), "identical copies: the other is removed")
        #expect(try box.doctor().filter { $0.kind == .duplicateCard || $0.kind == .syncConflict }.isEmpty)
    }

    @Test func aDifferingCopyIsSetAsideAndReported() throws {
        let (dir, box) = try cardInTwoLevels(sameContent: false, peerLater: false)
        defer { box.close(); dir.remove() }
        _ = try box.status()
        #expect(dir.levelOnDisk("x") == ["4"])
        #expect(dir.read(".leitner/conflicts/x.1/back.txt") == "ex, edited there")
        let problems = try box.doctor().filter { $0.kind == .syncConflict }
        #expect(problems.map(\.path) == [dir.path + "/.leitner/conflicts/x.1"])
        #expect(try box.status().problems >= 1)
    }

    /// R28: a reverse card (a directory holding `reverse-of` and no sides) is a whole card to
    /// the settling, not a part of one: a sync that left it in two levels settles as any card's.
    @Test(arguments: [true, false])
    func aReverseCardInTwoLevelsSettlesAsAnyCard(peerLater: Bool) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try SyncDevicesTests.open(dir, clock: ManualClock("2026-03-02"))
        defer { box.close() }
        try box.addText("x", "ex", id: "x", level: "3")
        _ = try box.addReverse(of: "x", reverseID: nil, level: "3")
        _ = try box.move(id: "x.rev", level: "4")
        let ours = try #require(box.log(since: nil, limit: 1).first)
        let theirs = ours.time + (peerLater ? 60_000 : -60_000)
        dir.write(".leitner/devices/peer/log",
                  SyncDevicesTests.line(DayClock.rfc3339(ours.time - 120_000), "add", "x.rev", "-", "3")
                  + SyncDevicesTests.line(DayClock.rfc3339(theirs), "move", "x.rev", "3", "1"))
        dir.write("1/x.rev/reverse-of", "x\n")
        _ = try box.status()
        let kept = peerLater ? "1" : "4"
        #expect(dir.levelOnDisk("x.rev") == [kept])
        let card = try box.show(id: "x.rev")
        #expect(card.level.name == kept && card.reverseOf == "x" && card.front.text == "ex")
        #expect(!dir.exists(".leitner/conflicts"), "identical copies: the other is removed")
        #expect(try box.doctor().isEmpty)
    }

    @Test func theStoreMustBeQuietFirst() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try SyncDevicesTests.open(dir, clock: ManualClock("2026-03-02"), settleAfter: 3_600_000)
        defer { box.close() }
        try box.addText("x", "ex", id: "x", level: "3")
        dir.write(".leitner/devices/peer/log", SyncDevicesTests.line(SyncDevicesTests.realTime(plus: 60), "move", "x", "3", "1"))
        dir.writeCard("x", level: "1", front: "f", back: "b")
        _ = try box.status()
        #expect(dir.levelOnDisk("x").count == 2, "a sync may still be under way: both copies stay")
    }

    @Test func aCardDeletedThereAfterItsLastMoveIsDeletedHere() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try SyncDevicesTests.open(dir, clock: ManualClock("2026-03-02"))
        defer { box.close() }
        try box.addText("x", "ex", id: "x", level: "3")
        try box.addText("y", "why", id: "y", level: "3")
        _ = try box.move(id: "x", level: "4")
        // The other device deleted x after (its clock later than the files' times), and y
        // before y moved here.
        dir.write(".leitner/devices/peer/log",
                  SyncDevicesTests.line(SyncDevicesTests.realTime(plus: 600), "delete", "x", "3", "-")
                  + SyncDevicesTests.line("2026-03-01T08:00:00Z", "delete", "y", "3", "-"))
        _ = try box.move(id: "y", level: "5")
        _ = try box.status()
        #expect(dir.levelOnDisk("x") == [])
        #expect(dir.levelOnDisk("y") == ["5"])
        let deleted = try box.log(since: nil, limit: nil).filter { $0.event == .delete && $0.device == "here" }
        #expect(deleted.map(\.id) == ["x"] && deleted.first?.origin == "sync")
    }
}

/// R19 whatever the device: a second box on the store under another device id is refused too.
@Suite struct StoreLockAcrossDevicesTests {
    @Test func aSecondDeviceOnTheSameStoreIsRefusedNamingTheHolder() throws {
        let f = try BoxFixture()
        #expect {
            try Box(options: BoxOptions(storePath: f.dir.path, device: "other", clock: f.clock))
        } throws: { error in
            (error as? StoreLockedError)?.pid == getpid()
        }
        #expect(!f.dir.exists(".leitner/local.other/lock") || f.dir.read(".leitner/local.other/lock").isEmpty)
    }
}
