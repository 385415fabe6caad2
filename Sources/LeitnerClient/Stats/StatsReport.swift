import LeitnerCore

/// `leitnerctl stats --html FILE`: the statistics as one self-contained HTML page — inline CSS
/// and SVG, no script, nothing fetched — with labelled charts: the cards by level, the forecast,
/// the year's heatmap (a tooltip per day), retention by level over the weeks, and reviews and
/// time per day. Colours are colour-blind safe: a blue scale with orange for missed days, and the
/// Okabe–Ito palette for the lines, each line also marked by its own label.
///
/// Each chart is drawn twice, for a screen (`width` 920) and for a phone (330, the room a 360 px
/// screen leaves it), and the style shows the one that fits the width, so that a label is 12 px
/// on either rather than shrunk to 4 px on a phone; the phone's heatmap shows the last 13 weeks.
/// A day of the heatmap, of the work and of the forecast is a link to its figures, shown by the
/// style (`:target`) under the chart: a tap shows them with no script.
public struct StatsReport {
    let stats: BoxStatistics
    /// The width the charts are drawn for, in the SVG's units.
    let width: Int

    public init(_ stats: BoxStatistics) { self.init(stats, width: Self.screenWidth) }

    init(_ stats: BoxStatistics, width: Int) {
        self.stats = stats
        self.width = width
    }

    static let screenWidth = 920
    static let phoneWidth = 330
    /// The phone's heatmap: a quarter, in squares big enough for a finger.
    static let phoneWeeks = 13

    var isPhone: Bool { width < 600 }

    /// A chart drawn for a screen and for a phone, the style showing the one that fits.
    private func drawnForBoth(_ chart: (StatsReport) -> String) -> String {
        "<div class=\"for-screen\">\n" + chart(StatsReport(stats, width: Self.screenWidth))
            + "\n</div>\n<div class=\"for-phone\">\n" + chart(StatsReport(stats, width: Self.phoneWidth)) + "\n</div>"
    }

    /// A mark of a chart (`element`, an SVG `rect`) made a link to `id`'s figures.
    private func linked(_ element: String, to id: String) -> String {
        "<a href=\"#\(id)\">" + element + "</a>"
    }

    /// The figures of each day, hidden until their day is tapped (`:target`).
    private func figures(_ days: [(id: String, text: String)]) -> String {
        "<div class=\"figures\">" + days.map { "<p id=\"\($0.id)\">\(Self.escape($0.text))</p>" }.joined() + "</div>"
    }

    /// ColorBrewer "Blues", light to dark; orange stands out from it for any colour vision.
    static let blues = ["#c6dbef", "#6baed6", "#2171b5", "#08306b"]
    static let orange = "#e66101"
    /// Okabe & Ito's palette, one colour per level 1 … 7.
    static let levelColours = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000"]

    /// The whole page.
    public func html() -> String {
        let total = stats.counts.values.reduce(0, +)
        var page = HTMLText.pageStart(title: "Leitner box · statistics of \(stats.today)",
                                      extraHead: "<style>\n\(Self.css)\n</style>") + """
            <main>
            <h1>Leitner box statistics</h1>
            <p class="lead">\(StatsFormat.day(stats.today)) \(stats.today.components.year) · \(StatsFormat.count(total, "card")) · \
            streak \(StatsFormat.count(stats.streaks.current, "day")) (longest \(stats.streaks.longest)) · \
            this week \(StatsFormat.count(stats.weekReviews, "review")), \(StatsFormat.duration(ms: stats.weekAnswerMs))</p>

            """
        page += levels() + forecast() + heatmap() + retention() + work() + streaksAndLeeches()
        page += """
            <footer>Written by leitnerctl stats. Figures from the box's review log and day record; \
            see docs/leitnerctl.md for what each one counts.</footer>
            </main>
            </body>
            </html>

            """
        return page
    }

