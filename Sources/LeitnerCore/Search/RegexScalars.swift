/// How the regular-expression engine sees one Unicode scalar of the text: its upper case (its
/// folding is `CaseFolding`'s), and the named classes (`\d`, `\w`, `[[:alpha:]]` …). Everything
/// here is one scalar at a time, so that matching is never more than a table or property look-up per scalar.
enum RegexScalar {
    /// The scalar's upper-case form when it is one scalar (ß's "SS" is not), else the scalar.
    static func upper(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.value < 0x80 {
            return scalar.value &- 0x61 < 26 ? Unicode.Scalar(UInt8(scalar.value - 0x20)) : scalar
        }
        guard scalar.properties.changesWhenUppercased else { return scalar }
        let mapping = scalar.properties.uppercaseMapping.unicodeScalars
        return mapping.count == 1 ? mapping[mapping.startIndex] : scalar
    }

    /// The line breaks that `Character.isNewline` knows, which split a side into the lines a
    /// search reports: `^` and `$` are at their edges and `.` does not match them.
    @inline(__always)
    static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    /// `\w`: Unicode's word characters (UTS #18): letters, marks, decimal digits, connector
    /// punctuation such as `_`, and the joiners.
    @inline(__always)
    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 {
            let byte = UInt8(scalar.value)
            return (byte | 0x20) &- 0x61 < 26 || byte &- 0x30 < 10 || byte == 0x5F
        }
        let properties = scalar.properties
        if properties.isAlphabetic || properties.isJoinControl { return true }
        switch properties.generalCategory {
        case .decimalNumber, .nonspacingMark, .spacingMark, .enclosingMark, .connectorPunctuation: return true
        default: return false
        }
    }
}

/// A named class of scalars: the escapes `\d \w \s` and the POSIX names of bracket expressions.
enum RegexProperty: String, CaseIterable, Sendable {
    case alpha, digit, alnum, upper, lower, space, blank, punct, cntrl, xdigit, word

    /// The class `[[:NAME:]]` names; `word` has no POSIX name (it is `\w`).
    init?(posixName: String) {
        guard let property = RegexProperty(rawValue: posixName), property != .word else { return nil }
        self = property
    }

    /// Whether `scalar` itself (not its other case) is in the class.
    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        switch self {
        case .alpha: return properties.isAlphabetic
        case .digit: return properties.numericType == .decimal
        case .alnum: return properties.isAlphabetic || properties.numericType == .decimal
        case .upper: return properties.isUppercase
        case .lower: return properties.isLowercase
        case .space: return properties.isWhitespace
        case .blank: return scalar == "\t" || properties.generalCategory == .spaceSeparator
        case .cntrl: return properties.generalCategory == .control
        case .xdigit: return ("0"..."9").contains(scalar) || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
        case .word: return RegexScalar.isWord(scalar)
        case .punct:
            // POSIX's ASCII punctuation is Unicode's punctuation and symbols together ($ + < = > ^ ` | ~ are symbols).
            switch properties.generalCategory {
            case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
                 .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
                return true
            default:
                return false
            }
        }
    }
}

/// A bracket expression, or one of the escapes that stand for a class (`\d`, `\W` …).
///
/// Ignoring case: a scalar of the text is in the set when its folded form or that form's upper
/// case is, so that `[A-Z]` matches "a" and `[[:upper:]]` matches any letter with case, as
/// `grep -i` does; a negated set is the complement of that. The scalars named one by one are
/// kept folded too, for those whose lower case does not go back to them (the Kelvin sign K
/// lower-cases to "k", whose upper case is "K").
struct RegexSet: Equatable, Sendable {
    enum Item: Equatable, Sendable {
        case range(ClosedRange<UInt32>)
        case property(RegexProperty, negated: Bool)
    }

    let items: [Item]
    let negated: Bool
    /// Membership of the 128 ASCII scalars, case and negation applied: most text is ASCII.
    private let asciiLow: UInt64
    private let asciiHigh: UInt64

    init(items: [Item], negated: Bool) {
        var all = items
        for case .range(let range) in items where range.lowerBound == range.upperBound {
            guard let scalar = Unicode.Scalar(range.lowerBound) else { continue }
            let folded = CaseFolding.fold(scalar).value
            if folded != scalar.value { all.append(.range(folded...folded)) }
        }
        self.items = all
        self.negated = negated
        var low: UInt64 = 0, high: UInt64 = 0
        for value in UInt8(0)..<0x80 where RegexSet.member(Unicode.Scalar(value), items: all, negated: negated) {
            if value < 64 { low |= 1 << UInt64(value) } else { high |= 1 << UInt64(value - 64) }
        }
        asciiLow = low
        asciiHigh = high
    }

    /// One of the escapes `\d \D \w \W \s \S`, which are also sets.
    init(_ property: RegexProperty, negated: Bool) {
        self.init(items: [.property(property, negated: false)], negated: negated)
    }

    @inline(__always)
    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 64 { return asciiLow & (1 << UInt64(value)) != 0 }
        if value < 128 { return asciiHigh & (1 << UInt64(value - 64)) != 0 }
        return RegexSet.member(scalar, items: items, negated: negated)
    }

    private static func member(_ scalar: Unicode.Scalar, items: [Item], negated: Bool) -> Bool {
        let folded = CaseFolding.fold(scalar)
        if holds(folded, items) { return !negated }
        let upper = RegexScalar.upper(folded)
        return (upper != folded && holds(upper, items)) != negated
    }

    private static func holds(_ scalar: Unicode.Scalar, _ items: [Item]) -> Bool {
        items.contains { item in
            switch item {
            case .range(let range): range.contains(scalar.value)
            case .property(let property, let negated): property.contains(scalar) != negated
            }
        }
    }
}
