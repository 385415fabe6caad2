import LeitnerCore

/// `leitnerctl stats` on one screen: the cards by level, the forecast, the year's heatmap,
/// retention, work, streaks and the hardest cards, fitted to `width`. On a terminal it draws
/// with Unicode blocks and colour (a blue scale and orange, which colour-blind readers tell
/// apart); otherwise (`style` off: not a terminal, or `NO_COLOR`) with plain ASCII characters.
public struct StatsScreen {
    let stats: BoxStatistics
    let style: TextStyle
    let width: Int

    /// - Parameters: `width`: the terminal's columns (40 at least is used).
    public init(_ stats: BoxStatistics, style: TextStyle, width: Int) {
        self.stats = stats
        self.style = style
        self.width = max(40, min(width, 160))
    }

    private var fancy: Bool { style.enabled }
    /// Plain output is ASCII: it goes to files, pipes and mail.
    private var dot: String { fancy ? "·" : "-" }
    /// xterm-256 blues, light to dark, and orange: distinguishable with any colour vision.
    private static let blues = [153, 111, 68, 25]
    private static let orange = 208

    /// Every section, each ended by an empty line.
    public func lines() -> [String] {
        (levels() + forecast() + heatmap() + retention() + work() + streaks() + leeches() + leechCards()).map { $0.trimmingTrailing() }
    }

    /// A section's title in bold and what it shows, dimmed: on one line when it fits, else
    /// wrapped under it.
    private func heading(_ text: String, _ note: String) -> [String] {
        if DisplayWidth.of(text) + 3 + DisplayWidth.of(note) <= width {
            return [style.apply(style.bold, text) + dim(" \(dot) " + note)]
        }
        return [style.apply(style.bold, text)] + wrap(note, columns: width - 2).map { "  " + dim($0) }
    }
    private func dim(_ text: String) -> String { style.apply(style.dim, text) }

    private func pad(_ text: String, _ columns: Int, right: Bool = false) -> String {
        let gap = String(repeating: " ", count: max(0, columns - DisplayWidth.of(text)))
        return right ? gap + text : text + gap
    }

    /// A horizontal bar of `value / maximum` of `columns`, in eighths on a terminal.
    private func bar(_ value: Double, of maximum: Double, columns: Int) -> String {
        guard maximum > 0, columns > 0 else { return "" }
        let eighths = Int((value / maximum * Double(columns * 8)).rounded())
        if !fancy { return String(repeating: "#", count: (eighths + 4) / 8) }
        let partial = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        return String(repeating: "█", count: eighths / 8) + partial[eighths % 8]
    }

