/// Retention of one level (`io.leitner.Box` type `Retention`): of the cards shown in a test at
/// this level, how many were answered right the first time they were shown in that test.
public struct LevelRetention: Sendable, Equatable {
    /// Below this many answers a share is marked uncertain.
    public static let certainAnswers = 20

    public var level: Level
    /// First answers in the recent window, and the right ones among them.
    public var recentAnswers: Int
    public var recentRight: Int
    /// First answers over the whole log, and the right ones among them.
    public var answers: Int
    public var right: Int

    public init(level: Level, recentAnswers: Int, recentRight: Int, answers: Int, right: Int) {
        self.level = level
        self.recentAnswers = recentAnswers
        self.recentRight = recentRight
        self.answers = answers
        self.right = right
    }
}
