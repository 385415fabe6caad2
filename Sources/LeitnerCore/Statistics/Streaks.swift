/// Runs of days with the test done (`io.leitner.Box` type `Streaks`). A streak counts the
/// completed days of a run; a skipped day (nothing was due, R6) neither counts nor ends it; a
/// missed day ends it, and so does the box's first day (nothing before it). Today ends nothing
/// while its test is still open.
public struct Streaks: Sendable, Equatable {
    /// The run that reaches today (or yesterday, while today's test is open); 0 when a missed
    /// day came last.
    public var current: Int
    /// The longest run since the box's first day.
    public var longest: Int
    /// The last completed day of the longest run (the latest, if two are as long); nil when none.
    public var longestEnd: LogicalDate?

    public init(current: Int, longest: Int, longestEnd: LogicalDate?) {
        self.current = current
        self.longest = longest
        self.longestEnd = longestEnd
    }
}
