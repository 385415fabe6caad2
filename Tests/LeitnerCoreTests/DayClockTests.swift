import Glibc
import Testing
@testable import LeitnerCore

/// Zones written as rules, so that most tests need not change the process's `TZ`.
enum TestZones {
    static let utc: @Sendable (Int64) -> Int = { _ in 0 }

    /// Europe/Berlin since 1996: CET, CEST from the last Sunday of March 01:00 UTC to the last
    /// Sunday of October 01:00 UTC.
    static let berlin: @Sendable (Int64) -> Int = { seconds in
        let year = LogicalDate(ordinal: Int(floorDivide(seconds, 86_400))).components.year
        let start = lastSunday(year: year, month: 3) * 86_400 + 3600
        let end = lastSunday(year: year, month: 10) * 86_400 + 3600
        return seconds >= start && seconds < end ? 7200 : 3600
    }

    /// America/New_York since 2007: EST, EDT from the second Sunday of March 02:00 EST to the
    /// first Sunday of November 02:00 EDT.
    static let newYork: @Sendable (Int64) -> Int = { seconds in
        let year = LogicalDate(ordinal: Int(floorDivide(seconds, 86_400))).components.year
        let start = firstSunday(year: year, month: 3, skipping: 1) * 86_400 + 7 * 3600
        let end = firstSunday(year: year, month: 11, skipping: 0) * 86_400 + 6 * 3600
        return seconds >= start && seconds < end ? -4 * 3600 : -5 * 3600
    }

    static func lastSunday(year: Int, month: Int) -> Int64 {
        var date = LogicalDate(year: year, month: month, day: LogicalDate.daysIn(month: month, year: year))!
        while date.weekday != 6 { date = date.previous }
        return Int64(date.ordinal)
    }

    static func firstSunday(year: Int, month: Int, skipping weeks: Int) -> Int64 {
        var date = LogicalDate(year: year, month: month, day: 1)!
        while date.weekday != 6 { date = date.next }
        return Int64(date.adding(days: 7 * weeks).ordinal)
    }
}

/// Milliseconds of an RFC 3339 text, for readable expectations.
func ms(_ text: String) -> Int64 {
    guard let value = DayClock.parseRFC3339(text) else { fatalError("bad time in test: \(text)") }
    return value
}

func date(_ text: String) -> LogicalDate {
    guard let value = LogicalDate(text) else { fatalError("bad date in test: \(text)") }
    return value
}

@Suite struct DayClockTests {
    let utc = DayClock(dayStartsAt: 4 * 60, utcOffset: TestZones.utc)

    /// docs/rules.md: at 01:30 with DayStartsAt=04:00 it is still the previous day.
    @Test func beforeDayStartsAtIsThePreviousDate() {
        #expect(utc.logicalDate(at: ms("2026-03-10T01:30:00Z")) == date("2026-03-09"))
        #expect(utc.logicalDate(at: ms("2026-03-10T03:59:59.999Z")) == date("2026-03-09"))
        #expect(utc.logicalDate(at: ms("2026-03-10T04:00:00Z")) == date("2026-03-10"))
        #expect(utc.logicalDate(at: ms("2026-03-10T23:59:59Z")) == date("2026-03-10"))
        #expect(utc.logicalDate(at: ms("2026-03-11T00:00:00Z")) == date("2026-03-10"))
    }

    @Test func dayStartsAtEdges() {
        let midnight = DayClock(dayStartsAt: 0, utcOffset: TestZones.utc)
        #expect(midnight.logicalDate(at: ms("2026-03-10T00:00:00Z")) == date("2026-03-10"))
        #expect(midnight.logicalDate(at: ms("2026-03-09T23:59:59.999Z")) == date("2026-03-09"))
        #expect(midnight.start(of: date("2026-03-10")) == ms("2026-03-10T00:00:00Z"))
        let late = DayClock(dayStartsAt: 23 * 60 + 59, utcOffset: TestZones.utc)
        #expect(late.logicalDate(at: ms("2026-03-10T23:58:59Z")) == date("2026-03-09"))
        #expect(late.logicalDate(at: ms("2026-03-10T23:59:00Z")) == date("2026-03-10"))
        #expect(late.start(of: date("2026-03-10")) == ms("2026-03-10T23:59:00Z"))
    }

