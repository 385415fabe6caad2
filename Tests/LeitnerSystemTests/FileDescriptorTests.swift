import Glibc
import Synchronization
import Testing
@testable import LeitnerSystem
import LeitnerTestSupport

/// `FileDescriptor` is the store's only way to files: what it reads and writes must be whole,
/// and its errors the kernel's own, for the store to name them (docs/store-format.md).
@Suite struct FileDescriptorTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Writes `content` to a new file `name` in `dir` through the type under test.
    func make(_ dir: TemporaryDirectory, _ name: String, _ content: [UInt8]) throws {
        let fd = try FileDescriptor.open(dir.path + "/" + name, flags: O_WRONLY | O_CREAT | O_TRUNC)
        defer { fd.close() }
        try fd.writeAll(content)
    }

    /// The file's bytes, read without the type under test.
    func contents(_ path: String) -> [UInt8] {
        let fd = Glibc.open(path, O_RDONLY)
        guard fd >= 0 else { return [] }
        defer { Glibc.close(fd) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return result }
            result += buffer[..<n]
        }
    }

    func pipePair() -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [0, 0]
        precondition(pipe(&ends) == 0, "pipe failed")
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    // MARK: Round trips

    @Test func writtenBytesReadBack() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let data = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        try make(dir, "f", data)
        #expect(contents(dir.path + "/f") == data)

        let fd = try FileDescriptor.open(dir.path + "/f", flags: O_RDONLY)
        defer { fd.close() }
        #expect(try fd.size() == data.count)
        #expect(try fd.readAll() == data, "more than one 64 KiB read")
        #expect(try fd.read(upTo: 10).isEmpty, "end of file")
    }

    @Test func readUpToStopsAtTheCountAndAtTheEnd() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try make(dir, "f", bytes("abcdefgh"))
        let fd = try FileDescriptor.open(dir.path + "/f", flags: O_RDONLY)
        defer { fd.close() }
        #expect(try fd.read(upTo: 3) == bytes("abc"))
        #expect(try fd.read(upTo: 100) == bytes("defgh"))
        #expect(try fd.read(upTo: 100) == [])
    }

    @Test func anEmptyFileReadsAsNothing() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try make(dir, "empty", [])
        let fd = try FileDescriptor.open(dir.path + "/empty", flags: O_RDONLY)
        defer { fd.close() }
        #expect(try fd.size() == 0)
        #expect(try fd.readAll() == [])
        #expect(try fd.read(at: 0, upTo: 16) == [])
    }

    /// A relative path is taken from the directory given, not from the working directory.
    @Test func openRelativeToADirectory() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.write("sub/f", "inside")
        let top = try FileDescriptor.openDirectory(dir.path)
        defer { top.close() }
        let sub = try FileDescriptor.openDirectory("sub", relativeTo: top)
        defer { sub.close() }
        let fd = try FileDescriptor.open("f", relativeTo: sub, flags: O_RDONLY)
        defer { fd.close() }
        #expect(try fd.readAll() == bytes("inside"))
        let made = try FileDescriptor.open("g", relativeTo: sub, flags: O_WRONLY | O_CREAT | O_EXCL)
        try made.writeAll(bytes("new"))
        made.close()
        #expect(contents(dir.path + "/sub/g") == bytes("new"))
    }

    /// No descriptor may leak into a child process (the daemon's `TestReady=` hook, say): a hook
    /// holding the store's lock open would keep the next daemon out.
    @Test func descriptorsAreCloseOnExec() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let file = try FileDescriptor.open(dir.path + "/f", flags: O_WRONLY | O_CREAT)
        defer { file.close() }
        let directory = try FileDescriptor.openDirectory(dir.path)
        defer { directory.close() }
        #expect(fcntl(file.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(directory.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test func aNewFileGetsTheModeGiven() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let fd = try FileDescriptor.open(dir.path + "/secret", flags: O_WRONLY | O_CREAT, mode: 0o600)
        fd.close()
        var st = stat()
        #expect(stat(dir.path + "/secret", &st) == 0)
        #expect(st.st_mode & 0o777 == 0o600)
    }

    // MARK: Errors

    @Test func aMissingFileIsNoEntry() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(throws: Errno.noEntry) { try FileDescriptor.open(dir.path + "/missing", flags: O_RDONLY) }
        #expect(throws: Errno.noEntry) { try FileDescriptor.openDirectory(dir.path + "/missing") }
        #expect(!dir.exists("missing"), "a failed open makes nothing")
    }

    @Test func writingADirectoryIsIsDirectory() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(throws: Errno.isDirectory) { try FileDescriptor.open(dir.path, flags: O_WRONLY) }
        #expect(throws: Errno.isDirectory) { try FileDescriptor.open(dir.path, flags: O_RDWR | O_APPEND | O_CREAT) }
    }

    @Test func aFileIsNotADirectory() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.write("f", "x")
        #expect(throws: Errno.notDirectory) { try FileDescriptor.openDirectory(dir.path + "/f") }
        #expect(throws: Errno.notDirectory) { try FileDescriptor.open(dir.path + "/f/below", flags: O_RDONLY) }
    }

    @Test func exclusiveCreationOfAnExistingFileIsExists() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.write("f", "kept")
        #expect(throws: Errno.exists) {
            try FileDescriptor.open(dir.path + "/f", flags: O_WRONLY | O_CREAT | O_EXCL)
        }
        #expect(contents(dir.path + "/f") == bytes("kept"))
    }

    /// docs/rules.md, R22: a link in the store is never followed. With O_NOFOLLOW the kernel
    /// answers ELOOP for a link; asked for a directory as well (O_DIRECTORY), it answers ENOTDIR.
    @Test func aLinkIsNotFollowedWithNoFollow() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.write("target", "secret")
        mkdir(dir.path + "/realdir", 0o755)
        #expect(symlink(dir.path + "/target", dir.path + "/link") == 0)
        #expect(symlink(dir.path + "/realdir", dir.path + "/dirlink") == 0)

        #expect(throws: Errno.tooManyLinks) {
            try FileDescriptor.open(dir.path + "/link", flags: O_RDONLY | O_NOFOLLOW)
        }
        #expect(throws: Errno.tooManyLinks) {
            try FileDescriptor.open(dir.path + "/dirlink", flags: O_RDONLY | O_NOFOLLOW)
        }
        #expect(throws: Errno.notDirectory) { try FileDescriptor.openDirectory(dir.path + "/dirlink") }
        // Without O_NOFOLLOW the same link is read through: the flag is what refuses it.
        let followed = try FileDescriptor.open(dir.path + "/link", flags: O_RDONLY)
        defer { followed.close() }
        #expect(try followed.readAll() == bytes("secret"))
    }

    /// The file linked through its descriptor is the one opened, under its new name.
    @Test func anOpenFileIsLinkedByItsDescriptor() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.write("a", "picture")
        let file = try FileDescriptor.open(dir.path + "/a", flags: O_RDONLY)
        defer { file.close() }
        #expect(rename(dir.path + "/a", dir.path + "/moved") == 0)
        dir.write("a", "another")
        let directory = try FileDescriptor.openDirectory(dir.path)
        defer { directory.close() }
        try FileSystem.link(file, as: "b", in: directory)
        #expect(contents(dir.path + "/b") == bytes("picture"))
        var linked = stat(), moved = stat()
        #expect(stat(dir.path + "/b", &linked) == 0 && stat(dir.path + "/moved", &moved) == 0)
        #expect(linked.st_ino == moved.st_ino && linked.st_nlink == 2)
    }

    /// The error names the reason only; the caller adds the path (docs/store-format.md:
    /// `StoreFailure` names the path and the reason).
    @Test func theErrorsTextIsTheReason() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        do {
            _ = try FileDescriptor.open(dir.path + "/missing", flags: O_RDONLY)
            Issue.record("opened a missing file")
        } catch {
            #expect("\(error)" == "No such file or directory")
        }
    }

    // MARK: Positioned reads and writes

    @Test func readAtTakesTheRangeAndLeavesTheOffset() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try make(dir, "f", bytes("0123456789"))
        let fd = try FileDescriptor.open(dir.path + "/f", flags: O_RDONLY)
        defer { fd.close() }
        #expect(try fd.read(at: 3, upTo: 4) == bytes("3456"))
        #expect(try fd.read(at: 8, upTo: 100) == bytes("89"), "fewer only at the end")
        #expect(try fd.read(at: 10, upTo: 5) == [])
        #expect(try fd.read(at: 50, upTo: 5) == [], "past the end")
        #expect(try fd.read(at: 0, upTo: 0) == [])
        #expect(try fd.read(upTo: 2) == bytes("01"), "the file offset did not move")
    }

    /// The store reads the log in pieces of 1 MiB: a range of several MiB from the middle is exact.
    @Test func readAtALargeRange() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let data = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 / 7) }
        try make(dir, "big", data)
        let fd = try FileDescriptor.open(dir.path + "/big", flags: O_RDONLY)
        defer { fd.close() }
        let middle = try fd.read(at: 1_000_001, upTo: 2 << 20)
        #expect(middle.count == 2 << 20)
        #expect(middle == Array(data[1_000_001..<(1_000_001 + (2 << 20))]))
    }

    @Test func writeAtOverwritesInPlaceAndLeavesTheOffset() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try make(dir, "f", bytes("aaaaaaaa"))
        let fd = try FileDescriptor.open(dir.path + "/f", flags: O_RDWR)
        defer { fd.close() }
        try fd.writeAll(bytes("XY"), at: 3)
        try fd.writeAll(bytes("end"), at: 8)
        #expect(contents(dir.path + "/f") == bytes("aaaXYaaaend"))
        try fd.writeAll(bytes("Z"))
        #expect(contents(dir.path + "/f") == bytes("ZaaXYaaaend"), "the sequential write starts at 0")
    }

    /// The reason `ReviewLog` restores the journal through a second descriptor: on Linux an
    /// O_APPEND descriptor appends even a positioned write.
    @Test func writeAtOnAnAppendDescriptorAppends() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try make(dir, "f", bytes("abc"))
        let fd = try FileDescriptor.open(dir.path + "/f", flags: O_WRONLY | O_APPEND)
        defer { fd.close() }
        try fd.writeAll(bytes("X"), at: 0)
        #expect(contents(dir.path + "/f") == bytes("abcX"))
    }

    @Test func seekMovesWhereReadsStart() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try make(dir, "f", bytes("0123456789"))
        let fd = try FileDescriptor.open(dir.path + "/f", flags: O_RDONLY)
        defer { fd.close() }
        #expect(try fd.seek(to: 6) == 6)
        #expect(try fd.readAll() == bytes("6789"))
        #expect(try fd.seek(to: -3, whence: SEEK_END) == 7)
        #expect(try fd.read(upTo: 1) == bytes("7"))
        #expect(try fd.seek(to: 0, whence: SEEK_CUR) == 8)
        #expect(throws: Errno(rawValue: EINVAL)) { try fd.seek(to: -1) }
    }

    @Test func truncateCutsAndExtendsWithZeros() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try make(dir, "f", bytes("0123456789"))
        let fd = try FileDescriptor.open(dir.path + "/f", flags: O_RDWR)
        defer { fd.close() }
        try fd.truncate(to: 4)
        #expect(try fd.size() == 4)
        #expect(contents(dir.path + "/f") == bytes("0123"))
        try fd.truncate(to: 6)
        #expect(contents(dir.path + "/f") == bytes("0123") + [0, 0])
    }

    // MARK: Short reads and writes

    /// A pipe hands out what is there: `read(upTo:)` answers short, `readAll` goes on to the end.
    @Test func shortReadsAreJoinedByReadAll() throws {
        let (reader, writer) = pipePair()
        defer { reader.close() }
        try writer.writeAll(bytes("abc"))
        #expect(try reader.read(upTo: 100) == bytes("abc"))
        try writer.writeAll(bytes("def"))
        try writer.writeAll(bytes("ghi"))
        writer.close()
        #expect(try reader.readAll() == bytes("defghi"))
        #expect(try reader.read(upTo: 1) == [], "end of file once the writer is gone")
    }

    @Test func readAllRefusesMoreThanTheLimit() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try make(dir, "f", [UInt8](repeating: 7, count: 1000))
        let exact = try FileDescriptor.open(dir.path + "/f", flags: O_RDONLY)
        defer { exact.close() }
        #expect(try exact.readAll(limit: 1000).count == 1000)
        let over = try FileDescriptor.open(dir.path + "/f", flags: O_RDONLY)
        defer { over.close() }
        #expect(throws: Errno(rawValue: EFBIG)) { try over.readAll(limit: 999) }
    }

    /// More than a pipe holds (64 KiB): the write goes on as the other end drains it, and every
    /// byte arrives once, in order.
    @Test func writeAllDeliversEverythingThroughAPipe() throws {
        let (reader, writer) = pipePair()
        defer { reader.close() }
        let data = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 ^ ($0 >> 8) ^ ($0 >> 16)) }
        let received = Shared<[UInt8]>([])
        let drain = BlockingThread.start {
            let all = (try? reader.readAll()) ?? []
            received.withLock { $0 = all }
        }
        try writer.writeAll(data)
        writer.close()
        drain.join()
        #expect(received.withLock { $0 } == data)
    }

    @Test func aWriteToAFullNonBlockingPipeWouldBlock() throws {
        let (reader, writer) = pipePair()
        defer { reader.close(); writer.close() }
        #expect(fcntl(writer.rawValue, F_SETFL, O_NONBLOCK) == 0)
        #expect(throws: Errno.wouldBlock) {
            try writer.writeAll([UInt8](repeating: 1, count: 1 << 20))
        }
    }

    // MARK: Sync

    @Test func syncingAFileKeepsItsBytes() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let fd = try FileDescriptor.open(dir.path + "/f", flags: O_WRONLY | O_CREAT)
        defer { fd.close() }
        try fd.writeAll(bytes("durable"))
        try fd.sync()
        try fd.syncData()
        let directory = try FileDescriptor.openDirectory(dir.path)
        defer { directory.close() }
        try directory.sync()
        #expect(contents(dir.path + "/f") == bytes("durable"))
    }

    /// A pipe cannot be synced: the kernel's EINVAL comes through, not a silent success.
    @Test func syncOfAPipeFails() throws {
        let (reader, writer) = pipePair()
        defer { reader.close(); writer.close() }
        #expect(throws: Errno(rawValue: EINVAL)) { try writer.sync() }
        #expect(throws: Errno(rawValue: EINVAL)) { try writer.syncData() }
    }

    /// docs/rules.md, R18: every mutating call passes the crash point, so that the atomicity
    /// tests can stop a change between any two of its steps; reads do not count as steps.
    @Test func mutatingCallsPassTheCrashPoint() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try make(dir, "f", bytes("before"))
        let fd = try FileDescriptor.open(dir.path + "/f", flags: O_RDWR)
        defer { fd.close() }

        CrashPoint.arm(after: 2)
        defer { CrashPoint.disarm() }
        #expect(try fd.read(at: 0, upTo: 6) == bytes("before"))
        try fd.writeAll(bytes("B"), at: 0)
        #expect(!CrashPoint.hasCrashed)
        #expect(throws: CrashPoint.crashed) { try fd.writeAll(bytes("after")) }
        #expect(throws: CrashPoint.crashed) { try fd.truncate(to: 0) }
        #expect(throws: CrashPoint.crashed) { try fd.sync() }
        #expect(throws: CrashPoint.crashed) { try fd.syncData() }
        #expect(throws: CrashPoint.crashed) {
            try FileDescriptor.open(dir.path + "/new", flags: O_WRONLY | O_CREAT)
        }
        #expect(CrashPoint.hasCrashed)
        CrashPoint.disarm()
        #expect(contents(dir.path + "/f") == bytes("Before"))
        #expect(!dir.exists("new"))
    }

    // MARK: Locks

    /// Two opens of one file are two lock holders (docs/rules.md, R19: one daemon a store).
    @Test func aLockHeldByOneDescriptorRefusesAnother() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.write("lock", "")
        let first = try FileDescriptor.open(dir.path + "/lock", flags: O_RDONLY)
        defer { first.close() }
        let second = try FileDescriptor.open(dir.path + "/lock", flags: O_RDONLY)
        defer { second.close() }

        #expect(try first.tryLockExclusive())
        #expect(try !second.tryLockExclusive())
        #expect(try first.tryLockExclusive(), "the holder may take it again")
        try first.unlock()
        #expect(try second.tryLockExclusive())
        #expect(try !first.tryLockExclusive())
    }

    @Test func closingTheHolderReleasesTheLock() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.write("lock", "")
        let holder = try FileDescriptor.open(dir.path + "/lock", flags: O_RDONLY)
        let other = try FileDescriptor.open(dir.path + "/lock", flags: O_RDONLY)
        defer { other.close() }
        try holder.lockExclusive()
        #expect(try !other.tryLockExclusive())
        holder.close()
        #expect(try other.tryLockExclusive())
    }

    /// `lockExclusive` waits for the holder rather than failing, and has the lock when it returns.
    @Test func lockExclusiveWaitsForTheHolder() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.write("lock", "")
        let holder = try FileDescriptor.open(dir.path + "/lock", flags: O_RDONLY)
        defer { holder.close() }
        let waiter = try FileDescriptor.open(dir.path + "/lock", flags: O_RDONLY)
        defer { waiter.close() }
        var st = stat()
        #expect(fstat(waiter.rawValue, &st) == 0)

        #expect(try holder.tryLockExclusive())
        let outcome = Shared("waiting")
        let thread = BlockingThread.start {
            do {
                try waiter.lockExclusive()
                outcome.withLock { $0 = "locked" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
        }
        // Proceeds once the kernel lists the waiter as blocked on this file (not a sleep).
        #expect(waitUntilBlocked(inode: UInt64(st.st_ino)), "the waiter never blocked")
        #expect(outcome.withLock { $0 } == "waiting")
        try holder.unlock()
        thread.join()
        #expect(outcome.withLock { $0 } == "locked")
        #expect(try !holder.tryLockExclusive(), "the waiter holds it now")
    }

    /// True once /proc/locks shows a blocked flock waiter of this process on `inode`.
    func waitUntilBlocked(inode: UInt64) -> Bool {
        let suffix = ":\(inode) "
        let pid = " \(getpid()) "
        for _ in 0..<20_000 {
            let text = String(decoding: contents("/proc/locks"), as: UTF8.self)
            if text.split(separator: "\n").contains(where: { $0.contains("-> FLOCK") && $0.contains(pid) && $0.contains(suffix) }) {
                return true
            }
            usleep(500)
        }
        return false
    }
}

/// A plain POSIX thread, for a call that blocks (a lock, a pipe) while the test goes on.
private final class BlockingThread: @unchecked Sendable {
    private var handle = pthread_t()
    private let body: @Sendable () -> Void

    private init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    static func start(_ body: @escaping @Sendable () -> Void) -> BlockingThread {
        let thread = BlockingThread(body)
        let context = Unmanaged.passRetained(thread).toOpaque()
        let result = pthread_create(&thread.handle, nil, { context in
            let thread = Unmanaged<BlockingThread>.fromOpaque(context!).takeRetainedValue()
            thread.body()
            return nil
        }, context)
        precondition(result == 0, "pthread_create failed")
        return thread
    }

    func join() { pthread_join(handle, nil) }
}

/// A value two threads share (a `Mutex` cannot be captured by an escaping closure).
private final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<R: Sendable>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }
}
