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

    public init(date: LogicalDate, state: State, levels: [Level], cards: Int) {
        self.date = date
        self.state = state
        self.levels = levels
        self.cards = cards
    }
}
