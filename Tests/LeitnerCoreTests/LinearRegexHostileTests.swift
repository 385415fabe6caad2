import Testing
@testable import LeitnerCore

/// Patterns that make a backtracking engine take exponential or quadratic time, on long texts:
/// the work is counted (states entered), not timed, and must stay within one entry per state
/// per place, (text length + 1) × program size. A backtracking engine would not finish these.
@Suite struct LinearRegexHostileTests {
    /// Runs `pattern` over `text`, checks the bound on its work, and gives whether it matched.
    static func run(_ pattern: String, _ text: [UInt8], goal: RegexProgram.Goal = .anyMatch) throws -> Bool {
        let regex = try LinearRegex(pattern)
        let (match, steps) = text.withUnsafeBufferPointer { regex.program.run($0, from: 0, goal: goal) }
        let bound = (text.count + 1) * regex.program.instructions.count
        #expect(steps <= bound, "\(pattern): \(steps) steps, bound \(bound)")
        return match != nil
    }

    static let a100k = [UInt8](repeating: UInt8(ascii: "a"), count: 100_000)

    @Test(arguments: [
        ("^(a+)+$", true), ("^(a+)+b$", false), ("(a*)*b", false), ("(a|aa)*c", false), ("\\w+é", false),
        ("(a|a)*$", true), ("(.*a){20}b", false), ("(a?){100}a{100}b", false), ("^(\\w+\\s?)*!$", false),
    ])
    func catastrophicPatternsOnAHundredThousandAs(_ pattern: String, _ expected: Bool) throws {
        #expect(try Self.run(pattern, Self.a100k) == expected)
        #expect(try Self.run(pattern, Self.a100k, goal: .leftmostLongest) == expected)
    }

    @Test func aNonMatchingTextEndsTheSameWay() throws {
        let text = Self.a100k + Array("!".utf8)
        #expect(try !Self.run("^(a+)+$", text))
        #expect(try !Self.run("^(a|aa)+$", text))
    }

    /// The fuzzer's case: a mebibyte of "é" as the pattern and as a side. Such a pattern is
    /// refused at once; the largest allowed one, and a long one that does not match, are run
    /// against a mebibyte of "é" within the bound.
    @Test func aMebibyteOfEAsPatternAndSide() throws {
        let mebibyte = String(repeating: "é", count: 1 << 19)
        #expect(throws: BoxError.invalidPattern(pattern: mebibyte,
                                                reason: "a regular expression may be at most 4096 bytes long; this one is 1048576")) {
            try SearchPattern(mebibyte, regex: true)
        }
        let side = Array(mebibyte.utf8)
        let largest = try SearchPattern(String(repeating: "é", count: 2048), regex: true)
        #expect(side.withUnsafeBufferPointer { largest.matches(folded: $0) })
        let missing = try SearchPattern(String(repeating: "é", count: 2047) + "x", regex: true)
        #expect(!side.withUnsafeBufferPointer { missing.matches(folded: $0) })
        #expect(try !Self.run(String(repeating: "é", count: 64) + "x", side))
        #expect(try Self.run("(é|ée)*$", side))
    }
}
