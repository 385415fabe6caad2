/// A subset of the test (R26): `Next` with a filter shows the first queued card the filter
/// selects. The others keep their places in the queue, and the test completes only when the
/// whole queue is empty (R10): grading goes through `grade` as always, so nothing about R2–R11
/// changes.
extension Box {
    /// The first card of the queue, in the queue's order, that is in one of `levels` (any
    /// level when empty) and that `filter` selects by its tags; nil when none is. `outside`:
    /// the cards of the queue the filter leaves out, for the review's summary.
    /// - Throws: as `next()`.
    public func next(filter: TagFilter, levels: [Level]) throws(BoxError) -> (card: Card?, test: TestSummary, outside: Int) {
        if filter.isEmpty && levels.isEmpty {
            let (card, test) = try next()
            return (card, test, 0)
        }
        let moment = try begin()
        let completed = completedToday(moment)
        // Before the test opens: a daemon building the tag table off the turn fails the call
        // here, before it changes anything, and makes it again (`currentTagTable`).
        let selected = filter.isEmpty || completed ? nil : try selectedIDs(filter)
        // R23: the day opens, also when its test was completed before (by a move, say).
        try openTest(moment)
        if completed { return (nil, summary(moment), 0) }
        let wanted = Set(levels)
        func selects(_ id: String) -> Bool {
            guard let level = store.level(of: id), wanted.isEmpty || wanted.contains(level) else { return false }
            return selected?.contains(id) ?? true
        }
        let queue = daily.test?.queue ?? []
        var shown: Card?
        for id in queue where selects(id) && !isInTransit(id) {
            do {
                shown = try store.card(id, withText: true)
                break
            } catch {
                // Damaged (now recorded as such) or gone: it leaves the queue, as in `next()`.
                daily.levelChanged(id, to: nil)
            }
        }
        if daily.isDone { try complete(moment) }
        if let head = shown { shown = apart(head, selecting: selects) }
        if let shown { lastShown = shown }
        let outside = (daily.test?.queue ?? []).count { !selects($0) }
        return (shown, summary(moment), outside)
    }
}
