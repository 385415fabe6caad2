import Testing
@testable import LeitnerCore

/// The substring and regex matching of `Search`, and the literal a regex's matches must hold
/// (used to pass over sides before the regex engine runs: it must never be wrong).
@Suite struct SearchPatternTests {
    func matches(_ pattern: SearchPattern, _ text: String) -> Bool {
        let folded = Array(CaseFolding.fold(text).utf8)
        return folded.withUnsafeBufferPointer { pattern.matches(folded: $0) }
    }

    @Test func substringsIgnoreCaseInEveryScript() throws {
        let pattern = try SearchPattern("CAFÉ", regex: false)
        #expect(matches(pattern, "un café au lait"))
        #expect(!matches(pattern, "cafe"))
        #expect(matches(try SearchPattern("ねこ", regex: false), "くろいねこ"))
        #expect(matches(try SearchPattern("x", regex: false), "x"))
        #expect(!matches(try SearchPattern("xy", regex: false), "x"))
        #expect(throws: BoxError.self) { try SearchPattern("", regex: false) }
    }

    @Test func regularExpressions() throws {
        #expect(matches(try SearchPattern("^back 7+$", regex: true), "Back 777"))
        #expect(!matches(try SearchPattern("^back 7+$", regex: true), "back 778"))
        #expect(matches(try SearchPattern("colou?r", regex: true), "COLOR"))
        #expect(matches(try SearchPattern("(ab)?cd", regex: true), "cd"))
        #expect(matches(try SearchPattern("a|b", regex: true), "b"))
        #expect(throws: BoxError.invalidPattern(pattern: "(", reason: "unclosed group at character 1")) {
            try SearchPattern("(", regex: true)
        }
        #expect(throws: BoxError.invalidPattern(pattern: "(a)\\1", reason: "'\\1' at character 4 is a back-reference: "
                                                + "back-references are not supported: they cannot be matched in linear time")) {
            try SearchPattern("(a)\\1", regex: true)
        }
        // Lines, as a search reports them: ^ and $ at each line's edges.
        #expect(matches(try SearchPattern("^two$", regex: true), "one\ntwo\r\nthree"))
    }

    /// From the parsed pattern: a repetition of a fixed count is written out, a part repeated at
    /// least once gives what it begins and ends with, alternatives what they all begin or end
    /// with, and a non-ASCII literal its folded UTF-8 (the index's text is folded the same way).
    @Test(arguments: [
        ("^back 7+$", "back 7"), ("colou?r", "colo"), ("(ab)?cd", "cd"), ("x[ab)]?yz", "yz"),
        ("a\\.b", "a.b"), ("Hi\\d+World", "world"), ("ab{2}c", "abbc"), ("xyab{3}c", "xyabbbc"), ("ab{2,345}", "ab"),
        ("CAFÉ", "café"), ("(?:top|stop)s?x", "top"), ("(ab|cb)x", "bx"), ("a\\bb", "ab"), ("\\d+(ab)+c", "abc"),
        ("é", "é"), ("(x|y)+end", "end"),
    ])
    func requiredLiterals(_ pattern: String, _ literal: String) {
        #expect(SearchPattern.requiredLiteral(pattern) == Array(literal.utf8))
    }

    @Test(arguments: ["a|b", "(?i)abc", "\\Qa.b\\E", ".*", "[abc]", "(a", "a{0,3}", "(ab)*"])
    func noRequiredLiteral(_ pattern: String) {
        #expect(SearchPattern.requiredLiteral(pattern) == nil)
    }

    /// `Search` matches on the index's folded text and on a line as it is (folded first): both
    /// must give the same answer.
    @Test(arguments: ["CAFÉ", "[É]", "^ΣΟΦ", "\\bİ", "[[:upper:]]x", "k\\w"])
    func linesAndFoldedTextAgree(_ pattern: String) throws {
        let search = try SearchPattern(pattern, regex: true)
        for line in ["un café", "UN CAFÉ", "σοφία", "İx", "ix", "Ax", "\u{212A}é", "KÉ"] {
            let folded = Array(CaseFolding.fold(line).utf8)
            #expect(folded.withUnsafeBufferPointer { search.matches(folded: $0) } == search.matches(line: line), "\(line)")
        }
    }

    /// A plain pattern and the same text as a regular expression find the same lines: both are
    /// folded by `CaseFolding`, İ (two scalars lower-cased) included.
    @Test(arguments: ["İ", "İX", "CAFÉ", "ΣΟΦ", "\u{212A}"])
    func plainAndRegularPatternsFoldAlike(_ text: String) throws {
        let plain = try SearchPattern(text, regex: false)
        let regex = try SearchPattern(text, regex: true)
        for line in ["İx", "ix", "i\u{307}x", "un café", "σοφία", "kelvin", "\u{212A}"] {
            #expect(plain.matches(line: line) == regex.matches(line: line), "\(text) in \(line)")
        }
    }
}
