/// One piece of a typed answer laid beside the expected one (docs/rules.md R32), for display:
/// the text both have, or what only one of them has.
public enum AnswerDifference: Sendable, Equatable {
    /// Text typed as expected (as typed).
    case same(String)
    /// Expected text that was not typed.
    case missing(String)
    /// Typed text that was not expected.
    case extra(String)

    /// The pieces of a character-level diff of `typed` against `expected`, comparing the keys
    /// (the characters as the comparison sees them) and showing the characters themselves.
    /// A longest common subsequence, so that one wrong letter marks one letter.
    static func diff(typed: [Character], typedKeys: [Character], expected: [Character], expectedKeys: [Character]) -> [AnswerDifference] {
        let rows = typedKeys.count, columns = expectedKeys.count
        // common[i][j]: the longest common subsequence of typedKeys[i...] and expectedKeys[j...].
        var common = Array(repeating: Array(repeating: 0, count: columns + 1), count: rows + 1)
        for i in stride(from: rows - 1, through: 0, by: -1) {
            for j in stride(from: columns - 1, through: 0, by: -1) {
                common[i][j] = typedKeys[i] == expectedKeys[j]
                    ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var pieces: [AnswerDifference] = []
        func add(_ piece: AnswerDifference) {
            switch (pieces.last, piece) {
            case let (.same(a)?, .same(b)): pieces[pieces.count - 1] = .same(a + b)
            case let (.missing(a)?, .missing(b)): pieces[pieces.count - 1] = .missing(a + b)
            case let (.extra(a)?, .extra(b)): pieces[pieces.count - 1] = .extra(a + b)
            default: pieces.append(piece)
            }
        }
        var i = 0, j = 0
        while i < rows || j < columns {
            if i < rows, j < columns, typedKeys[i] == expectedKeys[j] {
                add(.same(String(typed[i]))); i += 1; j += 1
            } else if i < rows, j == columns || common[i + 1][j] >= common[i][j + 1] {
                add(.extra(String(typed[i]))); i += 1
            } else {
                add(.missing(String(expected[j]))); j += 1
            }
        }
        return pieces
    }
}
