import Glibc

/// Starts a detached thread for one connection. A connection blocks in `poll`, `recv` and in
/// the box's fsync on its own thread: one request costs no hop between threads (issue 3),
/// and no blocking call ever holds a thread of Swift's cooperative pool.
enum ConnectionThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `body` on a new thread.
    /// - Returns: the error number when no thread could be made (`EAGAIN`: thread limit).
    static func start(_ body: @escaping @Sendable () -> Void) -> Int32? {
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
