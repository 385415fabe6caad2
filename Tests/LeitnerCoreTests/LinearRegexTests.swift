import Testing
@testable import LeitnerCore

/// The syntax of `LinearRegex` (grep -E's, with `\d \w \s \b` and friends), its case folding, what
/// it refuses and why, and the match ranges leitnerctl highlights.
@Suite struct LinearRegexTests {
    func matches(_ pattern: String, _ text: String) throws -> Bool {
        let regex = try LinearRegex(pattern)
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { regex.matches($0) }
    }

    /// The text of the leftmost-longest match at byte `from` or after.
    func firstMatch(_ pattern: String, _ text: String, from: Int = 0) throws -> String? {
        let regex = try LinearRegex(pattern)
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            regex.firstMatch(in: buffer, from: from).map { String(decoding: buffer[$0], as: UTF8.self) }
        }
    }

    func refusal(_ pattern: String) -> String? {
        do {
            _ = try LinearRegex(pattern)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test(arguments: [
        ("a.c", "abc", true), ("a.c", "a\nc", false), ("a.c", "a\u{2028}c", false), ("é", "café", true),
        ("ねこ", "くろいねこ", true), ("x{", "ax{b", true), ("a}", "a}", true), ("a{,2}b", "b", true),
        ("^b$", "a\nb\nc", true), ("^b", "ab", false), ("a$", "ab", false), ("a$", "xa\r\nb", true),
        ("^a$", "x\r\na\r\ny", true), ("^$", "a\r\nb", false), ("^$", "a\n\nb", true), ("^$", "", true),
        ("first\\nsecond", "first\nsecond", true), ("a\\tb", "a\tb", true), ("\\\\", "a\\b", true),
        ("a\\.b", "a.b", true), ("a\\.b", "axb", false), ("\\*\\(\\)\\[\\{\\|\\?\\+\\^\\$", "*()[{|?+^$", true),
        ("\\d+", "x٣y", true), ("\\D", "123", false), ("\\w", "_", true), ("\\w", "é", true), ("\\W", "ab_9", false),
        ("\\s", "a\u{00A0}b", true), ("\\S", " \t\n", false), ("\\bcat\\b", "a cat.", true), ("\\bcat\\b", "cats", false),
        ("\\Bat\\b", "cat", true), ("\\Bcat", "cat", false),
        ("(ab)+c", "ababc", true), ("(?:ab)+c", "abac", false), ("a|b", "b", true), ("a|", "zzz", true), ("()", "x", true),
        ("colou?r", "color", true), ("ab{2}c", "abbc", true), ("ab{2}c", "abbbc", false), ("ab{2,}c", "abbbbc", true),
        ("ab{2,3}c", "abbbbc", false), ("ab{0}c", "ac", true), ("a*?b", "aab", true), ("a+?", "a", true), ("a{2}?", "aa", true),
    ])
    func syntax(_ pattern: String, _ text: String, _ expected: Bool) throws {
        #expect(try matches(pattern, text) == expected)
    }

    @Test(arguments: [
        ("[abc]", "xbx", true), ("[abc]", "xyz", false), ("[^a-z]", "abc", false), ("[^a-z]", "ab1", true),
        ("[ぁ-ん]+", "ひらがな", true), ("[ぁ-ん]", "カタカナ", false), ("[]a]", "]", true), ("[^]a]", "]a", false),
        ("[a-]", "-", true), ("[-a]", "-", true), ("[\\]\\\\]", "\\", true), ("[\\d_]", "_", true), ("[\\n]", "\n", true),
        ("[^a]", "\n", true), ("[[:x]", "[", true), ("[.]", "a", false),
        ("[[:alpha:]]", "é", true), ("[[:alpha:]]", "1", false), ("[[:digit:]]", "٣", true), ("[[:digit:]]", "x", false),
        ("[[:alnum:]]", "7", true), ("[[:alnum:]]", "-", false), ("[[:space:]]", "\t", true), ("[[:space:]]", "x", false),
        ("[[:upper:]]", "A", true), ("[[:lower:]]", "a", true), ("[[:punct:]]", "$", true), ("[[:punct:]]", "«", true),
        ("[[:punct:]]", "a", false), ("[[:xdigit:]]", "F", true), ("[[:xdigit:]]", "g", false), ("[[:blank:]]", " ", true),
        ("[[:blank:]]", "\n", false), ("[[:cntrl:]]", "\u{7}", true), ("[^[:digit:][:space:]]", "1 2", false),
    ])
    func bracketExpressions(_ pattern: String, _ text: String, _ expected: Bool) throws {
        #expect(try matches(pattern, text) == expected)
    }

    /// As `grep -i`: literals fold to lower case, and a class holds a scalar when it holds its
    /// lower or upper case, in every script that has case.
    @Test(arguments: [
        ("CAFÉ", "un café", true), ("café", "UN CAFÉ", true), ("[É]", "é", true), ("[é]", "É", true),
        ("[A-Z]+", "abc", true), ("[a-z]", "Q", true), ("[à-ÿ]", "É", true), ("[^a-z]", "A", false),
        ("[[:upper:]]", "a", true), ("[[:lower:]]", "Ä", true), ("[^[:upper:]]", "a", false),
        ("σοφία", "ΣΟΦΊΑ", true), ("k", "\u{212A}", true), ("[\u{212A}]", "k", true), ("ÄBC", "äbc", true),
    ])
    func caseIsIgnored(_ pattern: String, _ text: String, _ expected: Bool) throws {
        #expect(try matches(pattern, text) == expected)
    }

    @Test(arguments: [
        ("(", "unclosed group at character 1"),
        ("a(b(c)", "unclosed group at character 2"),
        ("ab)", "unmatched ')' at character 3"),
        ("[ab", "unclosed bracket expression at character 1"),
        ("[]", "unclosed bracket expression at character 1"),
        ("*a", "'*' at character 1 has nothing to repeat"),
        ("a|+", "'+' at character 3 has nothing to repeat"),
        ("(?a)", "'(?a' at character 1 is not supported: of the (?…) groups only (?:…) is"),
        ("(?=a)", "'(?=' at character 1 is not supported: of the (?…) groups only (?:…) is"),
        ("^*", "'*' at character 2 has nothing to repeat"),
        ("{2}", "'{' at character 1 has nothing to repeat"),
        ("a**", "'*' at character 3 follows a repetition: nothing to repeat"),
        ("a{2}{3}", "'{' at character 5 follows a repetition: nothing to repeat"),
        ("a*+", "'+' at character 3 follows a repetition: nothing to repeat"),
        ("a\\", "trailing backslash at character 2"),
        ("\\x41", "unknown escape '\\x' at character 1"),
        ("\\p{L}", "unknown escape '\\p' at character 1"),
        ("\\é", "unknown escape '\\é' at character 1"),
        ("(a)\\1", "'\\1' at character 4 is a back-reference: back-references are not supported: they cannot be matched in linear time"),
        ("a{1001}", "repetition bound 1001 at character 2 is above 1000"),
        ("a{2,99999999999999999999}", "repetition bound 99999999999999999999 at character 2 is above 1000"),
        ("a{3,2}", "repetition {3,2} at character 2 has its minimum above its maximum"),
        ("[z-a]", "range 'z-a' at character 2 is out of order"),
        ("[a-\\d]", "range at character 2 ends in a class, not a character"),
        ("[\\b]", "'\\b' at character 2 is a word boundary, which a bracket expression cannot hold"),
        ("[[:letter:]]", "unknown class '[:letter:]' at character 2"),
        ("(x{100}){101}", "too large: more than 10000 instructions once its repetitions are expanded (x{m,n} is up to n copies of x), the most a regular expression may take"),
        ("((a{1000}){1000}){1000}", "too large: more than 10000 instructions once its repetitions are expanded (x{m,n} is up to n copies of x), the most a regular expression may take"),
    ])
    func refusals(_ pattern: String, _ reason: String) {
        #expect(refusal(pattern) == reason)
    }

    @Test func limitsOfSize() {
        #expect(refusal(String(repeating: "a", count: 4096)) == nil)
        #expect(refusal(String(repeating: "é", count: 2049))
                == "a regular expression may be at most 4096 bytes long; this one is 4098")
        #expect(refusal(String(repeating: "(", count: 101) + String(repeating: ")", count: 101))
                == "group at character 101 is nested more than 100 deep")
        #expect(refusal(String(repeating: "(", count: 100) + "a" + String(repeating: ")", count: 100)) == nil)
        #expect(refusal("(x{99}){100}") == nil)
    }

    /// Leftmost, then longest, whatever the order of the alternatives or the laziness.
    @Test(arguments: [
        ("a|ab", "xab", "ab"), ("(a|ab)(c|bcd)", "abcd", "abcd"), ("a+?", "baaa", "aaa"), ("b*", "abb", ""),
        ("x*", "", ""), ("é+", "caféé!", "éé"), ("[[:digit:]]+", "no 123 45", "123"), ("dog|dogs", "hotdogs", "dogs"),
    ])
    func leftmostLongestRanges(_ pattern: String, _ text: String, _ expected: String) throws {
        #expect(try firstMatch(pattern, text) == expected)
    }

    /// From a place in the line: the text before it still counts for `^` and `\b`.
    @Test func matchesFromAPlace() throws {
        #expect(try firstMatch("^b", "ab", from: 1) == nil)
        #expect(try firstMatch("^b", "a\nb", from: 2) == "b")
        #expect(try firstMatch("\\bfoo", "barfoo foo", from: 3) == "foo")
        #expect(try firstMatch("o+", "foo boo", from: 3) == "oo")
        #expect(try firstMatch("ö", "öxö", from: 2) == "ö")
        #expect(try firstMatch("x", "abc", from: 3) == nil)
    }

    /// Folding is one scalar to one scalar, so that the engine (a scalar at a time) and the
    /// index's folded text agree: folding twice changes nothing, text folds as its scalars do,
    /// and the fold is the scalar's lower case, the first of two only for U+0130. Every scalar
    /// is checked.
    @Test func foldingIsEachScalarsLowerCase() {
        var disagreements: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let folded = CaseFolding.fold(scalar)
            let lowered = Array(String(scalar).lowercased().unicodeScalars)
            let expected = value == 0x130 ? [lowered[0]] : lowered
            if CaseFolding.fold(folded) != folded || [folded] != expected
                || Array(CaseFolding.fold(String(scalar) + "A").unicodeScalars) != [folded, "a"] {
                disagreements.append(value)
            }
        }
        #expect(disagreements.isEmpty)
    }
}
