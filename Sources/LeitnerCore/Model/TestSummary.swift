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
    /// Cards in the queue answered wrong in this test: they come back until answered right.
    public var repeating: Int
    /// Cards in transit in the store: a sync tool is moving them (docs/sync.md, "A store a sync
    /// tool is changing"); while one of the queue is, the test waits for it.
    public var syncing: Int

    /// How far the test has come, as every view says it (docs/rules.md, "How far you are",
    /// beside R10): its cards done of its cards. A card is done once answered right in this
    /// test; a card answered wrong counts once, and is done when answered right again.
    public var done: Int { passed }

    /// The test's cards, each once: those done and those still in the queue.
    public var cards: Int { passed + remaining }

    public init(date: LogicalDate, position: Int, levels: [Level], state: TestState,
                remaining: Int, passed: Int, failed: Int, repeating: Int = 0, syncing: Int = 0) {
        self.date = date
        self.position = position
        self.levels = levels
        self.state = state
        self.remaining = remaining
        self.passed = passed
        self.failed = failed
        self.repeating = repeating
        self.syncing = syncing
    }
}
