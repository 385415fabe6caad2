import Glibc
import Testing
@testable import LeitnerCore
import LeitnerSystem
import LeitnerTestSupport

/// A store made before devices is moved into the devices layout at the first open, once, with a
/// backup, and a migration a crash cut off is finished at the next (docs/store-format.md,
/// "Migration").
@Suite struct StoreMigrationTests {
    /// A store with cards, an open test and two grades, put back into the old layout: every file
    /// of `.leitner/devices/here/` and `.leitner/local.here/` directly in `.leitner/`.
    func oldStore() throws -> (BoxFixture, queue: [String], log: String, days: String) {
        let f = try BoxFixture()
        for id in ["a", "b", "c", "d"] { try f.box.addText(id, id, id: id) }
        _ = try f.box.prepare()
        let order = f.box.queueNow
        _ = try f.box.grade(id: order[0], correct: true, answerMs: 900)
        _ = try f.box.grade(id: order[1], correct: false, answerMs: 900)
        let queue = f.box.queueNow
        f.close()
        let state = f.dir.path + "/.leitner"
        for name in ["log", "days"] where f.dir.exists(".leitner/devices/here/" + name) {
            #expect(rename("\(state)/devices/here/\(name)", "\(state)/\(name)") == 0)
        }
        for name in ["journal", "checkpoint", "test", "tmp", "trash"] where f.dir.exists(TestBox.local + "/" + name) {
            #expect(rename("\(state)/local.here/\(name)", "\(state)/\(name)") == 0)
        }
        f.dir.removeTree(".leitner/local.here")
        f.dir.removeTree(".leitner/devices")
        return (f, queue, f.dir.read(".leitner/log"), f.dir.read(".leitner/days"))
    }

    @Test func anOldStoreIsMovedIntoTheDevicesLayoutWithABackup() throws {
        let (f, queue, log, _) = try oldStore()
        #expect(log.contains("\tgrade\t"))
        try f.reopen()
        for name in ["log", "days", "journal", "checkpoint", "test", "tmp", "trash", "lock"] {
            #expect(!f.dir.exists(".leitner/" + name), "\(name) left in .leitner/")
        }
        #expect(f.dir.read(TestBox.log).hasPrefix(log), "the log kept, byte for byte")
        #expect(f.dir.read(".leitner/backup-before-devices.here/log") == log)
        #expect(f.dir.read(".leitner/devices/here/migrated") == "\(log.utf8.count)\n", "the history from before devices")
        #expect(f.dir.exists(TestBox.local + "/test"))
        #expect(f.box.queueNow == queue, "the open test goes on where it was")
        #expect(try f.box.status().test.passed == 1)
        #expect(try f.box.log(since: nil, limit: nil).filter { $0.event == .grade }.count == 2)
    }

    @Test func aMigrationIsDoneOnce() throws {
        let (f, _, _, _) = try oldStore()
        try f.reopen()
        _ = try f.box.grade(id: f.box.queueNow[0], correct: true, answerMs: 500)
        let log = f.dir.read(TestBox.log)
        // An older leitner on another machine still writes the old files, and a sync brings them.
        f.dir.write(".leitner/log", "2026-03-01T10:00:00+00:00\tgrade\tzz\t1\t2\tcorrect\t100\n")
        try f.reopen()
        #expect(f.dir.read(TestBox.log) == log, "its own log untouched")
        #expect(f.dir.exists(".leitner/log"), "the stranger's file left alone")
    }

    @Test(arguments: [false, true])
    func aMigrationCutOffIsFinished(devicePart: Bool) throws {
        let (f, queue, log, days) = try oldStore()
        // A crash after some files moved: the journal in the private staging directory, and
        // (devicePart) the log already in the device's staging directory.
        let state = f.dir.path + "/.leitner"
        f.dir.makeDirectory(".leitner/local.here.migrating")
        #expect(rename("\(state)/journal", "\(state)/local.here.migrating/journal") == 0)
        if devicePart {
            f.dir.makeDirectory(".leitner/devices")
            f.dir.makeDirectory(".leitner/devices/here.migrating")
            #expect(rename("\(state)/log", "\(state)/devices/here.migrating/log") == 0)
        }
        try f.reopen()
        #expect(!f.dir.exists(".leitner/local.here.migrating") && !f.dir.exists(".leitner/devices/here.migrating"))
        #expect(f.dir.read(TestBox.log).hasPrefix(log))
        #expect(f.dir.read(TestBox.days) == days)
        #expect(f.box.queueNow == queue)
    }

    @Test func anOldDaemonStillRunningHoldsTheMigrationOff() throws {
        let (f, _, _, _) = try oldStore()
        f.dir.write(".leitner/lock", "4242\n")
        let held = try FileDescriptor.open(f.dir.path + "/.leitner/lock", flags: O_RDWR)
        defer { held.close() }
        #expect(try held.tryLockExclusive())
        // flock locks are per open file: a second open of the file, as another process's, fails.
        #expect(throws: StoreLockedError.self) { try f.reopen() }
        #expect(f.dir.exists(".leitner/log"), "nothing moved")
    }
}
