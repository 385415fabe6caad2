/// The state of a test (`io.leitner.Box` type `Test.state`).
public enum TestState: String, Sendable {
    case open, completed, empty
}

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

/// What `Status` answers.
public struct BoxStatus: Sendable, Equatable {
    public var today: LogicalDate
    public var test: TestSummary
    /// Cards per level, every level present (zero included); damaged cards not counted (R21).
    public var counts: [Level: Int]
    /// Damaged cards and other problems known so far (R21); `doctor` finds all.
    public var problems: Int
}

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
}

/// A problem found in the store (R14 lone halves, R21 damaged cards, leftovers).
public struct StoreProblem: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// A card directory without exactly one front and one back, or with an unreadable asset.
        case damagedCard
        /// Half of a loose pair, or a loose pair that cannot be adopted (R14).
        case loosePair
        /// A card id that is also found in another level (R18).
        case duplicateCard
        /// A symbolic link leading out of the store (R22).
        case outsideLink
        /// An entry in a level directory that is not a card.
        case strayEntry
        /// A damaged line or file of the box's own state in `.leitner/` (the log, the open test).
        case damagedState
    }
    public var kind: Kind
    /// The path of the entry.
    public var path: String
    /// What is wrong.
    public var reason: String
    /// What the user can do about it.
    public var advice: String

    public init(kind: Kind, path: String, reason: String, advice: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
        self.advice = advice
    }
}
