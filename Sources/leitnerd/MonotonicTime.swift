import Glibc

/// A point on the monotonic clock (`CLOCK_MONOTONIC`), for deadlines and idle times: it does not
/// jump with the wall clock, nor with libfaketime, under which the day tests run the daemon
/// (with `DONT_FAKE_MONOTONIC`).
struct MonotonicTime: Comparable, Sendable {
    var nanoseconds: Int64

    static var now: MonotonicTime {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicTime(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    static func < (lhs: MonotonicTime, rhs: MonotonicTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    static func + (lhs: MonotonicTime, rhs: Duration) -> MonotonicTime {
        let (seconds, attoseconds) = rhs.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !nanoseconds.overflow else { return MonotonicTime(nanoseconds: .max) }
        let (sum, overflow) = lhs.nanoseconds.addingReportingOverflow(nanoseconds.partialValue + attoseconds / 1_000_000_000)
        return MonotonicTime(nanoseconds: overflow ? .max : sum)
    }

    static func - (lhs: MonotonicTime, rhs: MonotonicTime) -> Duration {
        .nanoseconds(lhs.nanoseconds - rhs.nanoseconds)
    }

    /// The milliseconds from now until this time, rounded up, 0 once it has passed: a `poll`
    /// timeout that does not wake a millisecond early.
    var millisecondsFromNow: Int {
        let left = nanoseconds - MonotonicTime.now.nanoseconds
        return left <= 0 ? 0 : Int((left + 999_999) / 1_000_000)
    }

    /// The earlier of two optional deadlines; nil when both are nil (no deadline).
    static func earliest(_ a: MonotonicTime?, _ b: MonotonicTime?) -> MonotonicTime? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }
}

extension Duration {
    /// For the log: `30 s`, `1.5 s`, `250 ms`.
    var logDescription: String {
        let milliseconds = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(milliseconds / 1000).\(milliseconds % 1000 / 100) s"
    }
}
