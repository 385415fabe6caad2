/// One day of the statistics (`io.leitner.Box` type `StatsDay`): its state in the day record
/// and the work done on it.
public struct StatsDay: Sendable, Equatable {
    public var date: LogicalDate
    /// As in `Calendar`: completed, skipped, missed, today, upcoming, or none before the box.
    public var state: CalendarDay.State
    /// Grades not undone, repeats of a failed card included.
    public var reviews: Int
    /// Time spent answering: the sum of those grades' answer times, in milliseconds.
    public var answerMs: Int

    public init(date: LogicalDate, state: CalendarDay.State, reviews: Int, answerMs: Int) {
        self.date = date
        self.state = state
        self.reviews = reviews
        self.answerMs = answerMs
    }
}
