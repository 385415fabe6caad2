/// The figures computed from the review log's totals and the box's state: pure functions of
/// their inputs, so that a test computes each one on a hand-made log.
extension BoxStatistics {
    /// Computes every figure of `Stats`.
    /// - Parameters: `tally`: the review log's totals; `input`: the day record, today's levels
    ///   and test, the windows; `cardsByFailures`: the tally's cards by their wrong answers in
    ///   the leech window (`leechDays`), when kept (`ReviewTally.cardsByFailures(since:through:)`),
    ///   else counted here.
    public init(tally: ReviewTally, input: StatisticsInput, cardsByFailures: [Int: [String]]? = nil) {
        let today = input.today
        let outcomes = Dictionary(input.days.entries.map { ($0.date, $0.outcome) }, uniquingKeysWith: { $1 })
        let completedToday = outcomes[today] == .completed
        func state(_ date: LogicalDate) -> CalendarDay.State {
            if date > today { return .upcoming }
            if date == today { return completedToday ? .completed : .today }
            if date < input.firstDate { return .none }
            switch outcomes[date] {
            case .completed: return .completed
            case .skipped: return .skipped
            case nil: return .missed
            }
        }
        func day(_ date: LogicalDate) -> StatsDay {
            let tally = date > today ? nil : tally.days[date]
            return StatsDay(date: date, state: state(date), reviews: tally?.reviews ?? 0, answerMs: tally?.answerMs ?? 0)
        }

        let monday = today.adding(days: -today.weekday)
        let heatmapStart = monday.adding(days: -7 * (BoxStatistics.heatmapWeeks - 1))
        let heatmap = (0..<7 * BoxStatistics.heatmapWeeks).map { day(heatmapStart.adding(days: $0)) }
        let work = (0..<input.window).map { day(today.adding(days: $0 - input.window + 1)) }
        let week = (0...today.weekday).compactMap { tally.days[monday.adding(days: $0)] }

        let retention = BoxStatistics.retention(tally, since: today.adding(days: 1 - input.window), through: today)
        self.init(today: today, window: input.window, leechWindow: input.leechWindow,
                  counts: Dictionary(uniqueKeysWithValues: Level.allCases.map { ($0, input.counts[$0] ?? 0) }),
                  damaged: input.damaged, loose: input.loose,
                  forecast: BoxStatistics.forecast(input, retention: retention),
                  heatmap: heatmap, retention: retention,
                  retentionWeeks: BoxStatistics.retentionWeeks(tally, from: heatmapStart, through: today),
                  work: work, weekReviews: week.reduce(0) { $0 + $1.reviews },
                  weekAnswerMs: week.reduce(0) { $0 + $1.answerMs },
                  streaks: BoxStatistics.streaks(input),
                  leeches: cardsByFailures.map { BoxStatistics.leeches($0, input) } ?? BoxStatistics.leeches(tally, input))
        for offset in 0..<input.window {
            guard let day = tally.days[today.adding(days: -offset)] else { continue }
            practiceAnswers += day.practiced
            practiceWrong += day.practiceWrong
            practiceMs += day.practiceMs
        }
    }

    /// Per level, first answers in a test and the right ones: from `since` through `through`,
    /// and over the whole log (a grade dated after today by a clock set back included).
    static func retention(_ tally: ReviewTally, since: LogicalDate, through: LogicalDate) -> [LevelRetention] {
        var recent = [Int](repeating: 0, count: 7), recentRight = recent, all = recent, allRight = recent
        for (date, day) in tally.days {
            let inWindow = date >= since && date <= through
            for index in 0..<7 {
                all[index] += day.firstAnswers[index]
                allRight[index] += day.firstRight[index]
                if inWindow {
                    recent[index] += day.firstAnswers[index]
                    recentRight[index] += day.firstRight[index]
                }
            }
        }
        return Level.rotation.enumerated().map { index, level in
            LevelRetention(level: level, recentAnswers: recent[index], recentRight: recentRight[index],
                           answers: all[index], right: allRight[index])
        }
    }

    /// Per week from `from` (a Monday) through `through`, per level with answers that week.
    static func retentionWeeks(_ tally: ReviewTally, from: LogicalDate, through: LogicalDate) -> [WeekRetention] {
        var weeks: [Int: (answers: [Int], right: [Int])] = [:]
        for (date, day) in tally.days where date >= from && date <= through {
            let week = (date.ordinal - from.ordinal) / 7
            var sums = weeks[week] ?? ([Int](repeating: 0, count: 7), [Int](repeating: 0, count: 7))
            for index in 0..<7 {
                sums.answers[index] += day.firstAnswers[index]
                sums.right[index] += day.firstRight[index]
            }
            weeks[week] = sums
        }
        return weeks.keys.sorted().flatMap { week in
            Level.rotation.enumerated().compactMap { index, level -> WeekRetention? in
                let sums = weeks[week]!
                guard sums.answers[index] > 0 else { return nil }
                return WeekRetention(week: from.adding(days: 7 * week), level: level,
                                     answers: sums.answers[index], right: sums.right[index])
            }
        }
    }

