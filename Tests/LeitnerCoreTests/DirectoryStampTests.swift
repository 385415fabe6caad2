import Glibc
import LeitnerSystem
import LeitnerTestSupport
import Testing
@testable import LeitnerCore

/// A listing is kept against a directory's stamp only once the stamp is older than the kernel
/// clock's ticks: a second change in the tick of the first would leave the same stamp.
@Suite struct DirectoryStampTests {
    @Test func aStampIsTrustedOnlyOnceItsLastChangeIsASecondOld() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let fd = try FileDescriptor.openDirectory(directory.path)
        defer { fd.close() }
        let stamp = try #require(DirectoryStamp(fd))
        let last = max(stamp.modified, stamp.changed)
        #expect(!stamp.isSettled())
        #expect(!stamp.isSettled(at: last + DirectoryStamp.racyWindow - 1))
        #expect(stamp.isSettled(at: last + DirectoryStamp.racyWindow))
        // A clock set back makes the stamp young, never old.
        #expect(!stamp.isSettled(at: last - 5_000_000_000))
    }

    @Test func anEntryThatComesChangesTheStampOnceATickHasPassed() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let fd = try FileDescriptor.openDirectory(directory.path)
        defer { fd.close() }
        let before = try #require(DirectoryStamp(fd))
        // Past any kernel clock tick (at most 10 ms), so that the change shows in the stamp.
        usleep(20_000)
        directory.write("peer/log", "")
        let after = try #require(DirectoryStamp(fd))
        #expect(after != before)
    }
}
