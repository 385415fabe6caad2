/// `Stats`: the figures of the box's history and schedule (docs/protocol.md).
extension Box {
    /// The statistics of the box today.
    /// - Parameters: `window`: days of the recent windows (retention, work) and of the leeches,
    ///   1 … `BoxStatistics.maxWindow`; nil for 30 days (90 for the leeches). `leeches`: how many
    ///   of the hardest cards to list, 0 … `BoxStatistics.maxLeeches`; nil for 10. `filter`: the
    ///   cards per level and the leeches of the cards it selects by tag only (R25); the work,
    ///   retention and streaks stay the whole box's, as the tests they come from were.
    /// - Throws: `invalidParameter` for a window or a count out of range; `storeFailure` when the
    ///   log cannot be read.
    public func statistics(window: Int?, leeches: Int?, filter: TagFilter = .all) throws(BoxError) -> BoxStatistics {
        if let window, !(1...BoxStatistics.maxWindow).contains(window) {
            throw .invalidParameter(name: "days", reason: "must be 1 to \(BoxStatistics.maxWindow)")
        }
        if let leeches, !(0...BoxStatistics.maxLeeches).contains(leeches) {
            throw .invalidParameter(name: "leeches", reason: "must be 0 to \(BoxStatistics.maxLeeches)")
        }
        let moment = try begin()
        try updateTally()
        var openQueue: [Level: Int]?
        if !completedToday(moment) {
            var byLevel: [Level: Int] = [:]
            if let test = daily.test(at: days.position) {
                byLevel = test.queuedByLevel(in: store.cardLevels)
            } else {
                let counts = store.counts()
                for level in options.cycle.levels(at: days.position) { byLevel[level] = counts[level] ?? 0 }
            }
            openQueue = byLevel
        }
        let levelOf = store.cardLevels
        let damaged = store.damagedCards
        let selected = filter.isEmpty ? nil : try selectedIDs(filter)
        var counts = store.counts()
        if let selected {
            counts = [:]
            for id in selected { if damaged[id] == nil, let level = levelOf[id] { counts[level, default: 0] += 1 } }
        }
        var input = StatisticsInput(
            today: moment.today, firstDate: firstDate, days: days, cycle: options.cycle, onFail: options.onFail,
            counts: counts, damaged: damaged.count, loose: store.looseFileProblems().count,
            openQueue: openQueue, levelOf: { id in damaged[id] == nil && selected?.contains(id) != false ? levelOf[id] : nil },
            window: window ?? 30, leechWindow: window ?? 90, leechCount: leeches ?? 10)
        try updatePeerTotals(tallies: true, graded: false)
        // Devices that have graded nothing add nothing: this device's own totals are the box's,
        // with their cards by wrong answers kept between views.
        let peers = statistics.peerTallies.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }.map(\.value)
        let all = peers.isEmpty ? statistics.tally : ReviewTally.combined([statistics.tally] + peers)
        let leechDays = BoxStatistics.leechDays(input)
        let byFailures = peers.isEmpty ? statistics.tally.cardsByFailures(since: leechDays.since, through: leechDays.through) : nil
        // New cards are forecast for the whole box only: which of a tag's cards `new/` admits
        // when is not known without sorting all of new/ (R23, R25).
        input.arrivals = selected == nil ? try arrivalForecast(moment) : nil
        var figures = BoxStatistics(tally: all, input: input, cardsByFailures: byFailures)
        // The leeches by LeechAfter= (R24) of the cards the filter selects, damaged ones left out
        // as the counts leave them out; at most `maxLeeches`, the worst, so that the reply stays
        // bounded (`Status` counts them all).
        let marked = try self.leeches().filter { damaged[$0.id] == nil && selected?.contains($0.id) != false }
        figures.leechCards = Array(marked.prefix(BoxStatistics.maxLeeches))
        figures.leechAfter = options.leechAfter
        return figures
    }

    /// `tally`, brought up to date with the log (read afresh if the log was cut short).
    func updateTally() throws(BoxError) {
        if statistics.tally.logOffset > store.log.size { statistics.tally = ReviewTally() }
        let dayClock = options.dayClock
        try store.log.forEachEntry(from: statistics.tally.logOffset) { entry, end in
            statistics.tally.take(entry, dayClock: dayClock)
            statistics.tally.logOffset = end
        }
    }
}