    /// The next tests, one a day, each done (R4): from today's levels, the cards of each test's
    /// levels move on as they would if each were answered right with the level's all-time
    /// retention (R9): right, up one level; wrong, down (`OnFail=`) and, once answered right in
    /// the same test, up one from there. A level with no answer yet is taken as always right.
    /// Today's open test counts the cards left in its queue. Each day's new cards (`arrivals`)
    /// come into level 1 first.
    static func forecast(_ input: StatisticsInput, retention: [LevelRetention]) -> [ForecastTest] {
        var cards = Level.rotation.map { Double(input.counts[$0] ?? 0) }
        let share = retention.map { $0.answers > 0 ? Double($0.right) / Double($0.answers) : 1 }
        var position = input.days.position
        var date = input.openQueue == nil ? input.today.next : input.today
        var result: [ForecastTest] = []
        for index in 0..<BoxStatistics.forecastTests {
            let levels = input.cycle.levels(at: position)
            var due = [Double](repeating: 0, count: 7)
            // Today's open test: the cards left in its queue, failed cards of other levels
            // included (R8). The others: every card in their levels.
            let queued = index == 0 ? input.openQueue : nil
            // The day's admissions come into level 1 as its test opens (R23), and join it when
            // level 1 is one of its levels; today's open test has had today's already.
            let arrivals = input.arrivals?.cards(on: date) ?? 0
            cards[0] += Double(arrivals)
            for level in queued.map({ Array($0.keys) }) ?? levels where level.inRotation {
                let slot = level.rawValue - 1
                let joining = level == .one && levels.contains(.one) ? Double(arrivals) : 0
                due[slot] = min(queued.map { Double($0[level] ?? 0) + joining } ?? cards[slot], cards[slot])
            }
            let total = due.reduce(0, +)
            var test = ForecastTest(date: date, position: position, levels: levels, cards: Int(total.rounded()))
            test.arrivals = input.arrivals == nil ? nil : arrivals
            result.append(test)
            for (slot, count) in due.enumerated() where count > 0 {
                let level = Level.rotation[slot]
                let right = count * share[slot]
                cards[slot] -= count
                if level.promoted.inRotation { cards[level.promoted.rawValue - 1] += right }
                let settled = level.demoted(input.onFail).promoted
                if settled.inRotation { cards[settled.rawValue - 1] += count - right }
            }
            position += 1
            date = date.next
        }
        return result
    }

    /// Streaks from the day record (`Streaks` says what counts).
    static func streaks(_ input: StatisticsInput) -> Streaks {
        var run = 0, longest = 0
        var longestEnd: LogicalDate?
        var expected = input.firstDate
        func missed() { run = 0 }
        for entry in input.days.entries where entry.date >= input.firstDate && entry.date <= input.today {
            // Days with no entry between two entries were missed; so was a day before the first entry.
            if entry.date > expected { missed() }
            if entry.outcome == .completed {
                run += 1
                if run >= longest {
                    longest = run
                    longestEnd = entry.date
                }
            }
            expected = entry.date.next
        }
        // Days after the last entry up to yesterday were missed; today ends nothing while open.
        if expected < input.today { missed() }
        return Streaks(current: run, longest: longest, longestEnd: longestEnd)
    }

    /// The leech window's first and last days, as ordinals: the `leechWindow` days to today.
    public static func leechDays(_ input: StatisticsInput) -> (since: Int32, through: Int32) {
        (Int32(truncatingIfNeeded: input.today.ordinal - input.leechWindow + 1), Int32(truncatingIfNeeded: input.today.ordinal))
    }

    /// The cards with the most wrong answers in the leech window still in the box (`leeches(_:_:)`
    /// of the tally's cards by their wrong answers, counted now).
    static func leeches(_ tally: ReviewTally, _ input: StatisticsInput) -> [Leech] {
        let days = leechDays(input)
        return leeches(ReviewTally.cardsByFailures(tally.failures, since: days.since, through: days.through), input)
    }

    /// The cards with the most wrong answers in the leech window still in the box, most first,
    /// then by id, from the cards by their wrong answers in it (`ReviewTally.cardsByFailures`).
    /// Only the cards at or above the N-th count are sorted: at 100,000 cards a sort of every
    /// card answered wrong would cost more than all the other figures together.
    static func leeches(_ cardsByFailures: [Int: [String]], _ input: StatisticsInput) -> [Leech] {
        guard input.leechCount > 0 else { return [] }
        let counts = cardsByFailures.keys.sorted(by: >)
        var leeches: [Leech] = []
        var taken = 0
        // Lower the bar one count at a time until enough cards still in the box are above it.
        for (index, bar) in counts.enumerated() {
            taken += cardsByFailures[bar]!.count
            guard taken >= input.leechCount || index == counts.count - 1 else { continue }
            var candidates = counts[...index].flatMap { count in cardsByFailures[count]!.map { (id: $0, failures: count) } }
            candidates.sort { $0.failures > $1.failures || ($0.failures == $1.failures && $0.id.utf8.lexicographicallyPrecedes($1.id.utf8)) }
            leeches = []
            for candidate in candidates {
                guard leeches.count < input.leechCount else { break }
                if let level = input.levelOf(candidate.id) {
                    leeches.append(Leech(id: candidate.id, failures: candidate.failures, level: level))
                }
            }
            if leeches.count == input.leechCount { break }
        }
        return leeches
    }
}
