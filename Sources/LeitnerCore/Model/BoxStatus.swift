/// What `Status` answers.
public struct BoxStatus: Sendable, Equatable {
    public var today: LogicalDate
    public var test: TestSummary
    /// Cards per level, every level present (zero included); damaged cards not counted (R21).
    public var counts: [Level: Int]
    /// Damaged cards and other problems known so far (R21); `doctor` finds all.
    public var problems: Int

    public init(today: LogicalDate, test: TestSummary, counts: [Level: Int], problems: Int) {
        self.today = today
        self.test = test
        self.counts = counts
        self.problems = problems
    }
}
