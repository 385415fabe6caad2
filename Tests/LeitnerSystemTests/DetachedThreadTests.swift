import Glibc
import Synchronization
import Testing
import LeitnerSystem
import LeitnerTestSupport

@Suite struct DetachedThreadTests {
    /// A thread that enters a directory of its own (`enterOwnDirectory`, as the notes' first look
    /// does with `notes/`) resolves relative names there, an inotify watch too, and no other
    /// thread's directory moves with it.
    @Test func aThreadsOwnDirectoryIsItsAlone() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let name = "entered-\(getpid())"
        dir.write("inner/\(name)/file", "x")
        let inner = try FileDescriptor.openDirectory(dir.path + "/inner")
        defer { inner.close() }
        let inotify = try Inotify(limit: 10)
        let watcher = inotify.watcher
        let here = try FileSystem.status(".", in: nil)
        let seen = Mutex<(entered: Bool, found: Bool, watched: Bool)?>(nil)
        let done = try EventDescriptor()
        defer { done.close() }
        #expect(DetachedThread.start {
            let entered = DetachedThread.enterOwnDirectory(inner)
            let found = (try? FileSystem.status(name + "/file", in: nil)) != nil
            let watched = (try? watcher.watch(directory: name)) != nil
            seen.withLock { $0 = (entered, found, watched) }
            done.signal()
        } == nil)
        while seen.withLock({ $0 }) == nil { _ = try Poll.readable([done.descriptor], milliseconds: nil) }
        let result = try #require(seen.withLock { $0 })
        // Refused only where a filter forbids `unshare` (some containers): the caller then uses
        // whole paths, and nothing moved.
        if result.entered { #expect(result.found && result.watched) }
        // This thread's directory is where it was: the name is not found from here.
        #expect((try? FileSystem.status(name, in: nil)) == nil)
        #expect(try FileSystem.status(".", in: nil).st_ino == here.st_ino)
    }
}
