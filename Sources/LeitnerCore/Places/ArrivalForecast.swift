/// When the cards waiting in `new/` are expected in level 1 (R23): the next admissions on
/// `first`, then `NewPerDay=` each day until none waits. A forecast: cards added, moved or
/// suspended meanwhile change it, and it assumes a test opens every day.
public struct ArrivalForecast: Sendable, Equatable {
    /// The date of the next admissions and the cards they bring.
    public var first: LogicalDate
    public var firstCards: Int
    /// Cards waiting in `new/` now.
    public var waiting: Int
    /// `NewPerDay=`; nil (`all`): every card waiting comes on `first`.
    public var perDay: Int?

    public init(first: LogicalDate, firstCards: Int, waiting: Int, perDay: Int?) {
        self.first = first
        self.firstCards = firstCards
        self.waiting = waiting
        self.perDay = perDay
    }

    /// The cards expected to arrive on `date`: none before `first`; after it, `perDay` a day
    /// from what `first` left, until none is left.
    public func cards(on date: LogicalDate) -> Int {
        if date < first { return 0 }
        if date == first { return firstCards }
        guard let perDay, perDay > 0 else { return 0 }
        // Whole days of `perDay` from what `first` left, then the rest; by division, so that a
        // date years away and a large NewPerDay= cannot overflow.
        let left = max(0, waiting - firstCards)
        let daysAfter = date.ordinal - first.ordinal
        let fullDays = left / perDay
        if daysAfter <= fullDays { return perDay }
        return daysAfter == fullDays + 1 ? left % perDay : 0
    }
}
