import Glibc

/// Starts a detached thread (`pthread_create`), the programs' one way to: leitnerd makes one per
/// connection and one for a reload (SIGHUP). A connection blocks in `poll`, `recv` and in the
/// box's fsync on its own thread, so a request never moves between threads (docs/daemon.md,
/// "Concurrency").
public enum DetachedThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `body` on a new thread.
    /// - Returns: the error number when no thread could be made (`EAGAIN`: thread limit).
    public static func start(_ body: @escaping @Sendable () -> Void) -> Int32? {
        // pthread_create passes one pointer: the closure travels retained, and the thread takes
        // that reference over (or this function does, when no thread was made).
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return result
        }
        return nil
    }
}

extension DetachedThread {
    /// Gives the calling thread a working directory of its own (`unshare(CLONE_FS)`) and makes it
    /// `directory`: the relative paths this thread resolves (an inotify watch has no `…at` form)
    /// start there, with no walk from the root of each, and no other thread's change. For a
    /// thread made by `start`, which ends with its task.
    /// - Returns: false when the kernel refused (the thread's directory is then unchanged and
    ///   shared): the caller uses whole paths.
    public static func enterOwnDirectory(_ directory: FileDescriptor) -> Bool {
        unshareCall(cloneFS) == 0 && fchdir(directory.rawValue) == 0
    }

    /// `CLONE_FS` of `<sched.h>`, which Swift's Glibc hides with `unshare` (`_GNU_SOURCE`).
    private static let cloneFS: Int32 = 0x0000_0200
}

/// glibc has `unshare`, but its header hides it from Swift (`_GNU_SOURCE`): look it up, as
/// `accept4` is; nil (refused) without it.
private let unshareCall: @convention(c) (Int32) -> Int32 = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "unshare") else { return { _ in -1 } }
    return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
}()
