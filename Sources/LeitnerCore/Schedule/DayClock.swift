import LeitnerSystem
/// Logical dates and local times (docs/rules.md): "today" is the local date of `now − DayStartsAt`.
/// Local time comes from the C library (`TZ`, `/etc/localtime`), so `TZ=…` and libfaketime are
/// honoured.
///
/// The learning day starts when the local wall clock reads `DayStartsAt`; on days when the
/// clock is put forward or back this is what a user expects, where subtracting a fixed number
/// of hours would not be:
/// - the day starts at the first instant the wall clock reads `DayStartsAt` or later, so when
///   `DayStartsAt` falls into the hour skipped in spring, the day starts at the end of the gap;
/// - when the clock is put back over `DayStartsAt` in autumn, the day starts at the first
///   passage, and the repeated hour stays on the new date: a logical date never goes back.
///
/// Logical date `D` is thus the time from `start(of: D)` up to `start(of: D.next)`.
/// Nothing is cached; each call is one to four `localtime_r` calls (more only in a gap).
public struct DayClock: Sendable {
    /// Minutes after local midnight at which a learning day starts (`DayStartsAt=`, default 04:00).
    public let dayStartsAt: Int

    /// Where the offsets from UTC come from: the C library, or a rule given by a test.
    let zone: Zone

    enum Zone: Sendable {
        case system
        case rule(@Sendable (Int64) -> Int)
    }

    /// A clock for the machine's local zone.
    /// - Parameter minutes: minutes after local midnight, `0 ..< 1440`, at which a day starts.
    public init(dayStartsAt minutes: Int = 4 * 60) {
        precondition((0..<DayClock.minutesPerDay).contains(minutes), "DayStartsAt out of range: \(minutes)")
        self.dayStartsAt = minutes
        self.zone = .system
    }

    /// A clock for a zone given as a rule: `utcOffset(seconds)` is the offset east of UTC, in
    /// seconds, at that instant. Tests use it to try zones without changing `TZ`.
    init(dayStartsAt minutes: Int, utcOffset: @escaping @Sendable (Int64) -> Int) {
        precondition((0..<DayClock.minutesPerDay).contains(minutes), "DayStartsAt out of range: \(minutes)")
        self.dayStartsAt = minutes
        self.zone = .rule(utcOffset)
    }

    /// Makes the C library read `TZ` and `/etc/localtime` again, so that a running daemon follows
    /// a change of the machine's time zone. Costs a `stat`; call it once a request at most.
    public static func reloadTimeZone() {
        LocalTime.reload()
    }

    /// The logical date at `millis` (ms since the epoch).
    public func logicalDate(at millis: Int64) -> LogicalDate {
        let seconds = floorDivide(millis, 1000)
        let offset = utcOffset(at: seconds)
        let wall = seconds + Int64(offset)
        let day = floorDivide(wall, DayClock.secondsPerDay)
        let secondOfDay = wall - day * DayClock.secondsPerDay
        let date = LogicalDate(ordinal: Int(day))
        let byWallClock = secondOfDay >= Int64(dayStartsAt) * 60 ? date : date.previous
        // Without a change of offset in the last 30 hours the wall clock has run straight since
        // the day started, and it alone decides.
        if utcOffset(at: seconds - DayClock.lookBehind) == offset { return byWallClock }
        // The clock was put back: the wall clock may read a time of a day that has already ended.
        return seconds >= startSeconds(of: byWallClock.next) ? byWallClock.next : byWallClock
    }

    /// The first instant (ms since the epoch) of logical date `date`: local `DayStartsAt` that
    /// day, or the end of the gap when the clock skips that time.
    public func start(of date: LogicalDate) -> Int64 {
        startSeconds(of: date) * 1000
    }

