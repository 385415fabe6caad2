import Testing
@testable import LeitnerCore
@testable import LeitnerSystem
import LeitnerTestSupport

/// Group commit in the box (docs/daemon.md, "Group commit"): with `BoxOptions.groupCommit` a
/// change's journal record is written but not synced, and `commitPoint` names what a reply must
/// wait for; one flush covers every record written before it.
@Suite(.serialized) struct GroupCommitTests {
    func open(_ dir: TemporaryDirectory, groupCommit: Bool) throws -> Box {
        var options = BoxOptions(storePath: dir.path, device: TestBox.device, clock: ManualClock("2026-06-01"))
        options.groupCommit = groupCommit
        return try Box(options: options)
    }

    @Test func oneFlushCoversEveryRecordWrittenBeforeIt() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try open(dir, groupCommit: true)
        defer { box.close() }
        #expect(box.commitPoint == nil)
        try box.addText("uno", "one")
        let first = try #require(box.commitPoint)
        #expect(!first.isDurable)
        try box.addText("dos", "two")
        _ = try box.prepare()
        let second = try #require(box.commitPoint)
        #expect(second.number > first.number)
        // A reader made now waits for the same record: it may show those changes.
        _ = try box.status()
        #expect(box.commitPoint?.number == second.number)
        try second.file.flush()
        #expect(first.isDurable && second.isDurable)
        #expect(box.commitPoint == nil)
    }

    @Test func withoutGroupCommitEveryChangeIsDurableWhenItReturns() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try open(dir, groupCommit: false)
        defer { box.close() }
        try box.addText("uno", "one")
        _ = try box.prepare()
        _ = try box.grade(id: "uno", correct: true, answerMs: 3)
        #expect(box.commitPoint == nil)
    }

    /// A record written but not flushed survives a kill (the page cache keeps it): the next open
    /// finds the grade whole, as R18 asks.
    @Test func anUnflushedRecordIsFinishedAfterAKill() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try open(dir, groupCommit: true)
        try box.addText("uno", "one")
        _ = try box.prepare()
        _ = try box.grade(id: "uno", correct: true, answerMs: 3)
        #expect(box.commitPoint != nil)
        CrashPoint.arm(after: 1)
        box.close() // the checkpoint's flush fails: nothing more is written, as after kill -9
        CrashPoint.disarm()
        let reopened = try open(dir, groupCommit: true)
        defer { reopened.close() }
        #expect(dir.levelOnDisk("uno") == ["2"])
        #expect(dir.logLines.filter { $0[1] == "grade" }.count == 1)
    }

    /// After a failed flush nothing written is known durable (a second fdatasync may succeed with
    /// the data lost): every later change is refused, naming the journal.
    @Test func aFailedFlushRefusesLaterChanges() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try open(dir, groupCommit: true)
        defer { box.close() }
        try box.addText("uno", "one")
        let point = try #require(box.commitPoint)
        CrashPoint.arm(after: 1)
        #expect(throws: Errno.self) { try point.file.flush() }
        CrashPoint.disarm()
        #expect(throws: Errno.self) { try point.file.flush() }
        expectBoxError({ try box.addText("dos", "two") }) {
            if case .storeFailure(let path, _, _, _) = $0 { return path.hasSuffix("/.leitner/local.here/journal") }
            return false
        }
    }
}