    static let css = """
        :root { color-scheme: light; }
        body { margin: 0; background: #f6f8fa; color: #1b1f24;
               font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
        main { max-width: 960px; margin: 0 auto; padding: 24px 20px 40px; }
        h1 { font-size: 26px; margin: 0 0 4px; }
        h2 { font-size: 18px; margin: 0 0 2px; }
        .lead { color: #444; margin: 0 0 20px; }
        section { background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 16px 18px; margin: 0 0 16px; }
        .note { color: #57606a; font-size: 13px; margin: 0 0 10px; }
        svg { display: block; max-width: 100%; height: auto; }
        svg text { font-family: system-ui, "DejaVu Sans", sans-serif; font-size: 12px; fill: #333; }
        svg .axis { stroke: #8c959f; stroke-width: 1; }
        svg .grid { stroke: #eaeef2; stroke-width: 1; }
        svg .unit { fill: #57606a; font-size: 11px; }
        table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
        th, td { text-align: right; padding: 3px 12px 3px 0; }
        th:first-child, td:first-child { text-align: left; }
        th { color: #57606a; font-weight: 600; border-bottom: 1px solid #d0d7de; }
        .uncertain { color: #8c959f; }
        .swatch { display: inline-block; width: 11px; height: 11px; border-radius: 2px; vertical-align: -1px; margin: 0 3px 0 10px; }
        footer { color: #57606a; font-size: 12px; margin-top: 8px; }
        th, .table-room td { white-space: nowrap; }
        .table-room { overflow-x: auto; }
        .for-phone { display: none; }
        .figures p { display: none; margin: 8px 0 0; padding: 8px 12px; border-left: 4px solid #2171b5; background: #eef4fa; }
        .figures p:target { display: block; }
        svg a rect:hover { stroke: #1b1f24; }
        @media (max-width: 600px) {
          .for-screen { display: none; }
          .for-phone { display: block; }
          main { padding: 16px 8px 32px; }
          section { padding: 12px 10px; }
          th, td { padding: 3px 8px 3px 0; }
        }
        """

    // MARK: Helpers

    /// Text safe inside an element or an attribute.
    static func escape(_ text: String) -> String { HTMLText.escape(text) }

    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// Axis ticks from 0 to at least `maximum`: 1, 2 or 5 times a power of ten, at most six.
    static func ticks(_ maximum: Double) -> [Double] {
        guard maximum > 0 else { return [0, 1] }
        var magnitude = 1.0
        while magnitude * 10 <= maximum { magnitude *= 10 }
        while magnitude > maximum { magnitude /= 10 }
        let step = [0.1, 0.2, 0.5, 1, 2, 5].map { $0 * magnitude }.first { (maximum / $0).rounded(.up) <= 5 } ?? magnitude * 10
        return (0...Int((maximum / step).rounded(.up))).map { Double($0) * step }
    }

