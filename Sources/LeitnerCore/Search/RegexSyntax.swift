/// Why a pattern is not a regular expression `LinearRegex` runs: a syntax error (what, and at
/// which character, counted in Unicode scalars from 1), or something it refuses so that
/// matching stays linear in the text.
public struct RegexError: Error, Equatable, Sendable, CustomStringConvertible {
    public let reason: String

    init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}

/// What a zero-width `^`, `$`, `\b` or `\B` asks of the scalars on either side of a place.
enum RegexAssertion: Equatable, Sendable {
    case lineStart, lineEnd, wordBoundary, notWordBoundary
}

/// A parsed regular expression. A group leaves no node of its own: nothing is captured, only
/// where a match is matters.
indirect enum RegexNode: Equatable, Sendable {
    case empty
    /// A literal, folded (`CaseFolding.fold`).
    case scalar(Unicode.Scalar)
    case anyButLineBreak
    case set(RegexSet)
    case assertion(RegexAssertion)
    case sequence([RegexNode])
    case alternation([RegexNode])
    /// `max` nil: no upper bound.
    case repetition(RegexNode, min: Int, max: Int?)
}

/// Reads grep -E's syntax (POSIX extended) with Perl's escapes `\d \w \s \b` and their
/// negations, into a `RegexNode` (docs/protocol.md, `Search`).
struct RegexParser {
    /// Longer patterns are refused before anything else: no real search needs one, and with the
    /// program's size limit a longer one could only be refused later, after more work.
    static let maxPatternBytes = 4096
    /// The largest bound of `{m,n}`, as in POSIX's RE_DUP_MAX.
    static let maxBound = 1000
    /// Groups nest no deeper: the parser and the compiler recurse once a level.
    static let maxNesting = 100

    /// What a bracket expression holds one at a time, and what an escape stands for.
    private enum Member {
        case scalar(Unicode.Scalar)
        case property(RegexProperty, negated: Bool)
    }

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var depth = 0

    private init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    /// - Throws: `RegexError` naming the first error and where it is.
    static func parse(_ pattern: String) throws(RegexError) -> RegexNode {
        let bytes = pattern.utf8.count
        guard bytes <= maxPatternBytes else {
            throw RegexError("a regular expression may be at most \(maxPatternBytes) bytes long; this one is \(bytes)")
        }
        var parser = RegexParser(Array(pattern.unicodeScalars))
        let node = try parser.alternation()
        // The only place the top level stops early is a `)` that opened no group.
        if parser.index < parser.scalars.count {
            throw RegexError("unmatched ')' at character \(parser.index + 1)")
        }
        return node
    }

