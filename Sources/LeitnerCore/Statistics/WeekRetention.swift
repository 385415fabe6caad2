/// Retention of one level over one week, Monday to Sunday (`io.leitner.Box` type
/// `WeekRetention`): the chart of retention over time.
public struct WeekRetention: Sendable, Equatable {
    /// The week's Monday.
    public var week: LogicalDate
    public var level: Level
    /// First answers in a test that week at this level, and the right ones among them.
    public var answers: Int
    public var right: Int

    public init(week: LogicalDate, level: Level, answers: Int, right: Int) {
        self.week = week
        self.level = level
        self.answers = answers
        self.right = right
    }
}
