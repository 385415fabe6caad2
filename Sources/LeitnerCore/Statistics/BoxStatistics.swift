/// The figures of `Stats` (docs/protocol.md): the cards by level, the forecast, the year's
/// heatmap, retention, work, streaks and the hardest cards. Bounded whatever the size of the
/// box: fixed-size figures plus the leeches asked for.
public struct BoxStatistics: Sendable, Equatable {
    /// The longest window `Stats` takes, in days.
    public static let maxWindow = 3660
    /// The most leeches `Stats` lists.
    public static let maxLeeches = 1000
    /// Tests in the forecast.
    public static let forecastTests = 30
    /// Weeks in the heatmap and the weekly retention.
    public static let heatmapWeeks = 52

    public var today: LogicalDate
    /// Days in the recent windows of retention and work, today included.
    public var window: Int
    /// Days in the window of the leeches, today included.
    public var leechWindow: Int
    /// Cards per level (every level, zero included); damaged cards are not counted (R21).
    public var counts: [Level: Int]
    /// Damaged cards (R21) and loose files (R14), counted apart.
    public var damaged: Int
    public var loose: Int
    public var forecast: [ForecastTest]
    /// 52 weeks, Monday to Sunday, the last one this week: days after today are `upcoming`.
    public var heatmap: [StatsDay]
    /// Levels 1 to 7.
    public var retention: [LevelRetention]
    /// The weeks of the heatmap, each level with answers that week.
    public var retentionWeeks: [WeekRetention]
    /// The recent window's days, the last one today.
    public var work: [StatsDay]
    /// This week, Monday to today: grades and time spent.
    public var weekReviews: Int
    public var weekAnswerMs: Int
    public var streaks: Streaks
    /// The cards with the most wrong answers in the leech window, most first, then by id.
    public var leeches: [Leech]
    /// Practice (R27) in the recent window, counted apart from the test: answers, wrong ones,
    /// and the time spent on them in milliseconds.
    public var practiceAnswers = 0
    public var practiceWrong = 0
    public var practiceMs = 0
    /// The leeches by `LeechAfter=` (R24): the cards answered wrong that many times since they
    /// last entered levels 1–7 from a place, most first, then by id; `failures` counts those
    /// answers. Beside `leeches`, the hardest cards of the window, which any card may be. nil
    /// from a daemon that does not count them; empty with `LeechAfter=0`.
    public var leechCards: [Leech]?
    /// `LeechAfter=`: the wrong answers that make a card one of `leechCards` (0: off).
    public var leechAfter: Int?

    public init(today: LogicalDate, window: Int, leechWindow: Int, counts: [Level: Int], damaged: Int, loose: Int,
                forecast: [ForecastTest], heatmap: [StatsDay], retention: [LevelRetention],
                retentionWeeks: [WeekRetention], work: [StatsDay], weekReviews: Int, weekAnswerMs: Int,
                streaks: Streaks, leeches: [Leech]) {
        self.today = today
        self.window = window
        self.leechWindow = leechWindow
        self.counts = counts
        self.damaged = damaged
        self.loose = loose
        self.forecast = forecast
        self.heatmap = heatmap
        self.retention = retention
        self.retentionWeeks = retentionWeeks
        self.work = work
        self.weekReviews = weekReviews
        self.weekAnswerMs = weekAnswerMs
        self.streaks = streaks
        self.leeches = leeches
    }
}
