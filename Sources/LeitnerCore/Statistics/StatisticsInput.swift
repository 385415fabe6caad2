/// What the statistics are computed from besides the review log's totals: the day record, the
/// cycle, today's levels and test, and the windows asked for. The clock is in `today`, so that
/// a test computes the figures of any day.
public struct StatisticsInput: Sendable {
    public var today: LogicalDate
    /// The box's first logical date: days before it are `none`, counted nowhere.
    public var firstDate: LogicalDate
    public var days: DayRecord
    public var cycle: CycleTable
    public var onFail: OnFailPolicy
    /// Cards per level now (damaged cards left out, R21).
    public var counts: [Level: Int]
    public var damaged: Int
    public var loose: Int
    /// The queue of today's open test, by the level each card is in; nil when today's test is
    /// completed (the forecast then starts tomorrow).
    public var openQueue: [Level: Int]?
    /// The level a card is in now; nil when it is no longer in the box.
    public var levelOf: @Sendable (String) -> Level?
    /// Days in the recent windows (retention, work) and in the leech window; leeches to list.
    public var window: Int
    public var leechWindow: Int
    public var leechCount: Int
    /// The new cards expected into level 1 day by day (R23); nil when none waits.
    public var arrivals: ArrivalForecast?

    public init(today: LogicalDate, firstDate: LogicalDate, days: DayRecord, cycle: CycleTable = .standard,
                onFail: OnFailPolicy = .first, counts: [Level: Int], damaged: Int = 0, loose: Int = 0,
                openQueue: [Level: Int]?, levelOf: @escaping @Sendable (String) -> Level?,
                window: Int = 30, leechWindow: Int = 90, leechCount: Int = 10) {
        self.today = today
        self.firstDate = firstDate
        self.days = days
        self.cycle = cycle
        self.onFail = onFail
        self.counts = counts
        self.damaged = damaged
        self.loose = loose
        self.openQueue = openQueue
        self.levelOf = levelOf
        self.window = window
        self.leechWindow = leechWindow
        self.leechCount = leechCount
    }
}
