import Glibc

/// The real-time clock (`CLOCK_REALTIME`), which file change times are on: compared with them,
/// not used for the box's days (`SystemClock` in LeitnerCore is those). It honours libfaketime,
/// which the end-to-end tests use.
public enum RealTime {
    /// Nanoseconds since the epoch.
    public static var nanoseconds: Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
