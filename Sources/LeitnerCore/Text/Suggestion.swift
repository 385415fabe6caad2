/// "Did you mean": the nearest of a list of names to a mistyped word.
public enum Suggestion {
    /// The candidate nearest to `word` by edit distance (a swap of two neighbours counts as
    /// one edit), or nil when none is near enough: at most 1 edit for words up to 4
    /// characters, 2 for longer ones. A candidate that starts with `word` (an abbreviation
    /// of 2 or more characters) is also offered. Ties go to the earlier candidate.
    public static func nearest(to word: String, among candidates: [String]) -> String? {
        let typed = Array(word.lowercased())
        let letters = typed.drop { $0 == "-" }.count
        let limit = letters <= 4 ? 1 : 2
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        if let best { return best.name }
        if letters >= 2 { return candidates.first { $0.lowercased().hasPrefix(word.lowercased()) } }
        return nil
    }

    /// The optimal-string-alignment distance: insertions, deletions, substitutions and
    /// transpositions of adjacent characters, each one edit.
    public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, before[j - 2] + 1)
                }
                current[j] = value
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
