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
