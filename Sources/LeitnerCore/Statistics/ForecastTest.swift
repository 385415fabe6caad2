/// One test of the forecast (`io.leitner.Box` type `ForecastTest`): the cards expected in it if
/// every day's test is done.
public struct ForecastTest: Sendable, Equatable {
    public var date: LogicalDate
    /// Its cycle position (not reduced modulo the table's length).
    public var position: Int
    public var levels: [Level]
    /// Cards expected in its queue, rounded.
    public var cards: Int
    /// New cards expected into level 1 that day (R23), counted in `cards` when level 1 is in
    /// the test; nil from a daemon that does not forecast them.
    public var arrivals: Int?

    public init(date: LogicalDate, position: Int, levels: [Level], cards: Int) {
        self.date = date
        self.position = position
        self.levels = levels
        self.cards = cards
    }
}
