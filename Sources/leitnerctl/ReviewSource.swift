import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink

/// Where the review's cards come from and where its answers go: today's test, whole or a
/// subset of its queue (R26), or a practice session outside it (R27). The screen, its keys and
/// the answer times are the same for both (`ReviewCommand.Session`).
enum ReviewSource {
    /// The test: `Next` (with a filter when one is given), `Grade`, `Undo`.
    case test(tags: [String]?, notTags: [String]?, levels: [Level]?)
    /// Practice: the cards `PracticeCards` chose, answered with `Practice`, which moves nothing.
    case practice(cards: [Card], test: TestSummary)

    /// True when the source reviews only part of the test's queue.
    var isSubset: Bool {
        if case .test(let tags, let notTags, let levels) = self { return tags != nil || notTags != nil || levels != nil }
        return false
    }

    var isPractice: Bool {
        if case .practice = self { return true }
        return false
    }

    /// The next card and the test to show beside it (for practice: the cards left in the
    /// session as its queue); `outside`, the queued cards a subset leaves out.
    mutating func next(_ context: Context) throws -> (card: Card?, test: TestSummary, outside: Int) {
        switch self {
        case .test(let tags, let notTags, let levels):
            if tags == nil && notTags == nil && levels == nil {
                let reply = try context.box.next().value
                return (reply.card, reply.test, 0)
            }
            return try context.box.next(tags: tags, notTags: notTags, levels: levels).value
        case .practice(let cards, var test):
            test.remaining = cards.count
            return (cards.first, test, 0)
        }
    }

    /// Records an answer to `card`: a grade of the test, or a practice answer. Returns the card
    /// as it is after it and the test; nil for a grade the test no longer takes (answered in
    /// another review meanwhile).
    mutating func answer(_ card: Card, correct: Bool, answerMs: Int, context: Context) throws -> (card: Card, test: TestSummary)? {
        switch self {
        case .test:
            do {
                return try context.box.grade(id: card.id, correct: correct, answerMs: answerMs).value
            } catch let error as VarlinkCallError where ReviewCommand.Session.answeredElsewhere(error) {
                return nil
            }
        case .practice(var cards, var test):
            let practised = try context.box.practice(id: card.id, correct: correct, answerMs: answerMs).value
            // Practice is over for the card whatever the answer: a wrong one is logged, and
            // `--wrong-days` brings it back in a later session.
            cards.removeFirst()
            test.remaining = cards.count
            self = .practice(cards: cards, test: test)
            return (practised, test)
        }
    }

    /// The card `id` left the session by the person's hand (`s`, `m`): practice drops it from its
    /// cards; the test's queue follows the levels in the daemon (R8), so `Next` knows already.
    mutating func leave(_ id: String) {
        guard case .practice(var cards, var test) = self else { return }
        cards.removeAll { $0.id == id }
        test.remaining = cards.count
        self = .practice(cards: cards, test: test)
    }

    /// `card` was edited (`e`): practice shows it as it is now; the test asks the daemon anyway.
    mutating func replace(_ card: Card) {
        guard case .practice(var cards, let test) = self else { return }
        for index in cards.indices where cards[index].id == card.id { cards[index] = card }
        self = .practice(cards: cards, test: test)
    }
}
