/// One logical day's work, from the review log: the grades of that day not undone (R15), their
/// answer times, and the first answers of cards in their test, per level, for retention.
public struct DayTally: Sendable, Equatable {
    /// Grades not undone, repeats of a failed card included.
    public var reviews = 0
    /// Of them, wrong ones.
    public var wrong = 0
    /// The sum of their answer times, in milliseconds (grades without one count 0).
    public var answerMs = 0
    /// First answers of a card in a test, by the level it was in (index 0 is level 1).
    public var firstAnswers = [Int](repeating: 0, count: 7)
    /// Of them, right ones.
    public var firstRight = [Int](repeating: 0, count: 7)
    /// Practice answers (R27), apart from the test's grades: all, wrong ones, and their time.
    public var practiced = 0
    public var practiceWrong = 0
    public var practiceMs = 0

    public init() {}
}

extension DayTally {
    /// One day's work on several devices (docs/sync.md): each figure summed.
    public static func + (left: DayTally, right: DayTally) -> DayTally {
        var sum = left
        sum += right
        return sum
    }

    /// Adds another device's work of the same day.
    public static func += (left: inout DayTally, right: DayTally) {
        left.reviews += right.reviews
        left.wrong += right.wrong
        left.answerMs += right.answerMs
        left.practiced += right.practiced
        left.practiceWrong += right.practiceWrong
        left.practiceMs += right.practiceMs
        for index in left.firstAnswers.indices {
            left.firstAnswers[index] += right.firstAnswers[index]
            left.firstRight[index] += right.firstRight[index]
        }
    }
}