    private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private mutating func alternation() throws(RegexError) -> RegexNode {
        var branches = [try sequence()]
        while peek == "|" {
            index += 1
            branches.append(try sequence())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func sequence() throws(RegexError) -> RegexNode {
        var items: [RegexNode] = []
        while let scalar = peek, scalar != "|", scalar != ")" {
            let (atom, repeatable) = try atom()
            items.append(try quantified(atom, repeatable: repeatable))
        }
        switch items.count {
        case 0: return .empty
        case 1: return items[0]
        default: return .sequence(items)
        }
    }

    /// `atom` with the quantifier that follows it, if any. A lazy quantifier (`*?`) is taken as
    /// the greedy one: which lines match, and the longest match at the leftmost place that
    /// highlighting marks, do not depend on it.
    private mutating func quantified(_ atom: RegexNode, repeatable: Bool) throws(RegexError) -> RegexNode {
        guard let quantifier = try quantifier(at: index) else { return atom }
        guard repeatable else { throw nothingToRepeat(at: index) }
        index += quantifier.length
        if peek == "?" { index += 1 }
        if try self.quantifier(at: index) != nil {
            throw RegexError("'\(scalars[index])' at character \(index + 1) follows a repetition: nothing to repeat")
        }
        return .repetition(atom, min: quantifier.min, max: quantifier.max)
    }

    private func nothingToRepeat(at position: Int) -> RegexError {
        RegexError("'\(scalars[position])' at character \(position + 1) has nothing to repeat")
    }

    /// `*`, `+`, `?` or a bound `{m}` `{m,}` `{m,n}` `{,n}` at `position`; nil when there is
    /// none: a `{` that starts no bound is a literal, as in grep -E.
    private func quantifier(at position: Int) throws(RegexError) -> (min: Int, max: Int?, length: Int)? {
        guard position < scalars.count else { return nil }
        switch scalars[position] {
        case "*": return (0, nil, 1)
        case "+": return (1, nil, 1)
        case "?": return (0, 1, 1)
        case "{": break
        default: return nil
        }
        var cursor = position + 1
        /// The digits at `cursor`, as written, for the message about one too large.
        func digits() -> String? {
            let start = cursor
            while cursor < scalars.count, ("0"..."9").contains(scalars[cursor]) { cursor += 1 }
            return cursor > start ? String(String.UnicodeScalarView(scalars[start..<cursor])) : nil
        }
        let low = digits()
        var high = low
        let comma = cursor < scalars.count && scalars[cursor] == ","
        if comma {
            cursor += 1
            high = digits()
        }
        guard cursor < scalars.count, scalars[cursor] == "}", low != nil || high != nil else { return nil }
        func bound(_ text: String?) throws(RegexError) -> Int? {
            guard let text else { return nil }
            // Past four digits the number is refused whatever it is, so it is never converted.
            guard text.count <= 4, let value = Int(text), value <= RegexParser.maxBound else {
                throw RegexError("repetition bound \(text) at character \(position + 1) is above \(RegexParser.maxBound)")
            }
            return value
        }
        let min = try bound(low) ?? 0
        let max = try bound(high)
        if let max, min > max {
            throw RegexError("repetition {\(min),\(max)} at character \(position + 1) has its minimum above its maximum")
        }
        return (min, max, cursor + 1 - position)
    }

    /// One atom and whether a quantifier may follow it (not an anchor or a word boundary).
    private mutating func atom() throws(RegexError) -> (RegexNode, repeatable: Bool) {
        let position = index
        let scalar = scalars[index]
        index += 1
        switch scalar {
        case "(": return (try group(openedAt: position), true)
        case "[": return (.set(try bracket(openedAt: position)), true)
        case ".": return (.anyButLineBreak, true)
        case "^": return (.assertion(.lineStart), false)
        case "$": return (.assertion(.lineEnd), false)
        case "*", "+", "?": throw nothingToRepeat(at: position)
        case "{":
            if try quantifier(at: position) != nil { throw nothingToRepeat(at: position) }
            return (.scalar("{"), true)
        case "\\":
            guard let escaped = peek else { throw RegexError("trailing backslash at character \(position + 1)") }
            index += 1
            if escaped == "b" { return (.assertion(.wordBoundary), false) }
            if escaped == "B" { return (.assertion(.notWordBoundary), false) }
            switch try member(escaped: escaped, at: position) {
            case .scalar(let literal): return (.scalar(CaseFolding.fold(literal)), true)
            case .property(let property, let negated): return (.set(RegexSet(property, negated: negated)), true)
            }
        default:
            return (.scalar(CaseFolding.fold(scalar)), true)
        }
    }

    private mutating func group(openedAt position: Int) throws(RegexError) -> RegexNode {
        if peek == "?" {
            guard index + 1 < scalars.count, scalars[index + 1] == ":" else {
                let kind = index + 1 < scalars.count ? "(?\(scalars[index + 1])" : "(?"
                throw RegexError("'\(kind)' at character \(position + 1) is not supported: of the (?…) groups only (?:…) is")
            }
            index += 2
        }
        depth += 1
        guard depth <= RegexParser.maxNesting else {
            throw RegexError("group at character \(position + 1) is nested more than \(RegexParser.maxNesting) deep")
        }
        let inner = try alternation()
        guard peek == ")" else { throw RegexError("unclosed group at character \(position + 1)") }
        index += 1
        depth -= 1
        return inner
    }

    /// `[…]`, its `[` at `position`: `]` first is a member, as `-` first or last; `[:NAME:]`
    /// names a class; `\` escapes as it does outside.
    private mutating func bracket(openedAt position: Int) throws(RegexError) -> RegexSet {
        var negated = false
        if peek == "^" {
            negated = true
            index += 1
        }
        var items: [RegexSet.Item] = []
        var first = true
        while true {
            guard let scalar = peek else { throw RegexError("unclosed bracket expression at character \(position + 1)") }
            if scalar == "]" && !first {
                index += 1
                return RegexSet(items: items, negated: negated)
            }
            first = false
            let start = index
            let member = try bracketMember()
            guard case .scalar(let low) = member, peek == "-", index + 1 < scalars.count, scalars[index + 1] != "]" else {
                switch member {
                case .scalar(let literal): items.append(.range(literal.value...literal.value))
                case .property(let property, let negated): items.append(.property(property, negated: negated))
                }
                continue
            }
            index += 1
            guard case .scalar(let high) = try bracketMember() else {
                throw RegexError("range at character \(start + 1) ends in a class, not a character")
            }
            guard low.value <= high.value else {
                throw RegexError("range '\(low)-\(high)' at character \(start + 1) is out of order")
            }
            items.append(.range(low.value...high.value))
        }
    }

    private mutating func bracketMember() throws(RegexError) -> Member {
        let position = index
        let scalar = scalars[index]
        index += 1
        if scalar == "\\" {
            guard let escaped = peek else { throw RegexError("trailing backslash at character \(position + 1)") }
            index += 1
            if escaped == "b" || escaped == "B" {
                throw RegexError("'\\\(escaped)' at character \(position + 1) is a word boundary, which a bracket expression cannot hold")
            }
            return try member(escaped: escaped, at: position)
        }
        if scalar == "[", peek == ":" {
            // A name is letters; `[:` followed by anything else is two members.
            var end = index + 1
            while end < scalars.count, ("a"..."z").contains(scalars[end]) { end += 1 }
            if end + 1 < scalars.count, scalars[end] == ":", scalars[end + 1] == "]" {
                let name = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
                guard let property = RegexProperty(posixName: name) else {
                    throw RegexError("unknown class '[:\(name):]' at character \(position + 1)")
                }
                index = end + 2
                return .property(property, negated: false)
            }
        }
        return .scalar(scalar)
    }

    /// What `\` followed by `escaped` stands for; the `\` is at `position`.
    private func member(escaped: Unicode.Scalar, at position: Int) throws(RegexError) -> Member {
        switch escaped {
        case "d": return .property(.digit, negated: false)
        case "D": return .property(.digit, negated: true)
        case "w": return .property(.word, negated: false)
        case "W": return .property(.word, negated: true)
        case "s": return .property(.space, negated: false)
        case "S": return .property(.space, negated: true)
        case "n": return .scalar("\n")
        case "t": return .scalar("\t")
        case "r": return .scalar("\r")
        case "f": return .scalar("\u{0C}")
        case "v": return .scalar("\u{0B}")
        case "1"..."9":
            throw RegexError("'\\\(escaped)' at character \(position + 1) is a back-reference: back-references are not supported: they cannot be matched in linear time")
        default:
            // Any other letter or digit may mean something in another syntax (`\x41`, `\p{L}`):
            // refused rather than read as itself.
            guard !escaped.properties.isAlphabetic, escaped.properties.numericType == nil else {
                throw RegexError("unknown escape '\\\(escaped)' at character \(position + 1)")
            }
            return .scalar(escaped)
        }
    }
}
