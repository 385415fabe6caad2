/// What `Stats` and `Calendar` keep between requests so that each reads only the log lines
/// appended since the last: this device's running totals and graded days, and each other
/// device's (docs/sync.md). Each is good up to its `logOffset`; a log replaced under the box
/// keeps them only up to the bytes the new log shares with the old (`forget(past:)`).
struct StatisticsCache {
    /// The review log's running totals, for `Stats`; read from the log on first use.
    var tally = ReviewTally()
    /// Cards graded on past days, for `Calendar`; read from the log on first use.
    var gradedDays = GradedDays()
    /// The other devices' running totals and graded days, by device (`Box.updatePeerTotals`).
    var peerTallies: [String: ReviewTally] = [:]
    var peerGradedDays: [String: GradedDays] = [:]
    /// For each device whose graded days were taken from their file (`GradedDays.fileName`),
    /// the log offset they were last kept at.
    var gradedKept: [String: Int] = [:]

    /// Drops this device's totals read past `offset` of its log: they are read again.
    mutating func forget(past offset: Int) {
        if tally.logOffset > offset { tally = ReviewTally() }
        if gradedDays.logOffset > offset { gradedDays = GradedDays() }
    }
}