    @Test func startOfADateIsLocalDayStartsAt() {
        #expect(utc.start(of: date("2026-03-10")) == ms("2026-03-10T04:00:00Z"))
        let berlin = DayClock(dayStartsAt: 4 * 60, utcOffset: TestZones.berlin)
        #expect(berlin.start(of: date("2026-01-15")) == ms("2026-01-15T04:00:00+01:00"))
        #expect(berlin.start(of: date("2026-07-15")) == ms("2026-07-15T04:00:00+02:00"))
        let newYork = DayClock(dayStartsAt: 4 * 60, utcOffset: TestZones.newYork)
        #expect(newYork.start(of: date("2026-01-15")) == ms("2026-01-15T04:00:00-05:00"))
        #expect(newYork.logicalDate(at: ms("2026-01-16T03:00:00Z")) == date("2026-01-15"))
    }

    @Test func timesBefore1970() {
        #expect(utc.logicalDate(at: ms("1969-12-31T03:00:00Z")) == date("1969-12-30"))
        #expect(utc.logicalDate(at: -1) == date("1969-12-31"))
        #expect(DayClock.rfc3339(seconds: -1, utcOffset: 0) == "1969-12-31T23:59:59+00:00")
    }

    /// Spring: Berlin skips 02:00–03:00 on 2026-03-29. A day starting at 02:30 starts at 03:00.
    @Test func dayStartsAtInTheSkippedHour() {
        let clock = DayClock(dayStartsAt: 2 * 60 + 30, utcOffset: TestZones.berlin)
        #expect(clock.start(of: date("2026-03-29")) == ms("2026-03-29T03:00:00+02:00"))
        #expect(clock.logicalDate(at: ms("2026-03-29T01:59:59+01:00")) == date("2026-03-28"))
        #expect(clock.logicalDate(at: ms("2026-03-29T03:00:00+02:00")) == date("2026-03-29"))
        let four = DayClock(dayStartsAt: 4 * 60, utcOffset: TestZones.berlin)
        #expect(four.start(of: date("2026-03-29")) - four.start(of: date("2026-03-28")) == 23 * 3_600_000)
    }

    /// Autumn: Berlin passes 02:00–03:00 twice on 2026-10-25. A day starting at 02:30 starts at
    /// the first 02:30, and the second 02:15 is still that day.
    /// `Calendar` takes an instant to be on logical date d when it lies in [start(d), start(d+1)):
    /// that must agree with `logicalDate(at:)` everywhere, the days the clock skips or repeats an
    /// hour included.
    @Test func logicalDateAgreesWithTheDaysBounds() {
        for clock in [DayClock(dayStartsAt: 2 * 60 + 30, utcOffset: TestZones.berlin),
                      DayClock(dayStartsAt: 4 * 60, utcOffset: TestZones.berlin),
                      DayClock(dayStartsAt: 0, utcOffset: TestZones.berlin)] {
            for first in ["2026-03-27", "2026-10-23"] {
                var time = ms("\(first)T00:00:00Z")
                for _ in 0..<(4 * 24 * 12) {
                    let date = clock.logicalDate(at: time)
                    #expect(clock.start(of: date) <= time && time < clock.start(of: date.next),
                            "\(time) is on \(date) but outside its bounds")
                    time += 5 * 60_000
                }
            }
        }
    }

    @Test func dayStartsAtInTheRepeatedHour() {
        let clock = DayClock(dayStartsAt: 2 * 60 + 30, utcOffset: TestZones.berlin)
        #expect(clock.start(of: date("2026-10-25")) == ms("2026-10-25T02:30:00+02:00"))
        #expect(clock.logicalDate(at: ms("2026-10-25T02:29:59+02:00")) == date("2026-10-24"))
        #expect(clock.logicalDate(at: ms("2026-10-25T02:45:00+02:00")) == date("2026-10-25"))
        #expect(clock.logicalDate(at: ms("2026-10-25T02:15:00+01:00")) == date("2026-10-25"))
        let four = DayClock(dayStartsAt: 4 * 60, utcOffset: TestZones.berlin)
        #expect(four.start(of: date("2026-10-25")) - four.start(of: date("2026-10-24")) == 25 * 3_600_000)
    }

    /// Every minute around each change of offset: the logical date never goes back, and each
    /// instant lies between the start of its date and the start of the next.
    @Test(arguments: [0, 60, 120, 150, 180, 240, 1439])
    func logicalDatesAreMonotoneAcrossOffsetChanges(dayStartsAt: Int) {
        let zones = [TestZones.berlin, TestZones.newYork]
        let days = ["2026-03-27", "2026-10-23", "2026-03-06", "2026-10-30"]
        for zone in zones {
            let clock = DayClock(dayStartsAt: dayStartsAt, utcOffset: zone)
            for first in days {
                var previous = LogicalDate(ordinal: Int.min)
                let from = ms("\(first)T00:00:00Z")
                for minute in 0..<(5 * 1440) {
                    let now = from + Int64(minute) * 60_000
                    let today = clock.logicalDate(at: now)
                    #expect(today >= previous)
                    #expect(clock.start(of: today) <= now && now < clock.start(of: today.next),
                            "\(DayClock.rfc3339(seconds: now / 1000, utcOffset: zone(now / 1000))) → \(today)")
                    previous = today
                }
            }
        }
    }

    @Test func rfc3339Text() {
        let instant = ms("2026-11-21T19:30:00Z") / 1000
        #expect(DayClock.rfc3339(seconds: instant, utcOffset: 3600) == "2026-11-21T20:30:00+01:00")
        #expect(DayClock.rfc3339(seconds: instant, utcOffset: 0) == "2026-11-21T19:30:00+00:00")
        #expect(DayClock.rfc3339(seconds: instant, utcOffset: -16_200) == "2026-11-21T15:00:00-04:30")
        // Berlin's local mean time, +0:53:28: written +00:53, with the time to match.
        let lmt = DayClock.rfc3339(seconds: instant, utcOffset: 3208)
        #expect(lmt == "2026-11-21T20:23:00+00:53")
        #expect(DayClock.parseRFC3339(lmt) == instant * 1000)
    }

    @Test func rfc3339Parsing() {
        #expect(DayClock.parseRFC3339("1970-01-01T00:00:00Z") == 0)
        #expect(DayClock.parseRFC3339("1970-01-01T01:00:00+01:00") == 0)
        #expect(DayClock.parseRFC3339("1970-01-01t00:00:01z") == 1000)
        #expect(DayClock.parseRFC3339("1970-01-01 00:00:01.5Z") == 1500)
        #expect(DayClock.parseRFC3339("1970-01-01T00:00:01.123456-00:00") == 1123)
        #expect(DayClock.parseRFC3339("1969-12-31T19:00:00-05:00") == 0)
        #expect(DayClock.parseRFC3339("2016-12-31T23:59:60Z") == DayClock.parseRFC3339("2017-01-01T00:00:00Z"))
        for bad in ["", "2026-11-21", "2026-11-21T20:30:00", "2026-11-21T20:30:00+0100",
                    "2026-11-21T20:30:00.Z", "2026-11-21T20:30:00Zjunk", "2026-02-30T00:00:00Z",
                    "2026-11-21T24:00:00Z", "2026-11-21T20:60:00Z", "2026-11-21T20:30:61Z",
                    "2026-11-21X20:30:00Z", "2026-11-21T20:30:00+24:00", "2026-11-21T2:30:00Z"] {
            #expect(DayClock.parseRFC3339(bad) == nil, "\(bad)")
        }
    }
}

