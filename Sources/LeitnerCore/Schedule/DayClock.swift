import Glibc

/// Logical dates and local times (SPEC §1): "today" is the local date of `now − DayStartsAt`.
/// Local time comes from the C library (`TZ`, `/etc/localtime`).
public struct DayClock: Sendable {
    /// Minutes after local midnight at which a learning day starts (`DayStartsAt=`, default 04:00).
    public let dayStartsAt: Int

    public init(dayStartsAt minutes: Int = 4 * 60) {
        self.dayStartsAt = minutes
    }

    /// The logical date at `millis` (ms since the epoch).
    public func logicalDate(at millis: Int64) -> LogicalDate {
        fatalError("DayClock.logicalDate: to be implemented")
    }

    /// The first instant (ms since the epoch) of logical date `date`: local `DayStartsAt` that day.
    public func start(of date: LogicalDate) -> Int64 {
        fatalError("DayClock.start: to be implemented")
    }

    /// RFC 3339 local time with offset, seconds precision: `2026-11-21T20:30:00+01:00`.
    public static func rfc3339(_ millis: Int64) -> String {
        fatalError("DayClock.rfc3339: to be implemented")
    }

    /// Parses an RFC 3339 time (`Z` or an offset, optional fraction) to ms since the epoch.
    public static func parseRFC3339(_ text: String) -> Int64? {
        fatalError("DayClock.parseRFC3339: to be implemented")
    }
}
