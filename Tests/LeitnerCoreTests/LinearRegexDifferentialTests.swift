import Testing
@testable import LeitnerCore

/// `LinearRegex` against Swift's `Regex` on small generated patterns and texts, in the part of
/// the syntax where the two agree: literals of a tiny alphabet, `.`, bracket expressions, groups,
/// alternation, quantifiers, anchors and `\b \d \w \s`. Swift's is set to ignore case, to make
/// `^`/`$` match at line breaks and to read Unicode scalars (not characters), as ours does. Its
/// `\b` is Unicode's word boundary (its "simple" one takes digits for non-word characters), which
/// is ours — between a word and a non-word character — except next to a line break or at the
/// text's edges: a pattern with `\b` is compared only on texts without those places. Both must
/// say whether there is a match, and where the leftmost
/// starts (a backtracking engine's first match starts there too; only its end may differ).
/// Each match also checks `SearchPattern.requiredLiteral`: a text that matches holds it.
@Suite struct LinearRegexDifferentialTests {
    struct PatternGenerator {
        var random: SeededGenerator

        mutating func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }

        mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

        mutating func atom(depth: Int) -> String {
            switch random.next() % 10 {
            case 0: return "."
            case 1: return pick(["[ab]", "[^a]", "[a-c]", "[^bc]", "[B-C]", "[a\\d]", "[ ]", "[[:alpha:]]", "[^[:digit:]]"])
            case 2: return pick(["\\d", "\\w", "\\s", "\\W"])
            case 3 where depth < 3: return (chance(50) ? "(" : "(?:") + alternation(depth: depth + 1) + ")"
            default: return pick(["a", "b", "c", "A", "B", "1", " "])
            }
        }

        mutating func quantified(depth: Int) -> String {
            let atom = atom(depth: depth)
            guard chance(35) else { return atom }
            return atom + pick(["*", "+", "?", "{2}", "{1,2}", "{0,3}", "{2,}", "*?", "+?"])
        }

        mutating func sequence(depth: Int) -> String {
            var out = chance(15) ? "^" : ""
            for _ in 0..<(1 + random.next() % 4) {
                out += chance(8) ? "\\b" : ""
                out += quantified(depth: depth)
            }
            return out + (chance(15) ? "$" : "")
        }

        mutating func alternation(depth: Int) -> String {
            var out = sequence(depth: depth)
            while chance(20) { out += "|" + sequence(depth: depth) }
            return out
        }

        mutating func text() -> String {
            String((0..<(random.next() % 14)).map { _ in pick(Array("aabbcAB1 \n")) })
        }
    }

    /// Where the leftmost match starts, in bytes, by each engine.
    static func starts(_ pattern: String, _ text: String) throws -> (ours: Int?, swift: Int?) {
        let ours = try LinearRegex(pattern)
        let bytes = Array(text.utf8)
        let our = bytes.withUnsafeBufferPointer { ours.firstMatch(in: $0, from: 0)?.lowerBound }
        let swift = try Regex(pattern).ignoresCase().anchorsMatchLineEndings().matchingSemantics(.unicodeScalar)
        let theirs = try swift.firstMatch(in: text).map { text.utf8.distance(from: text.startIndex, to: $0.range.lowerBound) }
        let found = bytes.withUnsafeBufferPointer { ours.matches($0) }
        #expect(found == (our != nil), "matches and firstMatch disagree on \(pattern.debugDescription)")
        // The prefilter must never pass over a text that matches.
        if found, let required = SearchPattern.requiredLiteral(pattern) {
            let folded = Array(CaseFolding.fold(text).utf8)
            #expect(folded.withUnsafeBufferPointer { text in required.withUnsafeBufferPointer { SearchPattern.contains(text, $0) } },
                    "required literal of \(pattern.debugDescription) not in \(text.debugDescription)")
        }
        return (our, theirs)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func agreesWithSwiftRegex(seed: UInt64) throws {
        var generator = PatternGenerator(random: SeededGenerator(seed: seed))
        var compared = 0
        for _ in 0..<100 {
            let pattern = generator.alternation(depth: 0)
            for _ in 0..<8 {
                let text = generator.text()
                if pattern.contains("\\b"), !Self.boundariesAgree(text) { continue }
                let (ours, swift) = try Self.starts(pattern, text)
                #expect(ours == swift, "pattern \(pattern.debugDescription) text \(text.debugDescription)")
                compared += 1
            }
        }
        #expect(compared > 600)
    }

    /// Whether Unicode's word boundaries are ours all along `text`: they differ only where a
    /// line break or an edge of the text meets a non-word character.
    static func boundariesAgree(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.first, let last = scalars.last else { return true }
        if !RegexScalar.isWord(first) || !RegexScalar.isWord(last) { return false }
        return !zip(scalars, scalars.dropFirst()).contains { pair in
            (pair.0 == "\n" || pair.1 == "\n") && !RegexScalar.isWord(pair.0) && !RegexScalar.isWord(pair.1)
        }
    }

    @Test(arguments: [
        ("(a|ab)(c|bcd)(d*)", "abcd"), ("^(a+)+$", "aaaa"), ("\\bb", "ab b"), ("[^a]", "A\nb"), ("a$", "a\nb"),
        ("(?:a|b)*c", "ababx abc"), ("x*", ""), ("\\s+", "a \n b"), ("[a-c]{2,}", "xAbCy"),
    ])
    func agreesOnChosenCases(_ pattern: String, _ text: String) throws {
        let (ours, swift) = try Self.starts(pattern, text)
        #expect(ours == swift)
    }
}