    /// The first instant, in seconds, at which the local wall clock reads `DayStartsAt` on `date`
    /// or later.
    func startSeconds(of date: LogicalDate) -> Int64 {
        let wall = Int64(date.ordinal) * DayClock.secondsPerDay + Int64(dayStartsAt) * 60
        // Offsets lie within ±14 h: the instant sought lies between these two probes.
        let before = utcOffset(at: wall - DayClock.probeDistance)
        let after = utcOffset(at: wall + DayClock.probeDistance)
        if before == after { return wall - Int64(before) }
        // A change of offset near that day: the wall time occurs under one offset, both (put
        // back: take the first), or neither (put forward: take the end of the gap).
        let candidates = [wall - Int64(before), wall - Int64(after)].filter { instant in
            instant + Int64(utcOffset(at: instant)) == wall
        }
        if let first = candidates.min() { return first }
        var low = wall - Int64(max(before, after))
        var high = wall - Int64(min(before, after))
        while low < high {
            let middle = low + (high - low) / 2
            if middle + Int64(utcOffset(at: middle)) >= wall { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The zone's offset east of UTC, in seconds, at `seconds` since the epoch.
    @inline(__always)
    func utcOffset(at seconds: Int64) -> Int {
        switch zone {
        case .system: LocalTime.utcOffset(at: seconds)
        case .rule(let rule): rule(seconds)
        }
    }

    /// RFC 3339 local time with offset, seconds precision: `2026-11-21T20:30:00+01:00`.
    /// UTC is written `+00:00`.
    public static func rfc3339(_ millis: Int64) -> String {
        let seconds = floorDivide(millis, 1000)
        return rfc3339(seconds: seconds, utcOffset: LocalTime.utcOffset(at: seconds))
    }

    /// RFC 3339 local time with offset and the milliseconds when they are not 0:
    /// `2026-11-21T20:30:00.250+01:00`, `2026-11-21T20:30:01+01:00`. The review log's time
    /// (docs/store-format.md): two devices' lines in one second are still ordered by when they
    /// happened, and a whole second is written as before, so that old and new lines read alike.
    public static func rfc3339Milliseconds(_ millis: Int64) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(29)
        appendRFC3339Milliseconds(millis, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `rfc3339Milliseconds` appended to `bytes` (the review log's lines, `LogLine.append`).
    static func appendRFC3339Milliseconds(_ millis: Int64, to bytes: inout [UInt8]) {
        let seconds = floorDivide(millis, 1000)
        appendRFC3339(seconds: seconds, utcOffset: LocalTime.utcOffset(at: seconds), millisecond: Int(millis - seconds * 1000),
                      to: &bytes)
    }

    /// `seconds` written with the offset `utcOffset` (seconds east of UTC). An offset with
    /// seconds (old local mean times) is cut to whole minutes, and the time shown follows the
    /// offset written, so the text always names the right instant.
    static func rfc3339(seconds: Int64, utcOffset: Int, millisecond: Int = 0) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(29)
        appendRFC3339(seconds: seconds, utcOffset: utcOffset, millisecond: millisecond, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `rfc3339(seconds:utcOffset:millisecond:)` appended to `bytes`, each number's digits
    /// written in place.
    static func appendRFC3339(seconds: Int64, utcOffset: Int, millisecond: Int = 0, to bytes: inout [UInt8]) {
        let offsetMinutes = utcOffset / 60
        let wall = seconds + Int64(offsetMinutes) * 60
        let day = floorDivide(wall, secondsPerDay)
        let secondOfDay = Int(wall - day * secondsPerDay)
        let (year, month, dayOfMonth) = LogicalDate(ordinal: Int(day)).components
        func put(_ value: Int, width: Int) {
            let end = bytes.count + width
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width))
            var rest = value
            for index in stride(from: end - 1, through: end - width, by: -1) {
                bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
        put(year, width: 4)
        bytes.append(UInt8(ascii: "-"))
        put(month, width: 2)
        bytes.append(UInt8(ascii: "-"))
        put(dayOfMonth, width: 2)
        bytes.append(UInt8(ascii: "T"))
        put(secondOfDay / 3600, width: 2)
        bytes.append(UInt8(ascii: ":"))
        put(secondOfDay / 60 % 60, width: 2)
        bytes.append(UInt8(ascii: ":"))
        put(secondOfDay % 60, width: 2)
        if millisecond != 0 {
            bytes.append(UInt8(ascii: "."))
            put(millisecond, width: 3)
        }
        bytes.append(offsetMinutes < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        put(abs(offsetMinutes) / 60, width: 2)
        bytes.append(UInt8(ascii: ":"))
        put(abs(offsetMinutes) % 60, width: 2)
    }

    /// Parses an RFC 3339 time (`Z` or an offset, optional fraction) to ms since the epoch.
    /// Takes `T`, `t` or a space between date and time (RFC 3339 §5.6); a fraction is cut to
    /// milliseconds; a leap second (`:60`) counts as the next second.
    /// - Returns: nil for anything else, or for a date or time that does not exist.
    public static func parseRFC3339(_ text: String) -> Int64? {
        parseRFC3339(Array(text.utf8)[...])
    }

    /// `parseRFC3339` of UTF-8 bytes: the review log is read without making a string per field.
    static func parseRFC3339(_ bytes: ArraySlice<UInt8>) -> Int64? {
        let start = bytes.startIndex
        let count = bytes.count
        guard count >= 20 else { return nil }
        func at(_ offset: Int) -> UInt8 { bytes[start + offset] }
        func number(_ offset: Int, _ width: Int) -> Int? {
            var value = 0
            for index in offset..<offset + width {
                let byte = at(index)
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let date = LogicalDate(bytes[start..<start + 10]),
              [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(at(10)),
              at(13) == UInt8(ascii: ":"), at(16) == UInt8(ascii: ":"),
              let hour = number(11, 2), hour < 24,
              let minute = number(14, 2), minute < 60,
              let second = number(17, 2), second <= 60
        else { return nil }
        var index = 19
        var millis: Int64 = 0
        if at(index) == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < count, at(index) >= UInt8(ascii: "0"), at(index) <= UInt8(ascii: "9") {
                if digits < 3 { millis = millis * 10 + Int64(at(index) - UInt8(ascii: "0")) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { millis *= 10 }
        }
        guard index < count else { return nil }
        let offsetSeconds: Int
        switch at(index) {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == count else { return nil }
            offsetSeconds = 0
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == count, at(index + 3) == UInt8(ascii: ":"),
                  let hours = number(index + 1, 2), hours < 24,
                  let minutes = number(index + 4, 2), minutes < 60
            else { return nil }
            offsetSeconds = (hours * 3600 + minutes * 60) * (at(index) == UInt8(ascii: "-") ? -1 : 1)
        default:
            return nil
        }
        let wall = Int64(date.ordinal) * secondsPerDay + Int64(hour * 3600 + minute * 60 + second)
        return (wall - Int64(offsetSeconds)) * 1000 + millis
    }

    static let minutesPerDay = 24 * 60
    static let secondsPerDay: Int64 = 86_400
    /// How far back a change of offset can matter to the logical date: a local day and the
    /// largest shift of a clock, with room to spare.
    static let lookBehind: Int64 = 30 * 3600
    /// Farther from a wall time than any offset from UTC (±14 h).
    static let probeDistance: Int64 = 15 * 3600
}

/// Division rounding toward minus infinity, for times before 1970 and before `DayStartsAt`.
@inline(__always)
func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    let quotient = value / divisor
    return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
}
