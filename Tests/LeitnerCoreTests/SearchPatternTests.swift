import Testing
@testable import LeitnerCore

/// The substring and regex matching of `Search`, and the literal a regex's matches must hold
/// (used to pass over sides before the regex engine runs: it must never be wrong).
@Suite struct SearchPatternTests {
    func matches(_ pattern: SearchPattern, _ text: String) -> Bool {
        let folded = Array(SearchIndex.fold(text).utf8)
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
        #expect(throws: BoxError.self) { try SearchPattern("(", regex: true) }
    }

    @Test(arguments: [
        ("^back 7+$", "back 7"), ("colou?r", "colo"), ("(ab)?cd", "cd"), ("x[ab)]?yz", "yz"),
        ("a\\.b", "a.b"), ("Hi\\d+World", "world"), ("ab{2}c", "a"), ("xyab{22}c", "xya"), ("ab{2,345}", "a"),
    ])
    func requiredLiterals(_ pattern: String, _ literal: String) {
        #expect(SearchPattern.requiredLiteral(pattern) == Array(literal.utf8))
    }

    @Test(arguments: ["a|b", "(?i)abc", "\\Qa.b\\E", ".*", "[abc]", "é"])
    func noRequiredLiteral(_ pattern: String) {
        #expect(SearchPattern.requiredLiteral(pattern) == nil)
    }
}
