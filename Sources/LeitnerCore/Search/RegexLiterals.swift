/// Literal text that every match of a node holds, as UTF-8 of folded scalars: the bytes the
/// search index's folded text then holds too (both are `CaseFolding`'s), so that `SearchPattern` can pass over a side without them before
/// the engine runs. Never more than sure: a byte string here that some match lacks would make a
/// search miss a card.
struct RegexLiterals: Equatable {
    /// The only text the node matches, when it matches one text only.
    var exact: [UInt8]?
    /// What every match starts with.
    var prefix: [UInt8]
    /// What every match ends with.
    var suffix: [UInt8]
    /// The longest run known to be in every match.
    var required: [UInt8]

    static let none = RegexLiterals(exact: nil, prefix: [], suffix: [], required: [])

    static func exactly(_ bytes: [UInt8]) -> RegexLiterals {
        RegexLiterals(exact: bytes, prefix: bytes, suffix: bytes, required: bytes)
    }

    static func longest(_ candidates: [UInt8]...) -> [UInt8] {
        candidates.max { $0.count < $1.count } ?? []
    }
}

extension RegexNode {
    var literals: RegexLiterals {
        switch self {
        case .empty, .assertion:
            // Zero-width: the text around it is contiguous in the match.
            return .exactly([])
        case .scalar(let scalar):
            return .exactly(Array(String(scalar).utf8))
        case .anyButLineBreak, .set:
            return .none
        case .sequence(let items):
            var exact: [UInt8]? = []
            var prefix: [UInt8] = []
            var run: [UInt8] = []
            var best: [UInt8] = []
            for item in items {
                let facts = item.literals
                if let bytes = facts.exact {
                    exact? += bytes
                    run += bytes
                    continue
                }
                if let sofar = exact { prefix = sofar + facts.prefix }
                exact = nil
                best = RegexLiterals.longest(best, run + facts.prefix, facts.required)
                run = facts.suffix
            }
            if let exact { return .exactly(exact) }
            return RegexLiterals(exact: nil, prefix: prefix, suffix: run, required: RegexLiterals.longest(best, run))
        case .alternation(let branches):
            let all = branches.map(\.literals)
            if let first = all.first?.exact, all.allSatisfy({ $0.exact == first }) { return .exactly(first) }
            let prefix = all.dropFirst().reduce(all.first?.prefix ?? []) { common, facts in
                Array(zip(common, facts.prefix).prefix { $0 == $1 }.map(\.0))
            }
            let suffix = all.dropFirst().reduce(all.first?.suffix ?? []) { common, facts in
                Array(zip(common.reversed(), facts.suffix.reversed()).prefix { $0 == $1 }.map(\.0).reversed())
            }
            return RegexLiterals(exact: nil, prefix: prefix, suffix: suffix, required: RegexLiterals.longest(prefix, suffix))
        case .repetition(let item, let low, let high):
            let facts = item.literals
            if low == high, let bytes = facts.exact {
                return .exactly(Array([[UInt8]](repeating: bytes, count: low).joined()))
            }
            guard low > 0 else { return .none }
            return RegexLiterals(exact: nil, prefix: facts.prefix, suffix: facts.suffix, required: facts.required)
        }
    }
}
