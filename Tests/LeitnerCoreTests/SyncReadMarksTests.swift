import Testing
@testable import LeitnerCore
import LeitnerSystem
import LeitnerTestSupport

/// How far another device's log has been looked through for cards to settle, kept across
/// restarts (`PeerReadMarks`, `.leitner/local.DEVICE/peers-read`): a restart does not make every
/// card of a synced machine's history a candidate again, and a log replaced by another history
/// is read from its start.
@Suite struct SyncReadMarksTests {
    static func history(_ ids: [String]) -> String {
        ids.enumerated().map { index, id in
            SyncDevicesTests.line("2026-03-01T08:00:\(10 + index)Z", "grade", id, "3", "3", "wrong")
        }.joined()
    }

    /// A store with cards a, b, c in level 3, a peer's log naming them, and one pass of the box
    /// that settled at once (nothing to do) and kept its mark.
    static func settled() throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        let box = try SyncDevicesTests.open(dir, clock: ManualClock("2026-03-02"))
        for id in ["a", "b", "c"] { try box.addText(id, id + "!", id: id, level: "3") }
        dir.write(".leitner/devices/peer/log", history(["a", "b", "c"]))
        _ = try box.status()
        #expect(box.sync.settlePending.isEmpty)
        box.close()
        return dir
    }

    /// The box opened again on `dir`, waiting an hour for quiet: what it noted stays pending.
    static func reopened(_ dir: TemporaryDirectory) throws -> Box {
        let box = try SyncDevicesTests.open(dir, clock: ManualClock("2026-03-02"), settleAfter: 3_600_000)
        _ = try box.status()
        return box
    }

    @Test func aRestartGoesOnFromTheMark() throws {
        let dir = try Self.settled()
        defer { dir.remove() }
        let marks = PeerReadMarks.load(in: try FileDescriptor.openDirectory(dir.path + "/.leitner/local." + TestBox.device))
        #expect(marks.marks["peer"]?.offset == Self.history(["a", "b", "c"]).utf8.count)
        let box = try Self.reopened(dir)
        defer { box.close() }
        #expect(box.sync.settlePending.isEmpty)
        // Lines that come later are noted as before.
        dir.write(".leitner/devices/peer/log", Self.history(["a", "b", "c", "b"]))
        _ = try box.status()
        #expect(box.sync.settlePending == ["b"])
    }

    @Test func aLogReplacedByAnotherHistoryIsReadFromItsStart() throws {
        let dir = try Self.settled()
        defer { dir.remove() }
        // As long as before, and longer, but not what the mark was made after.
        dir.write(".leitner/devices/peer/log", Self.history(["c", "a", "b", "a"]))
        let box = try Self.reopened(dir)
        defer { box.close() }
        #expect(box.sync.settlePending == ["a", "b", "c"])
    }

    @Test func withoutTheFileEveryLineIsNotedAgain() throws {
        let dir = try Self.settled()
        defer { dir.remove() }
        dir.removeTree(".leitner/local." + TestBox.device + "/" + PeerReadMarks.fileName)
        let box = try Self.reopened(dir)
        defer { box.close() }
        #expect(box.sync.settlePending == ["a", "b", "c"])
    }

    @Test func whileTheStoreIsNotQuietNoRequestLooksAtTheCandidates() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try SyncDevicesTests.open(dir, clock: ManualClock("2026-03-02"), settleAfter: 3_600_000)
        defer { box.close() }
        try box.addText("a", "a!", id: "a", level: "3")
        dir.write(".leitner/devices/peer/log", Self.history(["a"]))
        _ = try box.status()
        let notBefore = try #require(box.sync.quietNotBefore)
        #expect(notBefore > RealTime.nanoseconds + 3_000_000_000_000)
        _ = try box.status()
        #expect(box.sync.quietNotBefore == notBefore)
        #expect(box.sync.settlePending == ["a"])
    }
}