    /// Words in lines of at most `columns`.
    private func wrap(_ text: String, columns: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, DisplayWidth.of(line) + 1 + DisplayWidth.of(word) > columns {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return line.isEmpty ? lines : lines + [line]
    }

    // MARK: Sections

    func levels() -> [String] {
        let total = stats.counts.values.reduce(0, +)
        var lines = heading("Cards by level", StatsFormat.count(total, "card"))
        let maximum = Double(stats.counts.values.max() ?? 0)
        let columns = width - 30
        for level in Level.allCases {
            let count = stats.counts[level] ?? 0
            let bar = style.apply(style.color(Self.blues[2]), pad(bar(Double(count), of: maximum, columns: columns), columns))
            lines.append("  " + pad(level.name, 9) + bar + pad(String(count), 8, right: true)
                         + pad(StatsFormat.percent(count, of: total), 6, right: true))
        }
        var apart: [String] = []
        if stats.damaged > 0 { apart.append(StatsFormat.count(stats.damaged, "damaged card")) }
        if stats.loose > 0 { apart.append(StatsFormat.count(stats.loose, "loose file")) }
        if !apart.isEmpty {
            lines += wrap(apart.joined(separator: ", ") + " not counted: see 'leitnerctl doctor'", columns: width - 2)
                .map { "  " + style.apply(style.color(Self.orange), $0) }
        }
        return lines + [""]
    }

    func forecast() -> [String] {
        let tests = stats.forecast
        guard let busiest = tests.max(by: { $0.cards < $1.cards }) else { return [] }
        var lines = heading("Forecast", "cards per test, the next \(tests.count) tests if each day's test is done")
        let maximum = max(1, busiest.cards)
        let step = width >= 8 + 2 * tests.count ? 2 : 1
        let rows = 6
        let axis = String(maximum).count + 1
        for row in (0..<rows).reversed() {
            var line = row == rows - 1 ? pad(String(maximum), axis, right: true) : row == 0 ? pad("0", axis, right: true)
                : String(repeating: " ", count: axis)
            line += fancy ? " │" : " |"
            for test in tests {
                let eighths = Int((Double(test.cards) / Double(maximum) * Double(rows * 8)).rounded())
                let filled = eighths - row * 8
                let cell: String
                if fancy {
                    let blocks = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
                    cell = blocks[max(0, min(8, filled))]
                } else {
                    cell = filled >= 4 ? "#" : " "
                }
                let look = test == busiest ? style.color(Self.orange) : style.color(Self.blues[2])
                line += style.apply(look, cell) + (step == 2 ? " " : "")
            }
            lines.append(line)
        }
        // The day of the month under every seventh test.
        var ruler = ""
        for index in stride(from: 0, to: tests.count, by: 7) {
            ruler += String(repeating: " ", count: max(0, index * step - DisplayWidth.of(ruler)))
            ruler += "\(tests[index].date.components.day)"
        }
        lines.append(String(repeating: " ", count: axis) + (fancy ? " └" : " +") + ruler)
        let busiestText = "from \(StatsFormat.day(tests[0].date)); busiest: \(StatsFormat.day(busiest.date)), "
            + "\(StatsFormat.count(busiest.cards, "card")) (levels \(busiest.levels.map(\.name).joined(separator: ",")))"
        lines += wrap(busiestText, columns: width - 2).map { "  " + $0 }
        if let arrivals = StatsFormat.arrivals(tests) { lines += wrap(arrivals, columns: width - 2).map { "  " + $0 } }
        // 'calendar' counts the cards in each day's levels now; this moves them on first.
        lines += wrap("Each test's cards as expected once the tests before it are done, the cards moving up with "
                      + "each level's retention; 'leitnerctl calendar' counts the cards in each day's levels now.",
                      columns: width - 2).map { "  " + style.apply(style.dim, $0) }
        return lines + [""]
    }

    func heatmap() -> [String] {
        let weeks = min(stats.heatmap.count / 7, max(4, width - 8))
        let days = Array(stats.heatmap.suffix(weeks * 7))
        guard let first = days.first else { return [] }
        let thresholds = StatsFormat.thresholds(days)
        let reviewed = days.filter { $0.reviews > 0 }
        var lines = heading("The last \(weeks) weeks", "\(StatsFormat.count(reviewed.reduce(0) { $0 + $1.reviews }, "review")) on \(StatsFormat.count(reviewed.count, "day"))")
        // Month names over the week in which each month starts.
        var months = ""
        for week in 0..<weeks {
            let monday = first.date.adding(days: 7 * week)
            let starts = (0..<7).contains { monday.adding(days: $0).components.day == 1 }
            if starts, months.isEmpty || DisplayWidth.of(months) < week {
                months += String(repeating: " ", count: week - DisplayWidth.of(months)) + StatsFormat.month(monday.adding(days: 6))
            }
        }
        lines.append("      " + months)
        for weekday in 0..<7 {
            var line = "  " + pad(weekday % 2 == 0 ? StatsFormat.weekdays[weekday] : "", 4)
            for week in 0..<weeks { line += cell(days[week * 7 + weekday], thresholds: thresholds) }
            lines.append(line.trimmingTrailing())
        }
        let legend = fancy
            // Commas between the entries: a `·` between them would stand beside the no-review mark `·`.
            ? "less " + (1...4).map { style.apply(style.color(Self.blues[$0 - 1]), "■") }.joined() + " more, "
                + style.apply(style.color(Self.orange), "×") + " missed, " + dim("–") + " skipped, "
                + dim("·") + " no review, blank: before the box"
            : "less :+*# more, x missed, - skipped, . no review, blank: before the box"
        lines += wrap(legend, columns: width - 6).map { "      " + $0 }
        return lines + [""]
    }

    private func cell(_ day: StatsDay, thresholds: [Int]) -> String {
        let shade = StatsFormat.shade(day.reviews, thresholds: thresholds)
        if shade > 0 {
            let text = fancy ? "■" : [":", "+", "*", "#"][shade - 1]
            let look = style.color(Self.blues[shade - 1]) + (day.state == .today ? style.underline : "")
            return style.apply(look, text)
        }
        switch day.state {
        case .missed: return fancy ? style.apply(style.color(Self.orange), "×") : "x"
        case .skipped: return fancy ? dim("–") : "-"
        case .completed, .today: return fancy ? dim("·") : "."
        case .none, .upcoming: return " "
        }
    }

    func retention() -> [String] {
        var lines = heading("Retention", "answered right the first time shown in a test")
        // The bars of the recent shares only where there is room for them.
        let columns = width >= 64 ? min(20, width - 50) : 0
        lines.append(dim("  " + pad("level", 6) + pad("last \(StatsFormat.count(stats.window, "day"))", 15 + columns + (columns > 0 ? 2 : 1)) + "all time"))
        var uncertain = false
        for entry in stats.retention {
            func figure(_ right: Int, _ answers: Int) -> String {
                let few = answers > 0 && answers < LevelRetention.certainAnswers
                if few { uncertain = true }
                let share = StatsFormat.percent(right, of: answers) + (few ? "?" : "")
                return pad(share, 5, right: true) + dim(pad(" of \(answers)", 9))
            }
            let share = entry.recentAnswers > 0 ? Double(entry.recentRight) / Double(entry.recentAnswers) : 0
            let bar = style.apply(style.color(Self.blues[2]), pad(bar(share, of: 1, columns: columns), columns))
            lines.append("  " + pad(entry.level.name, 6) + figure(entry.recentRight, entry.recentAnswers) + " "
                         + (columns > 0 ? bar + "  " : "") + figure(entry.right, entry.answers))
        }
        if uncertain {
            lines.append("  " + dim("? fewer than \(LevelRetention.certainAnswers) answers: uncertain"))
        }
        return lines + [""]
    }

    func work() -> [String] {
        let days = stats.work
        let reviews = days.reduce(0) { $0 + $1.reviews }
        let time = days.reduce(0) { $0 + $1.answerMs }
        var lines = heading("Work", "last \(StatsFormat.count(stats.window, "day")): \(StatsFormat.count(reviews, "review")), "
                            + "\(StatsFormat.duration(ms: time)); this week: \(StatsFormat.count(stats.weekReviews, "review")), "
                            + StatsFormat.duration(ms: stats.weekAnswerMs))
        // The rows' names in a column wider than the longest, "practice", so that a gap always
        // follows it ("practicenone" was read as one word, #35).
        let label = 10
        // One mark a day, or a day's group of them when the window is wider than the screen.
        let room = max(6, width - 36)
        let group = (days.count + room - 1) / room
        var buckets: [(reviews: Int, ms: Int)] = []
        var index = 0
        while index < days.count {
            let slice = days[index..<min(days.count, index + group)]
            buckets.append((slice.reduce(0) { $0 + $1.reviews }, slice.reduce(0) { $0 + $1.answerMs }))
            index += group
        }
        func spark(_ values: [Int]) -> String {
            let maximum = values.max() ?? 0
            let marks = fancy ? ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"] : ["_", ".", "-", "=", "+", "*", "#", "@"]
            return values.map { value in
                guard maximum > 0, value > 0 else { return fancy ? " " : " " }
                return marks[min(7, value * 8 / (maximum + 1))]
            }.joined()
        }
        let unit = group == 1 ? "a day" : "in \(group) days"
        let most = buckets.map(\.reviews).max() ?? 0
        let longest = buckets.map(\.ms).max() ?? 0
        lines.append("  " + pad("reviews", label) + style.apply(style.color(Self.blues[2]), spark(buckets.map(\.reviews)))
                     + dim("  most \(most) \(unit)"))
        lines.append("  " + pad("time", label) + style.apply(style.color(Self.blues[3]), spark(buckets.map(\.ms)))
                     + dim("  most \(StatsFormat.duration(ms: longest)) \(unit)"))
        // Practice apart: its answers move no card and are not among the reviews above.
        let answers = stats.practiceAnswers, wrong = min(stats.practiceWrong, stats.practiceAnswers)
        let practice = answers == 0 ? "none"
            : "\(StatsFormat.count(answers, "answer")), \(wrong) wrong, \(StatsFormat.duration(ms: stats.practiceMs))"
        let note = " \(dot) outside the test"
        let fits = 2 + label + DisplayWidth.of(practice) + DisplayWidth.of(note) <= width
        lines.append("  " + pad("practice", label) + practice + (fits ? dim(note) : ""))
        return lines + [""]
    }

    func streaks() -> [String] {
        let streaks = stats.streaks
        var summary = "current \(StatsFormat.count(streaks.current, "day")), longest \(StatsFormat.count(streaks.longest, "day"))"
        if let end = streaks.longestEnd { summary += " (to \(end))" }
        let rule = "A day counts when its test was completed. A skipped day (nothing was due) does not "
            + "break a streak; a missed day does. Today breaks nothing until it is over."
        return heading("Streaks", summary) + wrap(rule, columns: width - 2).map { "  " + dim($0) } + [""]
    }

    func leeches() -> [String] {
        var lines = heading("Hardest cards", "answered wrong most often in the last \(StatsFormat.count(stats.leechWindow, "day"))")
        if stats.leeches.isEmpty {
            lines.append("  " + dim("none answered wrong"))
            return lines
        }
        lines += leechRows(stats.leeches)
        return lines
    }

    /// The leeches by `LeechAfter=` (R24), after the hardest cards: the cards the box marks,
    /// whatever the window. Nothing from a daemon that does not count them.
    func leechCards() -> [String] {
        guard let cards = stats.leechCards, let after = stats.leechAfter else { return [] }
        var lines = [""] + heading("Leeches", after == 0
                                   ? "off (LeechAfter=0)"
                                   : "answered wrong \(StatsFormat.count(after, "time")) or more since they entered levels 1 to 7")
        guard after > 0 else { return lines }
        if cards.isEmpty {
            lines.append("  " + dim("none"))
            return lines
        }
        lines += leechRows(cards)
        let suspended = cards.filter { $0.level == .suspended }.count
        let advice = "\(cards.count) leech\(cards.count == 1 ? "" : "es"), \(suspended) suspended: "
            + "rewrite them, or suspend them with 'leitnerctl suspend ID'"
        return lines + wrap(advice, columns: width - 2).map { "  " + dim($0) }
    }

    /// One line a card: its id, its wrong answers, the level it is in now.
    private func leechRows(_ leeches: [Leech]) -> [String] {
        let idWidth = min(32, leeches.map { DisplayWidth.of($0.id) }.max() ?? 2)
        return leeches.map { leech in
            "  " + pad(leech.id, idWidth) + "  " + pad("\(leech.failures) wrong", 9, right: true)
                + dim("  " + (leech.level.isPlace || leech.level == .finished ? leech.level.name : "level \(leech.level.name)"))
        }
    }
}

extension String {
    func trimmingTrailing() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
