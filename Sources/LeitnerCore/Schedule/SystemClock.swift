import Glibc

/// The system's real-time clock (honours libfaketime, which end-to-end tests use).
public struct SystemClock: WallClock {
    public init() {}

    public func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}
