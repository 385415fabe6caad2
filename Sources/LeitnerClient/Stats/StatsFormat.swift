import LeitnerCore

/// How the statistics' numbers read, the same in the terminal and in the HTML report.
public enum StatsFormat {
    static let weekdays = LogicalDate.weekdayAbbreviations
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// A time spent: `45 s`, `14 min`, `1 h 12 min`.
    public static func duration(ms: Int) -> String {
        let seconds = (ms + 500) / 1000
        if seconds < 60 { return "\(seconds) s" }
        let minutes = (seconds + 30) / 60
        if minutes < 60 { return "\(minutes) min" }
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }

    /// A share in whole percent, `83%`; `-` with no answers.
    public static func percent(_ part: Int, of whole: Int) -> String {
        whole == 0 ? "-" : "\(Int((Double(part) * 100 / Double(whole)).rounded()))%"
    }

    /// `Tue 24 Nov`
    public static func day(_ date: LogicalDate) -> String {
        "\(weekdays[date.weekday]) \(date.components.day) \(months[date.components.month - 1])"
    }

    /// `Nov`
    public static func month(_ date: LogicalDate) -> String { months[date.components.month - 1] }

    /// `1 review`, `3 reviews`.
    public static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// What the heatmap shades by: the reviews of each day with any, in four steps by the
    /// quartiles of those days (so that one huge day does not wash the rest out). 0: none.
    static func shade(_ reviews: Int, thresholds: [Int]) -> Int {
        guard reviews > 0 else { return 0 }
        return 1 + thresholds.filter { reviews > $0 }.count
    }

    /// The 25th, 50th and 75th percentiles of the days with reviews.
    static func thresholds(_ days: [StatsDay]) -> [Int] {
        let counts = days.map(\.reviews).filter { $0 > 0 }.sorted()
        guard !counts.isEmpty else { return [0, 0, 0] }
        return [1, 2, 3].map { counts[(counts.count - 1) * $0 / 4] }
    }

    /// "140 new cards arrive from new/ in these tests, 20 a day, the last on Sat 5 Dec": the
    /// forecast's arrivals (R23) in words; nil when none arrives (or the daemon does not say).
    public static func arrivals(_ tests: [ForecastTest]) -> String? {
        let arriving = tests.filter { ($0.arrivals ?? 0) > 0 }
        guard let last = arriving.last else { return nil }
        let total = arriving.reduce(0) { $0 + ($1.arrivals ?? 0) }
        let most = arriving.map { $0.arrivals ?? 0 }.max() ?? 0
        return "\(count(total, "new card")) arrive\(total == 1 ? "s" : "") from new/ in these tests"
            + (arriving.count > 1 ? ", up to \(most) a day" : "") + ", the last on \(day(last.date))"
            + (last.date == tests.last?.date ? " (more after)" : "") + "; counted in level 1's cards"
    }
}
