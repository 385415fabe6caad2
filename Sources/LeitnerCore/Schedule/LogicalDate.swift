/// A calendar date (`YYYY-MM-DD`, proleptic Gregorian), stored as days since 1970-01-01.
/// Logical dates (docs/rules.md) are dates of `now − DayStartsAt`; see `DayClock`.
public struct LogicalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public var ordinal: Int

    public init(ordinal: Int) { self.ordinal = ordinal }

    /// The date of a year, month (1–12) and day (1–31); nil when the day does not exist.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= LogicalDate.daysIn(month: month, year: year) else {
            return nil
        }
        // Days from civil: shift the year to start in March so that February is last.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = (month + 9) % 12
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        ordinal = era * 146_097 + dayOfEra - 719_468
    }

    /// Parses `YYYY-MM-DD`; nil for anything else or a day that does not exist.
    public init?(_ text: some StringProtocol) {
        self.init(Array(text.utf8)[...])
    }

    /// Parses `YYYY-MM-DD` from UTF-8 bytes.
    init?(_ bytes: ArraySlice<UInt8>) {
        let start = bytes.startIndex
        guard bytes.count == 10, bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                let byte = bytes[start + i]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// Year, month (1–12) and day of the month.
    public var components: (year: Int, month: Int, day: Int) {
        let z = ordinal + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Day of the week, 0 = Monday … 6 = Sunday (ISO 8601).
    public var weekday: Int { ((ordinal % 7) + 7 + 3) % 7 }

    /// `YYYY-MM-DD`.
    public var description: String {
        let (y, m, d) = components
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
        }
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))"
    }

    /// The date `days` later (earlier when negative).
    public func adding(days: Int) -> LogicalDate { LogicalDate(ordinal: ordinal + days) }

    /// The day after.
    public var next: LogicalDate { adding(days: 1) }

    /// The day before.
    public var previous: LogicalDate { adding(days: -1) }

    public static func < (a: LogicalDate, b: LogicalDate) -> Bool { a.ordinal < b.ordinal }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
