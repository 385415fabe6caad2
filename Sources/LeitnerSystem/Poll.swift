import Glibc

/// Waits for several descriptors at once (`poll`): the daemon's listener waits for a new
/// connection, a signal and a wake-up together.
public enum Poll {
    /// Waits until one of `descriptors` is readable (or has an error or end of file to report),
    /// or `milliseconds` pass.
    /// - Parameter milliseconds: the longest wait; nil waits forever.
    /// - Returns: for each descriptor, whether it is ready; all false when the time ran out.
    public static func readable(_ descriptors: [FileDescriptor], milliseconds: Int?) throws(Errno) -> [Bool] {
        var entries = descriptors.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
        let timeout = milliseconds.map { Int32(clamping: max(0, $0)) } ?? -1
        let count = entries.count
        let ready = try valueOrErrno { poll(&entries, nfds_t(count), timeout) }
        if ready == 0 { return Array(repeating: false, count: count) }
        return entries.map { $0.revents != 0 }
    }
}
