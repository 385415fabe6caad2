import Glibc
import Testing
@testable import LeitnerCore
import LeitnerSystem
import LeitnerTestSupport

/// Settling read apart (`BoxOptions.settlesApartFrom`, `SettleRead`): the pass's reading of every
/// device's log is done on a thread of its own while requests go on; the request that finds it
/// done settles, reading only the lines appended since, and a log replaced meanwhile is read again.
@Suite struct SettleReadTests {
    /// A box that settles at once and reads the logs apart, with card x moved to level 4 here.
    static func open(_ dir: TemporaryDirectory, apartFrom: Int = 0) throws -> Box {
        var options = BoxOptions(storePath: dir.path, device: TestBox.device, clock: ManualClock("2026-03-02"))
        options.settleAfter = 0
        options.settlesApartFrom = apartFrom
        let box = try Box(options: options)
        try box.addText("x", "ex", id: "x", level: "3")
        _ = try box.move(id: "x", level: "4")
        return box
    }

    /// The other device deleted x, after its move here when `later` (its clock ahead of the files').
    static func deleted(later: Bool) -> String {
        SyncDevicesTests.line(later ? SyncDevicesTests.realTime(plus: 600) : "2026-03-01T08:00:00Z", "delete", "x", "3", "-")
    }

    /// Waits until the read under way, if any, is done.
    static func awaitRead(_ box: Box) throws {
        let deadline = RealTime.nanoseconds + 20_000_000_000
        while let read = box.sync.settleRead, try read.events() == nil, RealTime.nanoseconds < deadline { usleep(1000) }
    }

    @Test func theRequestThatFindsTheReadDoneSettles() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Self.open(dir)
        defer { box.close() }
        dir.write(".leitner/devices/peer/log", Self.deleted(later: true))
        _ = try box.status()
        #expect(dir.levelOnDisk("x") == ["4"], "the request does not wait for the logs to be read")
        let read = try #require(box.sync.settleRead)
        #expect(read.ids == ["x"])
        try Self.awaitRead(box)
        _ = try box.status()
        #expect(dir.levelOnDisk("x") == [])
        #expect(box.sync.settleRead == nil)
        let deleted = try box.log(since: nil, limit: nil).filter { $0.event == .delete && $0.device == "here" }
        #expect(deleted.map(\.id) == ["x"] && deleted.first?.origin == "sync")
    }

    @Test func logsShorterThanTheThresholdAreReadInTheCall() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Self.open(dir, apartFrom: BoxOptions.settleApartFrom)
        defer { box.close() }
        dir.write(".leitner/devices/peer/log", Self.deleted(later: true))
        _ = try box.status()
        #expect(dir.levelOnDisk("x") == [])
        #expect(box.sync.settleRead == nil)
    }

    /// A box whose read of the logs, `peerLog` the other device's, is done and not yet taken.
    static func readDone(_ dir: TemporaryDirectory, peerLog: String) throws -> (Box, SettleRead) {
        let box = try open(dir)
        dir.write(".leitner/devices/peer/log", peerLog)
        _ = try box.status()
        try awaitRead(box)
        return (box, try #require(box.sync.settleRead))
    }

    @Test func linesAppendedAfterTheReadAreReadByThePass() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // An old delete first: x stays, moved here since.
        let (box, _) = try Self.readDone(dir, peerLog: Self.deleted(later: false))
        defer { box.close() }
        // Then the other device deletes it again, after the move: the pass that takes the read
        // reads that line, and settles in the same request without reading the logs again.
        dir.write(".leitner/devices/peer/log", Self.deleted(later: false) + Self.deleted(later: true))
        _ = try box.status()
        #expect(dir.levelOnDisk("x") == [])
        #expect(box.sync.settleRead == nil)
    }

    @Test func aLogReplacedByAnotherHistoryMeanwhileIsReadAgain() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (box, first) = try Self.readDone(dir, peerLog: Self.deleted(later: true))
        defer { box.close() }
        // Another history in its place (a backup put back): what the read found is not it.
        dir.write(".leitner/devices/peer/log", Self.deleted(later: false))
        _ = try box.status()
        #expect(dir.levelOnDisk("x") == ["4"])
        let second = try #require(box.sync.settleRead)
        #expect(second !== first)
        try Self.awaitRead(box)
        _ = try box.status()
        #expect(dir.levelOnDisk("x") == ["4"], "the log as it is now deleted x before its move here")
        #expect(box.sync.settleRead == nil)
    }

    /// A box that looks through the other devices' logs apart (`BoxOptions.looksApartFrom`,
    /// `PeerLook`) and settles in the call, with card x moved to level 4 here.
    static func openLookingApart(_ dir: TemporaryDirectory) throws -> Box {
        var options = BoxOptions(storePath: dir.path, device: TestBox.device, clock: ManualClock("2026-03-02"))
        options.settleAfter = 0
        options.looksApartFrom = 0
        let box = try Box(options: options)
        try box.addText("x", "ex", id: "x", level: "3")
        _ = try box.move(id: "x", level: "4")
        return box
    }

    /// Waits until the look through `peer`'s log, if one is under way, is done.
    static func awaitLook(_ box: Box) throws {
        let deadline = RealTime.nanoseconds + 20_000_000_000
        while let look = box.sync.peerLooks["peer"], try look.ids() == nil, RealTime.nanoseconds < deadline { usleep(1000) }
    }

    /// A new machine's clone has no marks of how far the other devices' logs were looked through
    /// (`PeerReadMarks`), and its first request looked through their whole history before it
    /// answered. Now the look is made apart: the request answers with the cards as they are, and
    /// the one that finds the look done notes the cards and settles them as before.
    @Test func anotherDevicesLogIsLookedThroughApart() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Self.openLookingApart(dir)
        defer { box.close() }
        dir.write(".leitner/devices/peer/log", Self.deleted(later: true))
        _ = try box.status()
        #expect(dir.levelOnDisk("x") == ["4"], "the request does not wait for the other device's log to be looked through")
        #expect(box.sync.peerLooks["peer"] != nil)
        try Self.awaitLook(box)
        _ = try box.status()
        #expect(box.sync.peerLooks.isEmpty)
        #expect(dir.levelOnDisk("x") == [])
        let deleted = try box.log(since: nil, limit: nil).filter { $0.event == .delete && $0.device == "here" }
        #expect(deleted.map(\.id) == ["x"] && deleted.first?.origin == "sync")
    }

    /// A log replaced by another history while it was looked through is looked through again.
    @Test func aLogReplacedWhileLookedThroughIsLookedThroughAgain() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Self.openLookingApart(dir)
        defer { box.close() }
        dir.write(".leitner/devices/peer/log", Self.deleted(later: false) + Self.deleted(later: false))
        _ = try box.status()
        let first = try #require(box.sync.peerLooks["peer"])
        try Self.awaitLook(box)
        // Another history in its place, longer: what the look found is not it.
        dir.write(".leitner/devices/peer/log", Self.deleted(later: true) + Self.deleted(later: true) + Self.deleted(later: true))
        _ = try box.status()
        #expect(dir.levelOnDisk("x") == ["4"])
        let second = try #require(box.sync.peerLooks["peer"])
        #expect(second !== first && second.from == 0)
        try Self.awaitLook(box)
        _ = try box.status()
        #expect(dir.levelOnDisk("x") == [], "the log as it is now deleted x after its move here")
    }
}
