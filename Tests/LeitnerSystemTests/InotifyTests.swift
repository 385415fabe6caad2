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
    /// build's two threads that ask a piece's stamps do: no more may succeed than the limit. A
    /// watch the count loses lets one more through; a loss needs the two adds' returns and
    /// counts to interleave, so it is tried many times.
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
        #expect(worst <= limit, "watches made \(worst), limit \(limit)")
    }

    /// Two threads each ask a view's watch of a directory of its own when one place is left:
    /// one gets it, the other is refused. The limit is checked and the watch added under one
    /// hold of the count's lock; checked before it, both found the place free and both were
    /// given a watch, one past the limit. The two are let go at once, many times over.
    @Test func twoViewsAskingTheLastPlaceAtOnceTakeItOnce() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        for name in ["a", "b"] { mkdir(dir.path + "/" + name, 0o755) }
        let path = dir.path
        var over = 0
        for _ in 0..<400 {
            let watcher = try Inotify(limit: 1).watcher
            let ready = Atomic<Int>(0)
            let done = Atomic<Int>(0)
            let succeeded = Atomic<Int>(0)
            for name in ["a", "b"] {
                #expect(DetachedThread.start {
                    ready.add(1, ordering: .acquiringAndReleasing)
                    while ready.load(ordering: .acquiring) < 2 {}
                    if (try? watcher.watch(directory: path + "/" + name)) != nil { succeeded.add(1, ordering: .relaxed) }
                    done.add(1, ordering: .releasing)
                } == nil)
            }
            while done.load(ordering: .acquiring) < 2 { sched_yield() }
            if succeeded.load(ordering: .relaxed) > 1 { over += 1 }
        }
        #expect(over == 0, "both threads were given a watch past the limit of one in \(over) of 400 tries")
    }
}
