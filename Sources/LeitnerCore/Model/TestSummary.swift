/// A test as the box describes it (`io.leitner.Box` type `Test`).
public struct TestSummary: Sendable, Equatable {
    /// The logical date the test is open on (today), or was completed on.
    public var date: LogicalDate
    /// The cycle position, not reduced modulo the table length.
    public var position: Int
    /// The levels of its table entry, in the table's order.
    public var levels: [Level]
    public var state: TestState
    /// Cards in the queue.
    public var remaining: Int
    /// Distinct cards with a correct grade in this test (not undone).
    public var passed: Int
    /// Distinct cards with a wrong grade in this test (not undone).
    public var failed: Int

    public init(date: LogicalDate, position: Int, levels: [Level], state: TestState,
                remaining: Int, passed: Int, failed: Int) {
        self.date = date
        self.position = position
        self.levels = levels
        self.state = state
        self.remaining = remaining
        self.passed = passed
        self.failed = failed
    }
}
