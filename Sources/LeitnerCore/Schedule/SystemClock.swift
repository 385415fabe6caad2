import LeitnerSystem

/// The system's real-time clock (honours libfaketime, which end-to-end tests use).
public struct SystemClock: WallClock {
    public init() {}

    public func now() -> Int64 {
        RealTime.nanoseconds / 1_000_000
    }
}
