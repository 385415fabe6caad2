/// When the learner is next asked for cards, and how many (`Status`'s `next`): the one answer
/// that the review's end, `status`, `boxes` and the web's pages give (#35), so that they never
/// disagree about a day or a count.
public struct NextTest: Sendable, Equatable {
    /// Its logical date: today while today's test has cards to go or new cards to take in.
    public var date: LogicalDate
    /// The levels of its table entry (R2).
    public var levels: [Level]
    /// The cards it is expected to hold: those in its levels now, and, when level 1 is one of
    /// them, the new cards admitted into level 1 by then (R23).
    public var cards: Int
    /// Of `cards`, those that come from `new/`.
    public var arrivals: Int

    public init(date: LogicalDate, levels: [Level], cards: Int, arrivals: Int) {
        self.date = date
        self.levels = levels
        self.cards = cards
        self.arrivals = arrivals
    }
}
