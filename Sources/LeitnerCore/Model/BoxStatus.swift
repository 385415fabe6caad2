/// What `Status` answers.
public struct BoxStatus: Sendable, Equatable {
    public var today: LogicalDate
    public var test: TestSummary
    /// Cards per level, every level present (zero included); damaged cards not counted (R21).
    public var counts: [Level: Int]
    /// Damaged cards and other problems known so far (R21); `doctor` finds all.
    public var problems: Int
    /// The time of the last change in the review log (milliseconds since the Unix epoch) when
    /// the clock reads earlier than it by more than `BoxStatus.clockTolerance`: the clock was set
    /// back, and today's date and test follow it. Nil otherwise.
    public var clockBehind: Int64?

    /// How far the clock may read earlier than the last change before `Status` says so: a clock
    /// adjusted by a few milliseconds is not worth a word.
    public static let clockTolerance: Int64 = 1000

    public init(today: LogicalDate, test: TestSummary, counts: [Level: Int], problems: Int, clockBehind: Int64? = nil) {
        self.today = today
        self.test = test
        self.counts = counts
        self.problems = problems
        self.clockBehind = clockBehind
    }
}
