/// A regular expression matched in time linear in the text: parsed (`RegexParser`), compiled to
/// a program of bounded size (`RegexProgram`) and run as a Thompson NFA, all of its states
/// followed at once, never backtracking. Ignores case. Its syntax is grep -E's with `\d \w \s
/// \b` and friends (docs/protocol.md, `Search`): what `Search` with `regex` and leitnerctl's
/// highlighting both use, so that the terminal marks what the daemon matched.
///
/// Swift's `Regex` backtracks: `^(a+)+$` on a line of a's takes exponential time, and a long
/// pattern on a long side quadratic; a client's pattern could hold the box for minutes.
public struct LinearRegex: Sendable {
    let program: RegexProgram
    /// Bytes every match holds in folded text (`RegexLiterals`); empty when none are sure.
    let requiredLiteral: [UInt8]

    /// - Throws: `RegexError` for a syntax error, a back-reference, a bound above 1000, a
    ///   pattern over 4 KiB or one whose program would pass `RegexProgram.maxInstructions`.
    public init(_ pattern: String) throws(RegexError) {
        let node = try RegexParser.parse(pattern)
        program = try RegexProgram(node)
        requiredLiteral = node.literals.required
    }

    /// True when UTF-8 `text` holds a match.
    public func matches(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        program.run(text, from: 0, goal: .anyMatch).match != nil
    }

    /// Whether UTF-8 `text` holds a match, the steps it took taken from `budget`; nil when the
    /// budget ran out first (the budget is then below zero).
    func matches(_ text: UnsafeBufferPointer<UInt8>, budget: inout Int) -> Bool? {
        let (match, steps) = program.run(text, from: 0, goal: .anyMatch, limit: max(budget, 0))
        budget -= steps
        return budget < 0 ? nil : match != nil
    }

    /// The match of UTF-8 `text` that starts first at byte `start` or after, and of those the
    /// longest (leftmost-longest, as POSIX); its bounds are scalar boundaries. The text before
    /// `start` still counts for `^` and `\b`. `start` is a scalar boundary, at most `text.count`.
    public func firstMatch(in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Range<Int>? {
        guard start >= 0, start <= text.count else { return nil }
        return program.run(text, from: start, goal: .leftmostLongest).match
    }
}
