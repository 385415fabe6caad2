import Glibc

/// A failed system call's `errno`, typed. Only the system-call layer reads `errno`.
public struct Errno: Error, Equatable, Sendable, CustomStringConvertible {
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The `errno` the last system call left on the calling thread, for a C library call that
    /// reports through it (`popen`): the one place outside the system-call wrappers that reads it.
    public static var current: Errno { Errno(rawValue: errno) }

    public static let noEntry = Errno(rawValue: ENOENT)
    public static let exists = Errno(rawValue: EEXIST)
    public static let notEmpty = Errno(rawValue: ENOTEMPTY)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    public static let isDirectory = Errno(rawValue: EISDIR)
    public static let tooManyLinks = Errno(rawValue: ELOOP)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let permission = Errno(rawValue: EACCES)
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    public static let quotaExceeded = Errno(rawValue: EDQUOT)

    /// The C library's text for this error ("No such file or directory").
    public var description: String {
        #if LEITNER_TEST_HOOKS
        if self == CrashPoint.crashed { return "simulated crash" }
        #endif
        return String(decoding: Array(UnsafeBufferPointer(start: strerror(rawValue),
                                                          count: strlen(strerror(rawValue)))).map { UInt8(bitPattern: $0) },
                      as: UTF8.self)
    }
}

/// Runs a system call that returns -1 and sets `errno` on failure, retrying on `EINTR`.
/// `EBADF` and `EFAULT` are programming errors: a debug build stops on them so that tests find
/// the bug; a release build throws them like any other error, so that one bad call fails one
/// request and the daemon goes on serving everyone else.
@inline(__always)
package func valueOrErrno<T: FixedWidthInteger>(_ call: () -> T) throws(Errno) -> T {
    while true {
        let result = call()
        if result != -1 { return result }
        let error = Errno.current
        if error == .interrupted { continue }
        assert(error.rawValue != EBADF && error.rawValue != EFAULT,
               "system call misused: \(error) (EBADF/EFAULT are bugs)")
        throw error
    }
}

/// Runs a system call for its effect only.
@inline(__always)
package func nothingOrErrno<T: FixedWidthInteger>(_ call: () -> T) throws(Errno) {
    _ = try valueOrErrno(call)
}
