import Testing
@testable import LeitnerCore
@testable import LeitnerSystem

/// Dates as the day record, the log's `date=` and the protocol write them, `YYYY-MM-DD`
/// (docs/store-format.md, docs/protocol.md), and the day counting the schedule does with them.
@Suite struct LogicalDateTests {
    /// Days in a month by the Gregorian rule, written apart from the type under test.
    func daysIn(_ month: Int, _ year: Int) -> Int {
        let leap = year % 400 == 0 || (year % 4 == 0 && year % 100 != 0)
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    func text(_ y: Int, _ m: Int, _ d: Int) -> String {
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))"
    }

    // MARK: Parsing and formatting

    /// Ordinals checked against another calendar implementation (Python's `datetime`).
    @Test(arguments: [
        ("1970-01-01", 0), ("1969-12-31", -1), ("2000-03-01", 11_017), ("2026-11-21", 20_778),
        ("1900-01-01", -25_567), ("2100-12-31", 47_846), ("0001-01-01", -719_162), ("9999-12-31", 2_932_896),
    ] as [(String, Int)])
    func knownDatesHaveTheirOrdinals(_ text: String, _ ordinal: Int) throws {
        let date = try #require(LogicalDate(text))
        #expect(date.ordinal == ordinal)
        #expect(LogicalDate(ordinal: ordinal).description == text)
    }

    @Test func componentsAreYearMonthDay() throws {
        let date = try #require(LogicalDate("2026-11-21"))
        #expect(date.components == (2026, 11, 21))
        #expect(LogicalDate(year: 2026, month: 11, day: 21) == date)
        #expect(LogicalDate(ordinal: -1).components == (1969, 12, 31))
    }

    /// Every day of three centuries, each counted by hand: the text parses to the next ordinal,
    /// and the ordinal formats to the text.
    @Test func everyDayFrom1900To2100RoundTrips() throws {
        var ordinal = try #require(LogicalDate("1900-01-01")).ordinal
        for year in 1900...2100 {
            for month in 1...12 {
                for day in 1...daysIn(month, year) {
                    let expected = text(year, month, day)
                    let parsed = LogicalDate(expected)
                    guard parsed?.ordinal == ordinal else {
                        Issue.record("\(expected) parsed to \(String(describing: parsed?.ordinal)), not \(ordinal)")
                        return
                    }
                    guard LogicalDate(ordinal: ordinal).description == expected else {
                        Issue.record("\(ordinal) formatted as \(LogicalDate(ordinal: ordinal)), not \(expected)")
                        return
                    }
                    ordinal += 1
                }
            }
        }
        #expect(LogicalDate(ordinal: ordinal).description == "2101-01-01")
    }

    @Test func smallYearsArePaddedToFourDigits() {
        #expect(LogicalDate(year: 5, month: 3, day: 7)?.description == "0005-03-07")
        #expect(LogicalDate("0005-03-07") == LogicalDate(year: 5, month: 3, day: 7))
        #expect(LogicalDate("0000-03-01")?.description == "0000-03-01")
    }

    @Test func parsesFromAnySliceOfText() {
        let line = "date=2026-11-20\tmore"
        let slice = line.dropFirst(5).prefix(10)
        #expect(LogicalDate(slice)?.description == "2026-11-20")
        let bytes = Array(line.utf8)
        #expect(LogicalDate(bytes[5..<15])?.description == "2026-11-20", "a slice not starting at 0")
    }

    // MARK: Invalid dates

    @Test(arguments: [
        "2026-02-30", "2026-02-29", "2025-02-29", "1900-02-29", "2100-02-29",
        "2026-04-31", "2026-06-31", "2026-09-31", "2026-11-31", "2026-01-32",
        "2026-13-01", "2026-00-10", "2026-01-00", "2026-99-99",
    ])
    func daysThatDoNotExistAreRefused(_ text: String) {
        #expect(LogicalDate(text) == nil)
    }

    @Test func theLastDayOfEachMonthExists() {
        for text in ["2026-01-31", "2026-02-28", "2024-02-29", "2000-02-29", "2026-04-30", "2026-12-31"] {
            #expect(LogicalDate(text)?.description == text)
        }
    }

    @Test(arguments: [
        "", "garbage", "abcd-ef-gh", "2026-1-01", "2026-01-1", "26-01-01", "2026/01/01", "2026.01.01",
        "20260101", " 2026-01-01", "2026-01-01 ", "2026-01-01\n", "2026-01-01T00:00", "+026-01-01",
        "-026-01-01", "2026-+1-01", "2026-01-0a", "2026-01--1", "２０２６-01-01", "2026‐01‐01",
    ])
    func textThatIsNotADateIsRefused(_ text: String) {
        #expect(LogicalDate(text) == nil)
    }

    @Test func componentsOutOfRangeAreRefused() {
        #expect(LogicalDate(year: 2026, month: 0, day: 1) == nil)
        #expect(LogicalDate(year: 2026, month: 13, day: 1) == nil)
        #expect(LogicalDate(year: 2026, month: 1, day: 0) == nil)
        #expect(LogicalDate(year: 2026, month: 2, day: 29) == nil)
        #expect(LogicalDate(year: 2026, month: 1, day: -1) == nil)
    }

    // MARK: Arithmetic

    @Test(arguments: [
        ("2026-01-31", 1, "2026-02-01"), ("2026-02-28", 1, "2026-03-01"), ("2024-02-28", 1, "2024-02-29"),
        ("2024-02-29", 1, "2024-03-01"), ("2000-02-28", 1, "2000-02-29"), ("2100-02-28", 1, "2100-03-01"),
        ("2026-12-31", 1, "2027-01-01"), ("1969-12-31", 1, "1970-01-01"),
        ("2026-03-01", -1, "2026-02-28"), ("2024-03-01", -1, "2024-02-29"), ("2027-01-01", -1, "2026-12-31"),
        ("1970-01-01", -1, "1969-12-31"),
        ("2024-01-01", 366, "2025-01-01"), ("2025-01-01", 365, "2026-01-01"), ("2026-11-21", 64, "2027-01-24"),
        ("2026-11-21", -365, "2025-11-21"), ("2000-01-01", 146_097, "2400-01-01"), ("2026-11-21", 0, "2026-11-21"),
    ] as [(String, Int, String)])
    func addingDaysCrossesMonthsYearsAndLeapDays(_ start: String, _ days: Int, _ expected: String) throws {
        let date = try #require(LogicalDate(start))
        #expect(date.adding(days: days).description == expected)
        #expect(try #require(LogicalDate(expected)).adding(days: -days) == date)
    }

    @Test func nextAndPreviousAreOneDay() throws {
        let date = try #require(LogicalDate("2024-02-29"))
        #expect(date.next.description == "2024-03-01")
        #expect(date.previous.description == "2024-02-28")
        #expect(date.next.previous == date)
    }

    /// The difference of two dates in days is the difference of their ordinals.
    @Test func dayDifferences() throws {
        func days(_ a: String, _ b: String) throws -> Int {
            try #require(LogicalDate(b)).ordinal - #require(LogicalDate(a)).ordinal
        }
        #expect(try days("2024-01-01", "2025-01-01") == 366)
        #expect(try days("2025-01-01", "2026-01-01") == 365)
        #expect(try days("2026-02-01", "2026-03-01") == 28)
        #expect(try days("2024-02-01", "2024-03-01") == 29)
        #expect(try days("1900-02-01", "1900-03-01") == 28)
        #expect(try days("2000-02-01", "2000-03-01") == 29)
        #expect(try days("2026-11-21", "2026-11-14") == -7)
        #expect(try days("1601-01-01", "2001-01-01") == 146_097, "400 Gregorian years")
    }

    // MARK: Order

    @Test func orderIsTheCalendarsOrder() throws {
        let texts = ["2026-11-21", "1969-12-31", "2026-11-20", "2027-01-01", "2026-02-28", "1970-01-01", "2026-12-01"]
        let dates = try texts.map { try #require(LogicalDate($0)) }
        // YYYY-MM-DD sorts as text in the order of the calendar.
        #expect(dates.sorted().map(\.description) == texts.sorted())
        #expect(try #require(LogicalDate("2026-11-20")) < #require(LogicalDate("2026-11-21")))
        #expect(try !(#require(LogicalDate("2026-11-21")) < #require(LogicalDate("2026-11-21"))))
        #expect(try #require(LogicalDate("2026-12-31")) < #require(LogicalDate("2027-01-01")))
    }

    @Test func equalDatesAreOneKey() throws {
        let a = try #require(LogicalDate("2026-11-21"))
        let b = try #require(LogicalDate(year: 2026, month: 11, day: 21))
        let c = try #require(LogicalDate("2026-11-22"))
        #expect(Set([a, b, c]).count == 2)
        #expect(a == b && a != c)
    }

    // MARK: Weekday

    /// 0 is Monday, 6 Sunday. 1970-01-01 was a Thursday; dates before it count back correctly.
    @Test(arguments: [
        ("1970-01-01", 3), ("1969-12-31", 2), ("1969-12-29", 0), ("1969-12-28", 6),
        ("2026-11-21", 5), ("2026-11-23", 0), ("2000-02-29", 1), ("1900-01-01", 0),
    ] as [(String, Int)])
    func weekdays(_ text: String, _ weekday: Int) throws {
        #expect(try #require(LogicalDate(text)).weekday == weekday)
    }
}
