import Glibc

/// The local time zone, from the C library (`TZ`, `/etc/localtime`). The only place that calls
/// `localtime_r` and `tzset`; everything else works with the offset it returns.
package enum LocalTime {
    /// The local zone's offset east of UTC, in seconds, at `seconds` since the epoch
    /// (`tm_gmtoff` of `localtime_r`).
    ///
    /// `localtime_r` neither fails for times a program meets (it fails only when the year does
    /// not fit an `int`) nor reads `errno` usefully, so a failure counts as UTC.
    @inline(__always)
    package static func utcOffset(at seconds: Int64) -> Int {
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return 0 }
        return parts.tm_gmtoff
    }

    /// Makes the C library read `TZ` and `/etc/localtime` again. `localtime_r` reads them once:
    /// a long-running daemon calls this to follow a change of the machine's zone.
    package static func reload() {
        tzset()
    }
}