/// The clock with the C library's zone: these tests set `TZ`, which is process-wide, so other
/// suites running beside them could see it change. They run only in a `swift test` process of
/// their own, which `make check` starts with `LEITNER_SYSTEM_TZ_TESTS=1`.
@Suite(.serialized, .enabled(if: getenv("LEITNER_SYSTEM_TZ_TESTS") != nil))
struct DayClockSystemZoneTests {
    /// Runs `body` with `TZ` set to `zone`, then restores the previous `TZ`.
    func withZone(_ zone: String, _ body: () -> Void) {
        let saved = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", zone, 1)
        tzset()
        body()
        if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
        tzset()
    }

    @Test(.enabled(if: access("/usr/share/zoneinfo/Europe/Berlin", R_OK) == 0))
    func followsTZ() {
        var texts: [String] = []
        var dates: [LogicalDate] = []
        var starts: [Int64] = []
        withZone("Europe/Berlin") {
            let clock = DayClock(dayStartsAt: 2 * 60 + 30)
            texts.append(DayClock.rfc3339(ms("2026-07-01T12:00:00Z")))
            texts.append(DayClock.rfc3339(ms("2026-01-01T12:00:00Z")))
            dates.append(clock.logicalDate(at: ms("2026-10-25T02:15:00+01:00")))
            starts.append(clock.start(of: date("2026-03-29")))
        }
        #expect(texts == ["2026-07-01T14:00:00+02:00", "2026-01-01T13:00:00+01:00"])
        #expect(dates == [date("2026-10-25")])
        #expect(starts == [ms("2026-03-29T03:00:00+02:00")])
    }

    @Test func utcFromTZ() {
        var text = ""
        var today = LogicalDate(ordinal: 0)
        withZone("UTC0") {
            text = DayClock.rfc3339(ms("2026-07-01T12:00:00.250Z"))
            today = DayClock().logicalDate(at: ms("2026-07-02T03:00:00Z"))
        }
        #expect(text == "2026-07-01T12:00:00+00:00")
        #expect(today == date("2026-07-01"))
    }
}
