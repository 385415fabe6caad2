import Glibc

/// Runs `body` with `signal` blocked on the calling thread only, so that a signal raised at this
/// thread (`raise`) stays pending for a `SignalDescriptor` to read; the mask is restored after.
public func withSignalBlockedOnThisThread<T>(_ signal: Int32, _ body: () throws -> T) rethrows -> T {
    var set = sigset_t()
    var old = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signal)
    pthread_sigmask(SIG_BLOCK, &set, &old)
    defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
    return try body()
}
