import LeitnerCore

/// The words for the two questions a learner asks of every view (#35) — "how far am I?" and
/// "when is the next test?" — written once for the review, `status`, `boxes` and the web's
/// pages, from the one definition of each (`TestSummary.done`, `BoxStatus.next`).
public enum TestWords {
    /// `4 of 20 done`, and `· 1 to repeat` while cards answered wrong wait to come back.
    public static func progress(done: Int, of cards: Int, repeating: Int = 0) -> String {
        "\(done) of \(cards) done" + (repeating > 0 ? " · \(repeating) to repeat" : "")
    }

    /// A test's progress (docs/rules.md, "How far you are").
    public static func progress(_ test: TestSummary) -> String {
        progress(done: test.done, of: test.cards, repeating: test.repeating)
    }

    /// The new cards that come into level 1 when today's test opens (R23), while it has not: not
    /// in the test yet, but today's cards all the same, so every view counts them in.
    public static func arriving(_ status: BoxStatus) -> Int {
        status.arrivals.map { $0.date == status.today ? $0.cards : 0 } ?? 0
    }

    /// Today's progress with the cards that arrive when the test opens: `0 of 27 done, 20 of them
    /// new`. Before, a box whose first test had not opened read `0 of 0 done`, as if nothing
    /// were due, and one with cards due said 7 where the review then showed 27.
    public static func progress(_ status: BoxStatus) -> String {
        let test = status.test, arriving = arriving(status)
        return progress(done: test.done, of: test.cards + arriving, repeating: test.repeating)
            + (arriving > 0 ? ", \(arriving) of them new" : "")
    }

    /// `today`, `tomorrow, Sun 2026-11-29`, or `Mon 2026-11-30`.
    public static func day(_ date: LogicalDate, today: LogicalDate) -> String {
        date == today ? "today" : (date == today.next ? "tomorrow, " : "") + "\(date.weekdayAbbreviation) \(date)"
    }

    /// `tomorrow, Sun 2026-11-29: 22 cards, 20 of them new`: when and how many, in the words a
    /// newcomer reads (not the levels, which mean nothing on the first day).
    public static func next(_ next: NextTest, today: LogicalDate) -> String {
        day(next.date, today: today) + ": " + cards(next)
    }

    /// `22 cards, 20 of them new`; `20 new cards` when all are.
    public static func cards(_ next: NextTest) -> String {
        let plural = next.cards == 1 ? "" : "s"
        if next.arrivals == next.cards { return "\(next.cards) new card\(plural)" }
        return "\(next.cards) card\(plural)" + (next.arrivals > 0 ? ", \(next.arrivals) of them new" : "")
    }
}
