/// Removing accents (docs/rules.md R32, `IgnoreAccents=yes`): each scalar is decomposed
/// canonically and its combining marks are dropped, so "é" and "e" + U+0301 both become "e".
///
/// The standard library composes (NFC) but does not expose decomposition, and the project
/// uses no Foundation; so the decompositions needed are learnt from the standard library's own
/// composition: every base of the scripts below is composed with every combining mark, and
/// each pair that composes to one scalar gives that scalar's decomposition. A second round
/// composes the results again (Vietnamese "ệ" is "ẹ" with a circumflex). The table is built
/// once, on first use, and only when accents are ignored.
public enum AccentFolding {
    /// The scalars a decomposition can start with: Latin, Greek, Cyrillic and kana.
    static let baseRanges: [ClosedRange<UInt32>] = [0x41...0x24F, 0x370...0x4FF, 0x1E00...0x1FFF, 0x3040...0x30FF]
    /// The combining marks that compose: the general diacritics and the kana voicing marks.
    static let markRanges: [ClosedRange<UInt32>] = [0x300...0x345, 0x3099...0x309A]

    /// A composed scalar → the scalar it decomposes to, less its last mark.
    static let decomposition: [Unicode.Scalar: Unicode.Scalar] = {
        var table: [Unicode.Scalar: Unicode.Scalar] = [:]
        let marks = markRanges.flatMap { $0.compactMap(Unicode.Scalar.init) }
        func learn(from bases: [Unicode.Scalar]) -> [Unicode.Scalar] {
            var found: [Unicode.Scalar] = []
            for base in bases {
                for mark in marks {
                    var pair = String(base)
                    pair.unicodeScalars.append(mark)
                    let composed = pair._nfcCodeUnits
                    guard let single = String(validating: composed, as: UTF8.self)?.unicodeScalars,
                          single.count == 1, let scalar = single.first, scalar != base,
                          table[scalar] == nil else { continue }
                    table[scalar] = base
                    found.append(scalar)
                }
            }
            return found
        }
        let composedOnce = learn(from: baseRanges.flatMap { $0.compactMap(Unicode.Scalar.init) })
        _ = learn(from: composedOnce)
        return table
    }()

    /// True for a combining mark (general category Mn, Mc or Me), which a decomposition puts
    /// after its base.
    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// The text without its accents: each scalar replaced by its base, marks dropped.
    public static func strip(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        var stripped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isMark(scalar) {
            var base = scalar
            while let next = decomposition[base] { base = next }
            stripped.append(base)
        }
        return String(stripped)
    }
}
