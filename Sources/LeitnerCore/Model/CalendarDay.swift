/// One calendar day (`io.leitner.Box` type `Day`).
public struct CalendarDay: Sendable, Equatable {
    public enum State: String, Sendable {
        case completed, skipped, missed, today, upcoming
        /// Before the box's first logical date: counted nowhere.
        case none
    }
    public var date: LogicalDate
    public var state: State
    public var levels: [Level]
    /// Past days: distinct cards graded that day. Today and upcoming: cards in its levels now.
    public var cards: Int
    /// New cards admitted into level 1 that day (R23): past days and today as this device's log
    /// counts them, with today's admissions still to come; upcoming days forecast, `NewPerDay=`
    /// a day until `new/` is empty (`ArrivalForecast`). nil from a daemon that does not count them.
    public var arrivals: Int?

    public init(date: LogicalDate, state: State, levels: [Level], cards: Int) {
        self.date = date
        self.state = state
        self.levels = levels
        self.cards = cards
    }
}
