import Glibc

/// Signals read from a descriptor (`signalfd`), close-on-exec and non-blocking, so that a thread
/// waiting in `poll` learns of them with its other descriptors: no handler runs, nothing
/// happens asynchronously. The signals must be blocked in every thread first (`SignalMask.block`
/// in the first thread, before any other starts): a blocked signal stays pending until read here.
public struct SignalDescriptor: Sendable {
    /// The descriptor to poll for reading.
    public let descriptor: FileDescriptor

    /// A descriptor that reads `signals`.
    /// - Throws: `Errno`; `EMFILE` when the process has no descriptor left.
    public init(signals: [Int32]) throws(Errno) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        // `SFD_CLOEXEC | SFD_NONBLOCK` have the values of `O_CLOEXEC | O_NONBLOCK`.
        descriptor = FileDescriptor(rawValue: try valueOrErrno { signalfd(-1, &set, O_CLOEXEC | O_NONBLOCK) })
    }

    /// The next pending signal's number; nil when none is pending.
    public func next() throws(Errno) -> Int32? {
        // `struct signalfd_siginfo` is 128 bytes; its first field is the signal's number.
        var info = [UInt8](repeating: 0, count: 128)
        do throws(Errno) {
            let count = try valueOrErrno { info.withUnsafeMutableBytes { read(descriptor.rawValue, $0.baseAddress, 128) } }
            guard count == 128 else { return nil }
        } catch where error == .wouldBlock {
            return nil
        }
        return info.withUnsafeBytes { Int32(bitPattern: $0.loadUnaligned(as: UInt32.self)) }
    }

    public func close() { descriptor.close() }
}

/// glibc has `signalfd`, but its header is not in Swift's Glibc module: look it up.
private let signalfd: @convention(c) (Int32, UnsafePointer<sigset_t>, Int32) -> Int32 = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "signalfd") else {
        fatalError("the C library has no signalfd")
    }
    return unsafeBitCast(symbol, to: (@convention(c) (Int32, UnsafePointer<sigset_t>, Int32) -> Int32).self)
}()
