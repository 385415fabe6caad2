import Glibc

/// A Linux event counter (`eventfd`), close-on-exec and non-blocking: one thread rings it
/// (`signal()`) to wake another that waits in `poll` on its descriptor. It stays readable until
/// drained, so a ring made before the wait begins is not lost.
public struct EventDescriptor: Sendable {
    /// The descriptor to poll for reading.
    public let descriptor: FileDescriptor

    /// A new counter at zero.
    /// - Throws: `Errno`; `EMFILE` when the process has no descriptor left.
    public init() throws(Errno) {
        // `EFD_CLOEXEC | EFD_NONBLOCK` have the values of `O_CLOEXEC | O_NONBLOCK`.
        descriptor = FileDescriptor(rawValue: try valueOrErrno { eventfd(0, O_CLOEXEC | O_NONBLOCK) })
    }

    /// Makes the descriptor readable (wakes a waiter). Cannot fail but at 2⁶⁴ − 2 rings
    /// undrained, when it is readable anyway.
    public func signal() {
        var one: UInt64 = 1
        _ = try? valueOrErrno { write(descriptor.rawValue, &one, 8) }
    }

    /// Resets the counter: the descriptor is no longer readable until the next `signal()`.
    public func drain() {
        var count: UInt64 = 0
        _ = try? valueOrErrno { read(descriptor.rawValue, &count, 8) }
    }

    public func close() { descriptor.close() }
}

/// glibc has `eventfd`, but its header is not in Swift's Glibc module: look it up.
private let eventfd: @convention(c) (UInt32, Int32) -> Int32 = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "eventfd") else {
        fatalError("the C library has no eventfd")
    }
    return unsafeBitCast(symbol, to: (@convention(c) (UInt32, Int32) -> Int32).self)
}()
