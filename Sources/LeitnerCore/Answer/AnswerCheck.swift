/// The comparison of a typed answer with the expected one (docs/rules.md R32), the one used by
/// the terminal and the web.
public struct AnswerCheck: Sendable {
    /// Whether accents are ignored (`[Review] IgnoreAccents=`).
    public var ignoresAccents: Bool

    public init(ignoresAccents: Bool = false) {
        self.ignoresAccents = ignoresAccents
    }

    /// What the comparison found.
    public struct Verdict: Sendable, Equatable {
        /// Whether the typed answer is one of the expected ones.
        public var isRight: Bool
        /// The alternative compared with: the one matched, or else the nearest.
        public var expected: String
        /// The typed answer beside `expected`, piece by piece.
        public var differences: [AnswerDifference]
    }

    /// The alternatives of an expected answer: its parts between ` / `, tidied; an empty part
    /// is left out.
    public static func alternatives(of expected: String) -> [String] {
        expected.split(separator: " / ", omittingEmptySubsequences: true)
            .map { tidy(String($0)) }.filter { !$0.isEmpty }
    }

    /// The text with white space trimmed at both ends and every run of it made one space.
    static func tidy(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The characters as compared: lower case and, when configured, without accents.
    /// `Character`'s `==` is canonical equivalence, so NFC and NFD text compare equal as they are.
    func keys(_ text: String) -> [Character] {
        var folded = text.lowercased()
        if ignoresAccents { folded = AccentFolding.strip(folded) }
        // Folding works on whole text; laying it back beside the shown characters needs one key
        // per character, so fold character by character when the counts differ (İ, ß's capital).
        let characters = Array(folded)
        if characters.count == text.count { return characters }
        return text.map { character in
            var key = String(character).lowercased()
            if ignoresAccents { key = AccentFolding.strip(key) }
            return key.first ?? character
        }
    }

    /// Compares `typed` with `expected`, the back's text without markup (`AnswerText.plain`).
    public func check(typed: String, expected: String) -> Verdict {
        let shown = Array(AnswerCheck.tidy(typed))
        let typedKeys = keys(String(shown))
        let choices = AnswerCheck.alternatives(of: expected)
        var best: (verdict: Verdict, distance: Int)?
        for choice in choices.isEmpty ? [""] : choices {
            let expectedCharacters = Array(choice)
            let expectedKeys = keys(choice)
            let differences = AnswerDifference.diff(typed: shown, typedKeys: typedKeys,
                                                    expected: expectedCharacters, expectedKeys: expectedKeys)
            let verdict = Verdict(isRight: !shown.isEmpty && typedKeys == expectedKeys, expected: choice, differences: differences)
            if verdict.isRight { return verdict }
            // The nearest alternative is shown: the one with the fewest characters marked.
            let distance = differences.reduce(0) { total, piece in
                switch piece {
                case .same: total
                case .missing(let text), .extra(let text): total + text.count
                }
            }
            if best == nil || distance < best!.distance { best = (verdict, distance) }
        }
        return best?.verdict ?? Verdict(isRight: false, expected: "", differences: [])
    }
}