    private func text(_ x: Double, _ y: Double, _ content: String, anchor: String = "start", cls: String? = nil) -> String {
        "<text x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" text-anchor=\"\(anchor)\"\(cls.map { " class=\"\($0)\"" } ?? "")>\(Self.escape(content))</text>"
    }

    private func section(_ title: String, note: String, _ body: String) -> String {
        "<section>\n<h2>\(Self.escape(title))</h2>\n<p class=\"note\">\(Self.escape(note))</p>\n\(body)\n</section>\n"
    }

    /// A vertical bar chart: bars with tooltips, a value axis with ticks and its unit, and
    /// labels under some bars.
    private func columns(_ values: [Double], unit: String, tooltip: (Int) -> String, label: (Int) -> String?,
                         colour: (Int) -> String, link: (Int) -> String? = { _ in nil }, height: Double = 200) -> String {
        let left = 56.0, top = 12.0, bottom = 30.0
        let plotWidth = Double(width) - left - 10
        let ticks = Self.ticks(values.max() ?? 0)
        let top_ = ticks.last!
        let slot = plotWidth / Double(max(1, values.count))
        var svg = "<svg viewBox=\"0 0 \(width) \(Self.number(height + top + bottom))\" role=\"img\" aria-label=\"\(Self.escape(unit))\">\n"
        for tick in ticks {
            let y = top + height - tick / top_ * height
            svg += "<line class=\"grid\" x1=\"\(left)\" x2=\"\(Self.number(left + plotWidth))\" y1=\"\(Self.number(y))\" y2=\"\(Self.number(y))\"/>"
            svg += text(left - 6, y + 4, Self.number(tick), anchor: "end") + "\n"
        }
        svg += "<text transform=\"translate(12 \(Self.number(top + height / 2))) rotate(-90)\" text-anchor=\"middle\" class=\"unit\">\(Self.escape(unit))</text>\n"
        for (index, value) in values.enumerated() {
            let barHeight = value / top_ * height
            let x = left + Double(index) * slot + slot * 0.15
            // The whole column's height is the link, so that a short bar is as easy to tap.
            let bar = "<rect x=\"\(Self.number(x))\" y=\"\(Self.number(top + height - barHeight))\" width=\"\(Self.number(slot * 0.7))\" height=\"\(Self.number(barHeight))\" fill=\"\(colour(index))\"><title>\(Self.escape(tooltip(index)))</title></rect>"
            if let id = link(index) {
                svg += linked("<rect x=\"\(Self.number(left + Double(index) * slot))\" y=\"\(top)\" width=\"\(Self.number(slot))\" height=\"\(Self.number(height))\" fill=\"transparent\"/>" + bar, to: id) + "\n"
            } else {
                svg += bar + "\n"
            }
            if let label = label(index) {
                svg += "<line class=\"axis\" x1=\"\(Self.number(x + slot * 0.35))\" x2=\"\(Self.number(x + slot * 0.35))\" y1=\"\(Self.number(top + height))\" y2=\"\(Self.number(top + height + 4))\"/>"
                svg += text(x + slot * 0.35, top + height + 17, label, anchor: "middle") + "\n"
            }
        }
        svg += "<line class=\"axis\" x1=\"\(left)\" x2=\"\(Self.number(left + plotWidth))\" y1=\"\(Self.number(top + height))\" y2=\"\(Self.number(top + height))\"/>\n"
        svg += "<line class=\"axis\" x1=\"\(left)\" x2=\"\(left)\" y1=\"\(top)\" y2=\"\(Self.number(top + height))\"/>\n"
        return svg + "</svg>"
    }

    // MARK: Sections

    func levels() -> String {
        let total = stats.counts.values.reduce(0, +)
        var note = "\(StatsFormat.count(total, "card")) in the box."
        if stats.damaged > 0 || stats.loose > 0 {
            note += " Not counted: \(StatsFormat.count(stats.damaged, "damaged card")), \(StatsFormat.count(stats.loose, "loose file")) (see leitnerctl doctor)."
        }
        return section("Cards by level", note: note, drawnForBoth { $0.levelsChart() })
    }

    func levelsChart() -> String {
        let total = stats.counts.values.reduce(0, +)
        // Room on the left for the longest name, "suspended", and on the right for "120 · 35%".
        let left = 100.0, barRoom = Double(width) - left - (isPhone ? 80 : 140), row = 28.0
        let ticks = Self.ticks(Double(stats.counts.values.max() ?? 0))
        let top_ = ticks.last!
        let height = row * Double(Level.allCases.count)
        var svg = "<svg viewBox=\"0 0 \(width) \(Self.number(height + 44))\" role=\"img\" aria-label=\"cards by level\">\n"
        for tick in ticks {
            let x = left + tick / top_ * barRoom
            svg += "<line class=\"grid\" x1=\"\(Self.number(x))\" x2=\"\(Self.number(x))\" y1=\"0\" y2=\"\(Self.number(height))\"/>"
            svg += text(x, height + 16, Self.number(tick), anchor: "middle") + "\n"
        }
        for (index, level) in Level.allCases.enumerated() {
            let count = stats.counts[level] ?? 0
            let y = Double(index) * row
            let width = Double(count) / top_ * barRoom
            // The places by their own names: "level new" was no level.
            let name = level.isPlace || level == .finished ? level.name : "level \(level.name)"
            svg += text(left - 8, y + row / 2 + 4, name, anchor: "end")
            svg += "<rect x=\"\(left)\" y=\"\(Self.number(y + 5))\" width=\"\(Self.number(width))\" height=\"\(Self.number(row - 10))\" fill=\"\(level == .finished ? Self.blues[3] : Self.blues[2])\"><title>\(name): \(StatsFormat.count(count, "card")), \(StatsFormat.percent(count, of: total)) of the box</title></rect>"
            svg += text(left + width + 6, y + row / 2 + 4, "\(count) · \(StatsFormat.percent(count, of: total))") + "\n"
        }
        svg += "<line class=\"axis\" x1=\"\(left)\" x2=\"\(left)\" y1=\"0\" y2=\"\(Self.number(height))\"/>\n"
        return svg + text(left + barRoom / 2, height + 36, "cards", anchor: "middle", cls: "unit") + "\n</svg>"
    }

    static func dayID(_ chart: String, _ date: LogicalDate) -> String { "\(chart)-\(date)" }

    static func forecastFigures(_ test: ForecastTest) -> String {
        let arriving = (test.arrivals ?? 0) > 0 ? ", \(test.arrivals ?? 0) of them new from new/" : ""
        return "\(StatsFormat.day(test.date)): test #\(test.position + 1), levels \(test.levels.map(\.name).joined(separator: ",")) — \(StatsFormat.count(test.cards, "card"))" + arriving
    }

    func forecastChart(busiest: Int) -> String {
        let tests = stats.forecast
        return columns(tests.map { Double($0.cards) }, unit: "cards per test",
                       tooltip: { Self.forecastFigures(tests[$0]) },
                       label: { index in index % (isPhone ? 10 : 5) == 0 || index == busiest
                           ? "\(tests[index].date.components.day) \(StatsFormat.month(tests[index].date))" : nil },
                       colour: { $0 == busiest ? Self.orange : Self.blues[2] },
                       link: { Self.dayID("forecast", tests[$0].date) })
    }

    func forecast() -> String {
        let tests = stats.forecast
        guard let busiest = tests.indices.max(by: { tests[$0].cards < tests[$1].cards }) else { return "" }
        let chart = drawnForBoth { $0.forecastChart(busiest: busiest) } + figures(tests.map { test in
            (Self.dayID("forecast", test.date), Self.forecastFigures(test))
        })
        let day = tests[busiest]
        return section("Forecast: the next \(tests.count) tests",
                       note: "Cards expected in each test if every day's test is done, the cards of each test's levels moving on with each level's retention. 'leitnerctl calendar' counts the cards in each day's levels now instead. Busiest (orange): \(StatsFormat.day(day.date)), \(StatsFormat.count(day.cards, "card")). Tap or click a test for its figures."
                            // Plain text: `section` escapes the note (escaped here too, it read "&#39;").
                            + (StatsFormat.arrivals(tests).map { " " + $0.prefix(1).uppercased() + $0.dropFirst() + "." } ?? ""),
                       chart)
    }

    func heatmap() -> String {
        let days = stats.heatmap
        guard !days.isEmpty else { return "" }
        let weeks = days.count / 7
        let thresholds = StatsFormat.thresholds(days)
        let reviewed = days.filter { $0.reviews > 0 }
        let chart = drawnForBoth { $0.heatmapChart() } + figures(days.map { (Self.dayID("day", $0.date), Self.dayFigures($0)) })
        return section("The last \(weeks) weeks",
                       note: "One square a day, darker with more reviews" + (reviewed.isEmpty ? "" : " (by quartile of the days with reviews: \(thresholds.map(String.init).joined(separator: ", ")))") + "; \(StatsFormat.count(reviewed.reduce(0) { $0 + $1.reviews }, "review")) on \(StatsFormat.count(reviewed.count, "day")). On a phone, the last \(Self.phoneWeeks). Tap or click a day for its figures.",
                       chart)
    }

    static func dayFigures(_ day: StatsDay) -> String {
        let state = day.state == .none ? "before the box" : day.state.rawValue
        var tip = "\(StatsFormat.day(day.date)) \(day.date.components.year): \(state)"
        if day.reviews > 0 { tip += " · \(StatsFormat.count(day.reviews, "review")) · \(StatsFormat.duration(ms: day.answerMs))" }
        return tip
    }

    func heatmapChart() -> String {
        // A phone's: the last weeks only, in squares a finger can tap.
        let days = isPhone ? Array(stats.heatmap.suffix(7 * Self.phoneWeeks)) : stats.heatmap
        guard let first = days.first else { return "" }
        let weeks = days.count / 7
        let cell = isPhone ? 18.0 : 14.0, gap = isPhone ? 4.0 : 3.0, left = 36.0, top = 22.0
        let thresholds = StatsFormat.thresholds(stats.heatmap)
        var svg = ""
        for weekday in [0, 2, 4, 6] {
            svg += text(left - 6, top + Double(weekday) * (cell + gap) + cell - 3, StatsFormat.weekdays[weekday], anchor: "end")
        }
        var lastLabel = -10
        for week in 0..<weeks {
            let monday = first.date.adding(days: 7 * week)
            let startsMonth = (0..<7).contains { monday.adding(days: $0).components.day == 1 }
            if startsMonth, week - lastLabel >= 3 {
                let labelDate = monday.adding(days: 6)
                let month = StatsFormat.month(labelDate) + (labelDate.components.month == 1 ? " \(labelDate.components.year)" : "")
                svg += text(left + Double(week) * (cell + gap), top - 8, month)
                lastLabel = week
            }
        }
        svg += "\n"
        for (index, day) in days.enumerated() {
            let x = left + Double(index / 7) * (cell + gap)
            let y = top + Double(index % 7) * (cell + gap)
            let shade = StatsFormat.shade(day.reviews, thresholds: thresholds)
            var fill: String, stroke = "none", dash = ""
            switch (shade, day.state) {
            case (1..., _): fill = Self.blues[shade - 1]
            case (_, .missed): fill = Self.orange
            case (_, .skipped): fill = "#f6f8fa"; stroke = "#d0d7de"
            case (_, .completed), (_, .today): fill = "#eef4fa"
            case (_, .none): fill = "#ffffff"; stroke = "#eaeef2"
            case (_, .upcoming): fill = "#ffffff"; stroke = "#d0d7de"; dash = " stroke-dasharray=\"2 2\""
            }
            if day.state == .today { stroke = "#1b1f24" }
            var square = "<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(cell)\" height=\"\(cell)\" rx=\"2\" fill=\"\(fill)\" stroke=\"\(stroke)\"\(dash)><title>\(Self.escape(Self.dayFigures(day)))</title></rect>"
            // A skipped day carries a dash, as in the terminal: told apart by shape, not by a shade.
            if shade == 0, day.state == .skipped { square += skippedMark(x, y, cell) }
            svg += linked(square, to: Self.dayID("day", day.date)) + "\n"
        }
        // The legend: the scale, then the states, on as many lines as the width needs.
        var x = left
        var y = top + 7 * (cell + gap) + 14
        func room(_ needed: Double) {
            if x + needed > Double(width) { x = left; y += 22 }
        }
        room(40 + 4 * (cell + gap) + 110)
        svg += text(x, y + 11, "fewer"); x += 40
        for colour in Self.blues {
            svg += "<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(cell)\" height=\"\(cell)\" rx=\"2\" fill=\"\(colour)\"/>"
            x += cell + gap
        }
        svg += text(x + 4, y + 11, "more reviews"); x += 110
        for (fill, label) in [(Self.orange, "missed"), ("#f6f8fa", "skipped (nothing due)"), ("#eef4fa", "no review"),
                              ("#ffffff", "before the box")] {
            let stroke = fill == "#ffffff" || fill == "#f6f8fa" ? "#d0d7de" : "none"
            let needed = cell + 14 + Double(label.count) * 6.5
            room(needed)
            svg += "<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(cell)\" height=\"\(cell)\" rx=\"2\" fill=\"\(fill)\" stroke=\"\(stroke)\"/>"
            if fill == "#f6f8fa" { svg += skippedMark(x, y, cell) }
            svg += text(x + cell + 5, y + 11, label)
            x += needed
        }
        let height = y + cell + 6
        return "<svg viewBox=\"0 0 \(width) \(Self.number(height))\" role=\"img\" aria-label=\"reviews per day, last \(weeks) weeks\">\n" + svg + "</svg>"
    }

    private func skippedMark(_ x: Double, _ y: Double, _ cell: Double) -> String {
        "<line x1=\"\(Self.number(x + 3))\" x2=\"\(Self.number(x + cell - 3))\" y1=\"\(Self.number(y + cell / 2))\" y2=\"\(Self.number(y + cell / 2))\" stroke=\"#6e7781\" stroke-width=\"2\" pointer-events=\"none\"/>"
    }

    func retention() -> String {
        var table = "<table>\n<tr><th>level</th><th>last \(StatsFormat.count(stats.window, "day"))</th><th>answers</th><th>all time</th><th>answers</th></tr>\n"
        for entry in stats.retention {
            func cell(_ right: Int, _ answers: Int) -> String {
                let few = answers > 0 && answers < LevelRetention.certainAnswers
                return "<td\(few ? " class=\"uncertain\" title=\"fewer than \(LevelRetention.certainAnswers) answers\"" : "")>\(StatsFormat.percent(right, of: answers))\(few ? " (uncertain)" : "")</td><td>\(answers)</td>"
            }
            table += "<tr><td><span class=\"swatch\" style=\"background:\(Self.levelColours[entry.level.rawValue - 1]);margin-left:0\"></span>level \(entry.level.name)</td>"
                + cell(entry.recentRight, entry.recentAnswers) + cell(entry.right, entry.answers) + "</tr>\n"
        }
        table += "</table>"
        // A phone's width scrolls the table, never wraps its headings ("level / 1").
        table = "<div class=\"table-room\">" + table + "</div>"
        let chart = stats.retentionWeeks.isEmpty ? "<p class=\"note\">No answers in these weeks yet.</p>\n" : drawnForBoth { $0.retentionChart() }
        return section("Retention by level",
                       note: "The share of cards answered right the first time they were shown in a test, per week; a hollow point stands on fewer than \(LevelRetention.certainAnswers) answers (uncertain).",
                       chart + table)
    }

    func retentionChart() -> String {
        let weeks = stats.retentionWeeks
        // From the first week with answers (a young box fills the width), at least 8 weeks.
        let thisWeek = stats.today.adding(days: -stats.today.weekday)
        let firstWeek = min(weeks.first?.week ?? thisWeek, thisWeek.adding(days: -7 * 7))
        let count = (thisWeek.ordinal - firstWeek.ordinal) / 7 + 1
        let left = 56.0, top = 12.0, height = 200.0, bottom = 40.0
        let plotWidth = Double(width) - left - (isPhone ? 60 : 80)
        func x(_ week: LogicalDate) -> Double { left + Double((week.ordinal - firstWeek.ordinal) / 7) / Double(max(1, count - 1)) * plotWidth }
        func y(_ share: Double) -> Double { top + height - share * height }
        var svg = "<svg viewBox=\"0 0 \(width) \(Self.number(top + height + bottom))\" role=\"img\" aria-label=\"retention by level per week\">\n"
        for tick in stride(from: 0.0, through: 1.0, by: 0.25) {
            svg += "<line class=\"grid\" x1=\"\(left)\" x2=\"\(Self.number(left + plotWidth))\" y1=\"\(Self.number(y(tick)))\" y2=\"\(Self.number(y(tick)))\"/>"
            svg += text(left - 6, y(tick) + 4, "\(Int(tick * 100))%", anchor: "end") + "\n"
        }
        svg += "<text transform=\"translate(12 \(Self.number(top + height / 2))) rotate(-90)\" text-anchor=\"middle\" class=\"unit\">right the first time</text>\n"
        // Weeks by their Monday while they are few enough to name, else months.
        var lastLabel = -10
        // A label ("24 Nov") needs some 45 units: every week's while they fit, every other's, else months.
        let perWeek = plotWidth / Double(max(1, count - 1))
        let every = perWeek >= 45 ? 1 : perWeek * 2 >= 45 ? 2 : 0
        for week in 0..<count {
            let monday = firstWeek.adding(days: 7 * week)
            if every > 0 {
                guard (count - 1 - week) % every == 0 else { continue }
                svg += text(x(monday), top + height + 17, "\(monday.components.day) \(StatsFormat.month(monday))", anchor: "middle")
            } else if (0..<7).contains(where: { monday.adding(days: $0).components.day == 1 }), week - lastLabel >= 3 {
                svg += text(x(monday), top + height + 17, StatsFormat.month(monday.adding(days: 6)), anchor: "middle")
                lastLabel = week
            }
        }
        svg += text(left + plotWidth / 2, top + height + 32, "week (its Monday)", anchor: "middle", cls: "unit") + "\n"
        var ends: [(level: Level, x: Double, y: Double)] = []
        for level in Level.rotation {
            let points = weeks.filter { $0.level == level }
            guard !points.isEmpty else { continue }
            let colour = Self.levelColours[level.rawValue - 1]
            let path = points.map { "\(Self.number(x($0.week))),\(Self.number(y(Double($0.right) / Double($0.answers))))" }
            if points.count > 1 {
                svg += "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\" points=\"\(path.joined(separator: " "))\"/>\n"
            }
            for point in points {
                let share = Double(point.right) / Double(point.answers)
                let few = point.answers < LevelRetention.certainAnswers
                svg += "<circle cx=\"\(Self.number(x(point.week)))\" cy=\"\(Self.number(y(share)))\" r=\"3.5\" fill=\"\(few ? "#ffffff" : colour)\" stroke=\"\(colour)\" stroke-width=\"1.5\"><title>Week of \(StatsFormat.day(point.week)): level \(level.name), \(StatsFormat.percent(point.right, of: point.answers)) of \(point.answers)\(few ? " (uncertain)" : "")</title></circle>\n"
            }
            let last = points.last!
            ends.append((level, x(last.week) + 8, y(Double(last.right) / Double(last.answers)) + 4))
        }
        // Each line's name at its end, so that no colour has to be matched to a legend; names
        // that would overlap are moved apart.
        ends.sort { $0.y < $1.y }
        for index in ends.indices.dropFirst() where ends[index].y < ends[index - 1].y + 13 {
            ends[index].y = ends[index - 1].y + 13
        }
        for end in ends {
            svg += "<text x=\"\(Self.number(end.x))\" y=\"\(Self.number(end.y))\" style=\"fill:\(Self.levelColours[end.level.rawValue - 1])\">level \(end.level.name)</text>\n"
        }
        svg += "<line class=\"axis\" x1=\"\(left)\" x2=\"\(Self.number(left + plotWidth))\" y1=\"\(Self.number(top + height))\" y2=\"\(Self.number(top + height))\"/>\n"
        svg += "<line class=\"axis\" x1=\"\(left)\" x2=\"\(left)\" y1=\"\(top)\" y2=\"\(Self.number(top + height))\"/>\n</svg>\n"
        return svg
    }

    func work() -> String {
        let days = stats.work
        let total = days.reduce(0) { $0 + $1.reviews }
        let time = days.reduce(0) { $0 + $1.answerMs }
        let chart = drawnForBoth { $0.workCharts() } + figures(days.map { day in
            (Self.dayID("work", day.date), "\(StatsFormat.day(day.date)): \(StatsFormat.count(day.reviews, "review")), \(StatsFormat.duration(ms: day.answerMs)) answering")
        })
        return section("Work, the last \(StatsFormat.count(stats.window, "day"))",
                       note: "\(StatsFormat.count(total, "review")) and \(StatsFormat.duration(ms: time)) answering (from the answer times in the log); this week \(StatsFormat.count(stats.weekReviews, "review")), \(StatsFormat.duration(ms: stats.weekAnswerMs)). Tap or click a day for its figures.",
                       chart + "\n" + drawnForBoth { $0.practice() })
    }

    func workCharts() -> String {
        let days = stats.work
        let every = max(1, days.count / (isPhone ? 4 : 6))
        func label(_ index: Int) -> String? {
            (days.count - 1 - index) % every == 0 ? "\(days[index].date.components.day) \(StatsFormat.month(days[index].date))" : nil
        }
        let link = { (index: Int) -> String? in Self.dayID("work", days[index].date) }
        let reviews = columns(days.map { Double($0.reviews) }, unit: "reviews per day",
                              tooltip: { "\(StatsFormat.day(days[$0].date)): \(StatsFormat.count(days[$0].reviews, "review"))" },
                              label: label, colour: { _ in Self.blues[2] }, link: link, height: 140)
        let minutes = columns(days.map { Double($0.answerMs) / 60_000 }, unit: "minutes per day",
                              tooltip: { "\(StatsFormat.day(days[$0].date)): \(StatsFormat.duration(ms: days[$0].answerMs)) answering" },
                              label: label, colour: { _ in Self.blues[3] }, link: link, height: 140)
        return reviews + "\n" + minutes
    }

    /// Practice in the window, apart from the test's work above (its answers move no card and
    /// are no reviews): a line, and a bar of its right and wrong answers when there were any.
    func practice() -> String {
        var body = "<h2>Practice</h2>\n<p class=\"note\">Answers outside the test: they move no card and are not counted in the reviews above.</p>\n"
        let answers = stats.practiceAnswers, wrong = min(stats.practiceWrong, stats.practiceAnswers)
        guard answers > 0 else { return body + "<p>No practice in the last \(StatsFormat.count(stats.window, "day")).</p>" }
        body += "<p>\(StatsFormat.count(answers, "answer")), \(wrong) wrong (\(StatsFormat.percent(answers - wrong, of: answers)) right), "
            + "\(StatsFormat.duration(ms: stats.practiceMs)) answering.</p>\n"
        let width = Double(width), height = 18.0
        let rightWidth = width * Double(answers - wrong) / Double(answers)
        body += "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"practice answers, right and wrong\">\n"
        body += "<rect x=\"0\" y=\"0\" width=\"\(Self.number(rightWidth))\" height=\"\(Self.number(height))\" fill=\"\(Self.blues[2])\">"
            + "<title>\(StatsFormat.count(answers - wrong, "answer")) right</title></rect>\n"
        body += "<rect x=\"\(Self.number(rightWidth))\" y=\"0\" width=\"\(Self.number(width - rightWidth))\" height=\"\(Self.number(height))\" fill=\"\(Self.orange)\">"
            + "<title>\(StatsFormat.count(wrong, "answer")) wrong</title></rect>\n</svg>"
        return body
    }

    func streaksAndLeeches() -> String {
        let streaks = stats.streaks
        var body = "<p>Current streak: <strong>\(StatsFormat.count(streaks.current, "day"))</strong>; longest: <strong>\(StatsFormat.count(streaks.longest, "day"))</strong>"
        if let end = streaks.longestEnd { body += " (to \(StatsFormat.day(end)) \(end.components.year))" }
        body += ".</p>\n<p class=\"note\">A day counts when its test was completed. A skipped day (nothing was due) does not break a streak; a missed day does. Today breaks nothing until it is over.</p>\n"
        body += "<h2>Hardest cards</h2>\n<p class=\"note\">Answered wrong most often in the last \(StatsFormat.count(stats.leechWindow, "day")): the cards worth rewriting.</p>\n"
        if stats.leeches.isEmpty {
            body += "<p>None answered wrong.</p>"
        } else {
            body += "<table>\n<tr><th>card</th><th>wrong</th><th>level now</th></tr>\n"
            for leech in stats.leeches {
                body += "<tr><td>\(Self.escape(leech.id))</td><td>\(leech.failures)</td><td>\(leech.level.name)</td></tr>\n"
            }
            body += "</table>"
        }
        body += leechCards()
        return section("Streaks", note: "Days in a row with the test done.", body)
    }

    /// The leeches by `LeechAfter=` (R24), after the hardest cards; nothing from a daemon that
    /// does not count them.
    func leechCards() -> String {
        guard let cards = stats.leechCards, let after = stats.leechAfter else { return "" }
        var body = "\n<h2>Leeches</h2>\n"
        guard after > 0 else { return body + "<p class=\"note\">Off (LeechAfter=0).</p>" }
        body += "<p class=\"note\">Answered wrong \(StatsFormat.count(after, "time")) or more since they last entered levels 1 to 7: rewrite them, or suspend them.</p>\n"
        if cards.isEmpty { return body + "<p>None.</p>" }
        body += "<table>\n<tr><th>card</th><th>wrong</th><th>level now</th></tr>\n"
        for leech in cards {
            body += "<tr><td>\(Self.escape(leech.id))</td><td>\(leech.failures)</td><td>\(leech.level.name)</td></tr>\n"
        }
        return body + "</table>"
    }
}
