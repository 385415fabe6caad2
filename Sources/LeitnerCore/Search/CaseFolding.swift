/// Ignoring case, as `Search` means it, defined once: a scalar folds to its lower case, and text
/// folds scalar by scalar. The search index folds the cards' text with it, a plain pattern is
/// folded with it before it is looked for, the regular-expression engine compares folded
/// scalars, and `leitnerctl search` marks matches with it, so that all four find the same.
public enum CaseFolding {
    /// The scalar lower-cased. Only U+0130 (İ) lower-cases to two scalars ("i" and a combining
    /// dot); its first stands for it, so that every scalar folds to one and the engine, which
    /// reads a scalar at a time, and the index's folded copy agree.
    @inline(__always)
    public static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.value < 0x80 {
            return scalar.value &- 0x41 < 26 ? Unicode.Scalar(UInt8(scalar.value | 0x20)) : scalar
        }
        guard scalar.properties.changesWhenLowercased else { return scalar }
        return scalar.properties.lowercaseMapping.unicodeScalars.first ?? scalar
    }

    /// The text with each scalar folded. Text with no upper-case ASCII letter and nothing beyond
    /// ASCII, most ids and many sides, is returned as it is, without a copy. Without U+0130 the
    /// standard library's `lowercased()` gives the same, scalar for scalar (a test holds the two
    /// together for every scalar), and faster; with it, each scalar is folded here.
    public static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 &- 0x41 >= 26 }) { return text }
        if !text.unicodeScalars.contains("\u{130}") { return text.lowercased() }
        var folded = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { folded.append(fold(scalar)) }
        return String(folded)
    }
}
