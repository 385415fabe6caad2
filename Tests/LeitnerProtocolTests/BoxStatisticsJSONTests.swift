import LeitnerVarlink
import Testing
@testable import LeitnerCore
@testable import LeitnerProtocol

/// The `Stats` reply both ways: the names are the interface's, and what the daemon writes the
/// client reads back unchanged.
@Suite struct BoxStatisticsJSONTests {
    static func date(_ text: String) -> LogicalDate { LogicalDate(text)! }

    static let sample = BoxStatistics(
        today: date("2026-03-04"), window: 30, leechWindow: 90,
        counts: [.one: 3, .two: 1, .three: 0, .four: 0, .five: 0, .six: 0, .seven: 0, .finished: 2],
        damaged: 1, loose: 2,
        forecast: [ForecastTest(date: date("2026-03-04"), position: 3, levels: [.four, .one], cards: 3)],
        heatmap: [StatsDay(date: date("2026-03-03"), state: .missed, reviews: 0, answerMs: 0),
                  StatsDay(date: date("2026-03-04"), state: .today, reviews: 4, answerMs: 5100)],
        retention: [LevelRetention(level: .one, recentAnswers: 4, recentRight: 3, answers: 9, right: 7)],
        retentionWeeks: [WeekRetention(week: date("2026-03-02"), level: .one, answers: 4, right: 3)],
        work: [StatsDay(date: date("2026-03-04"), state: .today, reviews: 4, answerMs: 5100)],
        weekReviews: 4, weekAnswerMs: 5100,
        streaks: Streaks(current: 2, longest: 5, longestEnd: date("2026-02-20")),
        leeches: [Leech(id: "猫", failures: 3, level: .one)])

    @Test func theReplyRoundTrips() throws {
        let text = Self.sample.json.serialized
        #expect(try BoxStatistics(json: JSONValue(parsing: text)) == Self.sample)
        var noLongest = Self.sample
        noLongest.streaks = Streaks(current: 0, longest: 0, longestEnd: nil)
        #expect(try BoxStatistics(json: JSONValue(parsing: noLongest.json.serialized)) == noLongest)
        var withLeeches = Self.sample
        withLeeches.leechCards = [Leech(id: "犬", failures: 9, level: .suspended)]
        withLeeches.leechAfter = 8
        #expect(try BoxStatistics(json: JSONValue(parsing: withLeeches.json.serialized)) == withLeeches)
    }

    @Test func theMembersAreTheInterfaces() {
        let members = Set(Self.sample.json.objectValue!.keys)
        #expect(members == ["today", "days", "leechDays", "counts", "damaged", "loose", "forecast", "heatmap",
                            "retention", "retentionWeeks", "work", "weekReviews", "weekAnswerMs", "streaks", "leeches",
                            "practiceAnswers", "practiceWrong", "practiceMs", "leechCards", "leechAfter"])
        for member in members { #expect(BoxInterface.description.contains("\(member): "), "\(member)") }
        #expect(Self.sample.heatmap[1].json.jsonText == #"{"answerMs":5100,"date":"2026-03-04","reviews":4,"state":"today"}"#)
    }

    @Test func aMistypedMemberIsNamedByItsPath() {
        var json = Self.sample.json.objectValue!
        json["heatmap"] = [["date": "2026-03-04", "state": "today", "reviews": "four", "answerMs": 0]]
        do {
            _ = try BoxStatistics(json: .object(json))
            Issue.record("decoded")
        } catch {
            #expect(error.field == "heatmap.0.reviews")
        }
    }
}
