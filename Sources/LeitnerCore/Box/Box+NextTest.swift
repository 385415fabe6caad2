/// The next test with cards: one answer to "when am I asked next, and how many cards" (#35),
/// which `Status` gives.
extension Box {
    /// How far ahead the next test is looked for: a year, beyond any gap of a cycle while level
    /// 1 holds cards or new cards wait (level 1 is in every entry of the standard table).
    static let nextTestHorizon = 366

    /// Today's test while it has cards to go, counting the new cards its opening admits (R23);
    /// else the first later day whose levels hold cards now or receive new ones by then, the
    /// days' levels as the calendar forecasts them (the entry after today's, one a day). The
    /// cards in the levels now are counted as they are: a forecast of what the answers will do
    /// is `Stats`' work, not this. Nil when no test within `nextTestHorizon` days has a card.
    /// - Parameter forecast: the new cards' arrivals (`arrivalForecast`).
    func nextTest(_ moment: Moment, _ current: TestSummary, forecast: ArrivalForecast?) -> NextTest? {
        let counts = store.counts()
        func inLevels(_ levels: [Level]) -> Int { levels.reduce(0) { $0 + (counts[$1] ?? 0) } }
        // Admitted today when the test opens (0 once it has): they are in level 1 from then on,
        // whichever day's test has level 1 next.
        var arrived = forecast?.cards(on: moment.today) ?? 0
        if current.state != .completed {
            let coming = current.levels.contains(.one) ? arrived : 0
            if current.remaining + coming > 0 {
                return NextTest(date: moment.today, levels: current.levels, cards: current.remaining + coming, arrivals: coming)
            }
        }
        var date = moment.today
        for ahead in 1...Box.nextTestHorizon {
            date = date.next
            arrived += forecast?.cards(on: date) ?? 0
            let levels = options.cycle.levels(at: current.position + ahead)
            let coming = levels.contains(.one) ? arrived : 0
            let cards = inLevels(levels) + coming
            if cards > 0 { return NextTest(date: date, levels: levels, cards: cards, arrivals: coming) }
        }
        return nil
    }
}
