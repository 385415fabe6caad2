import LeitnerCore
import LeitnerVarlink
/// The `Stats` reply and its types as JSON, both ways (docs/protocol.md): the daemon encodes
/// them, leitnerctl decodes them to draw the charts. Decoding errors name the member's dotted
/// path (`heatmap.12.reviews`).

extension StatsDay {
    /// The `StatsDay` object.
    public var json: JSONValue {
        ["date": .string(date.description), "state": .string(state.rawValue),
         "reviews": .int(Int64(reviews)), "answerMs": .int(Int64(answerMs))]
    }

    /// Reads a `StatsDay` object. - Throws: `JSONFieldError` naming the member that is missing or mistyped.
    public init(json: JSONValue, field: String = "day") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        self.init(date: try fields.date("date"),
                  state: try fields.named("state", "a day state") { CalendarDay.State(rawValue: $0) },
                  reviews: try fields.int("reviews"), answerMs: try fields.int("answerMs"))
    }
}

extension ForecastTest {
    /// The `ForecastTest` object.
    public var json: JSONValue {
        ["date": .string(date.description), "position": .int(Int64(position)),
         "levels": .array(levels.map { .string($0.name) }), "cards": .int(Int64(cards)),
         "arrivals": arrivals.map { .int(Int64($0)) } ?? .null]
    }

    /// Reads a `ForecastTest` object. - Throws: `JSONFieldError` naming the member that is missing or mistyped.
    public init(json: JSONValue, field: String = "test") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        self.init(date: try fields.date("date"), position: try fields.int("position"),
                  levels: try fields.levels("levels"), cards: try fields.int("cards"))
        // Absent from an older daemon's reply: not known.
        arrivals = try fields.optionalInt("arrivals")
    }
}

extension LevelRetention {
    /// The `Retention` object.
    public var json: JSONValue {
        ["level": .string(level.name), "recentAnswers": .int(Int64(recentAnswers)),
         "recentRight": .int(Int64(recentRight)), "answers": .int(Int64(answers)), "right": .int(Int64(right))]
    }

    /// Reads a `Retention` object. - Throws: `JSONFieldError` naming the member that is missing or mistyped.
    public init(json: JSONValue, field: String = "retention") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        self.init(level: try fields.level("level"), recentAnswers: try fields.int("recentAnswers"),
                  recentRight: try fields.int("recentRight"), answers: try fields.int("answers"),
                  right: try fields.int("right"))
    }
}

extension WeekRetention {
    /// The `WeekRetention` object.
    public var json: JSONValue {
        ["week": .string(week.description), "level": .string(level.name),
         "answers": .int(Int64(answers)), "right": .int(Int64(right))]
    }

    /// Reads a `WeekRetention` object. - Throws: `JSONFieldError` naming the member that is missing or mistyped.
    public init(json: JSONValue, field: String = "week") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        self.init(week: try fields.date("week"), level: try fields.level("level"),
                  answers: try fields.int("answers"), right: try fields.int("right"))
    }
}

extension Streaks {
    /// The `Streaks` object.
    public var json: JSONValue {
        ["current": .int(Int64(current)), "longest": .int(Int64(longest)),
         "longestEnd": longestEnd.map { .string($0.description) } ?? .null]
    }

    /// Reads a `Streaks` object. - Throws: `JSONFieldError` naming the member that is missing or mistyped.
    public init(json: JSONValue, field: String = "streaks") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        self.init(current: try fields.int("current"), longest: try fields.int("longest"),
                  longestEnd: try fields.optionalNamed("longestEnd", "a date (YYYY-MM-DD)") { LogicalDate($0) })
    }
}

extension Leech {
    /// The `Leech` object.
    public var json: JSONValue {
        ["id": .string(id), "failures": .int(Int64(failures)), "level": .string(level.name)]
    }

    /// Reads a `Leech` object. - Throws: `JSONFieldError` naming the member that is missing or mistyped.
    public init(json: JSONValue, field: String = "leech") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        self.init(id: try fields.string("id"), failures: try fields.int("failures"), level: try fields.level("level"))
    }
}

extension BoxStatistics {
    /// The parameters of the `Stats` reply.
    public var json: JSONValue {
        return ["today": .string(today.description), "days": .int(Int64(window)), "leechDays": .int(Int64(leechWindow)),
                "counts": BoxStatus.json(counts), "damaged": .int(Int64(damaged)), "loose": .int(Int64(loose)),
                "forecast": .array(forecast.map(\.json)), "heatmap": .array(heatmap.map(\.json)),
                "retention": .array(retention.map(\.json)), "retentionWeeks": .array(retentionWeeks.map(\.json)),
                "work": .array(work.map(\.json)), "weekReviews": .int(Int64(weekReviews)),
                "weekAnswerMs": .int(Int64(weekAnswerMs)), "streaks": streaks.json,
                "leeches": .array(leeches.map(\.json)), "practiceAnswers": .int(Int64(practiceAnswers)),
                "practiceWrong": .int(Int64(practiceWrong)), "practiceMs": .int(Int64(practiceMs)),
                "leechCards": leechCards.map { .array($0.map(\.json)) } ?? .null,
                "leechAfter": leechAfter.map { .int(Int64($0)) } ?? .null]
    }

    /// Reads the parameters of a `Stats` reply.
    /// - Throws: `JSONFieldError` naming the member that is missing or mistyped.
    public init(json: JSONValue, field: String = "") throws(JSONFieldError) {
        let fields = try JSONFields(json, path: field)
        let counts = try BoxStatus.counts(try fields.object("counts"))
        self.init(today: try fields.date("today"), window: try fields.int("days"), leechWindow: try fields.int("leechDays"),
                  counts: counts, damaged: try fields.int("damaged"), loose: try fields.int("loose"),
                  forecast: try fields.objects("forecast") { (value, path) throws(JSONFieldError) in try ForecastTest(json: value, field: path) },
                  heatmap: try fields.objects("heatmap") { (value, path) throws(JSONFieldError) in try StatsDay(json: value, field: path) },
                  retention: try fields.objects("retention") { (value, path) throws(JSONFieldError) in try LevelRetention(json: value, field: path) },
                  retentionWeeks: try fields.objects("retentionWeeks") { (value, path) throws(JSONFieldError) in try WeekRetention(json: value, field: path) },
                  work: try fields.objects("work") { (value, path) throws(JSONFieldError) in try StatsDay(json: value, field: path) },
                  weekReviews: try fields.int("weekReviews"), weekAnswerMs: try fields.int("weekAnswerMs"),
                  streaks: try Streaks(json: fields.required("streaks"), field: fields.field("streaks")),
                  leeches: try fields.objects("leeches") { (value, path) throws(JSONFieldError) in try Leech(json: value, field: path) })
        // Absent from an older daemon's reply: no practice counted.
        practiceAnswers = try fields.optionalInt("practiceAnswers") ?? 0
        practiceWrong = try fields.optionalInt("practiceWrong") ?? 0
        practiceMs = try fields.optionalInt("practiceMs") ?? 0
        // Absent from an older daemon's reply: not known, not none.
        leechCards = try fields.optionalObjects("leechCards") { (value, path) throws(JSONFieldError) in try Leech(json: value, field: path) }
        leechAfter = try fields.optionalInt("leechAfter")
    }
}
