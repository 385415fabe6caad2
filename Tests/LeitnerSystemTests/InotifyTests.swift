import Glibc
import Synchronization
import Testing
import LeitnerSystem
import LeitnerTestSupport

/// `Inotify`'s count of the watches it holds, which stops the views' watches at `limit`
/// (`WatchLimit=`, three quarters of `max_user_watches` by default: docs/performance.md,
/// "Watches").
@Suite struct InotifyTests {
    /// Two threads add watches of distinct directories through views at once, as the search
    /// build's two threads that ask a piece's stamps do: no more may succeed than the limit (one
    /// more at most, for the check before the add). A watch the count loses lets one more through;
    /// a loss needs the two adds' returns and counts to interleave, so it is tried many times.
    @Test func twoThreadsAddingWatchesStayWithinTheLimit() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let total = 6000
        let limit = 3000
        for index in 0..<total { mkdir(dir.path + "/d\(index)", 0o755) }
        var worst = 0
        for _ in 0..<30 {
            let inotify = try Inotify(limit: limit)
            let watcher = inotify.watcher
            let succeeded = Atomic<Int>(0)
            let path = dir.path
            let done = Atomic<Int>(0)
            for half in 0..<2 {
                #expect(DetachedThread.start {
                    for index in stride(from: half, to: total, by: 2) {
                        if (try? watcher.watch(directory: path + "/d\(index)")) != nil { succeeded.add(1, ordering: .relaxed) }
                    }
                    done.add(1, ordering: .relaxed)
                } == nil)
            }
            while done.load(ordering: .relaxed) < 2 { usleep(1000) }
            worst = max(worst, succeeded.load(ordering: .relaxed))
        }
        #expect(worst <= limit + 1, "watches made \(worst), limit \(limit)")
    }
}
