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
    /// R23: the new cards the next admissions bring from `new/` into level 1, and their logical
    /// date (today while the day's test has not opened, else the next); nil when none wait.
    public var arrivals: (date: LogicalDate, cards: Int)?
    /// R24: the cards that are leeches now (`LeechAfter=`); nil from a daemon that does not say.
    public var leeches: Int?
    /// The next test with cards (today's while it has some to go), counting the new cards
    /// admitted by then; nil when none within a year has a card, or from an older daemon.
    public var next: NextTest?
    /// Today's week, Monday to Sunday, as `Calendar` gives those days: so that a client showing
    /// today and its week asks once (#35). Empty from an older daemon.
    public var week: [CalendarDay]

    public static func == (a: BoxStatus, b: BoxStatus) -> Bool {
        a.today == b.today && a.test == b.test && a.counts == b.counts && a.problems == b.problems
            && a.clockBehind == b.clockBehind && a.arrivals?.date == b.arrivals?.date
            && a.arrivals?.cards == b.arrivals?.cards && a.leeches == b.leeches && a.next == b.next && a.week == b.week
    }

    /// How far the clock may read earlier than the last change before `Status` says so: a clock
    /// adjusted by a few milliseconds is not worth a word.
    public static let clockTolerance: Int64 = 1000

    public init(today: LogicalDate, test: TestSummary, counts: [Level: Int], problems: Int, clockBehind: Int64? = nil,
                arrivals: (date: LogicalDate, cards: Int)? = nil, leeches: Int? = nil, next: NextTest? = nil,
                week: [CalendarDay] = []) {
        self.week = week
        self.arrivals = arrivals
        self.next = next
        self.leeches = leeches
        self.today = today
        self.test = test
        self.counts = counts
        self.problems = problems
        self.clockBehind = clockBehind
    }
}
