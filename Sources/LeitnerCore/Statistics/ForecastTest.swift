/// One test of the forecast (`io.leitner.Box` type `ForecastTest`): the cards expected in it if
/// every day's test is done.
public struct ForecastTest: Sendable, Equatable {
    public var date: LogicalDate
    /// Its cycle position (not reduced modulo the table's length).
    public var position: Int
    public var levels: [Level]
    /// Cards expected in its queue, rounded.
    public var cards: Int

    public init(date: LogicalDate, position: Int, levels: [Level], cards: Int) {
        self.date = date
        self.position = position
        self.levels = levels
        self.cards = cards
    }
}
