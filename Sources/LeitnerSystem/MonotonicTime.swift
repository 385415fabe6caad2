import Glibc

/// A point on the monotonic clock (`CLOCK_MONOTONIC`), for deadlines, idle times and timings: it
/// does not jump with the wall clock, nor with libfaketime, under which the day tests run the
/// daemon (with `DONT_FAKE_MONOTONIC`). The one reading of that clock in the programs.
public struct MonotonicTime: Comparable, Sendable {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static var now: MonotonicTime {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicTime(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    public static func < (lhs: MonotonicTime, rhs: MonotonicTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public static func + (lhs: MonotonicTime, rhs: Duration) -> MonotonicTime {
        let (seconds, attoseconds) = rhs.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !nanoseconds.overflow else { return MonotonicTime(nanoseconds: .max) }
        let (sum, overflow) = lhs.nanoseconds.addingReportingOverflow(nanoseconds.partialValue + attoseconds / 1_000_000_000)
        return MonotonicTime(nanoseconds: overflow ? .max : sum)
    }

    public static func - (lhs: MonotonicTime, rhs: MonotonicTime) -> Duration {
        .nanoseconds(lhs.nanoseconds - rhs.nanoseconds)
    }

    /// The milliseconds from now until this time, rounded up, 0 once it has passed: a `poll`
    /// timeout that does not wake a millisecond early.
    public var millisecondsFromNow: Int {
        let left = nanoseconds - MonotonicTime.now.nanoseconds
        return left <= 0 ? 0 : Int((left + 999_999) / 1_000_000)
    }

    /// Milliseconds since an arbitrary start (boot): for differences only.
    public var milliseconds: Int64 { nanoseconds / 1_000_000 }

    /// Seconds since an arbitrary start, for timings.
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    /// The earlier of two optional deadlines; nil when both are nil (no deadline).
    public static func earliest(_ a: MonotonicTime?, _ b: MonotonicTime?) -> MonotonicTime? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }
}
