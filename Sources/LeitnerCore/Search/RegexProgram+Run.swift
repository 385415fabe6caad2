extension RegexProgram {
    /// What a run looks for.
    enum Goal {
        /// Whether there is a match at all: the run stops at the first one found.
        case anyMatch
        /// The match that starts first, and of those the longest (POSIX's rule, which does not
        /// depend on the order of alternatives or on lazy quantifiers).
        case leftmostLongest
    }

    /// Looks for a match in UTF-8 `text` starting at byte `start` or after (the scalar before
    /// `start` still counts for `^` and `\b`). Threads — a state and the byte its match started
    /// at — move one scalar at a time; a state entered twice at the same place is entered once,
    /// by the thread whose match started first, which is all leftmost-longest needs: both
    /// threads would go on the same way from there.
    /// - Parameter limit: the steps the run may take; it stops at the first place after that
    ///   many, without a match (the caller sees `steps > limit`: a search's work budget).
    /// - Returns: the match's bytes, and the steps taken (states entered): at most one per
    ///   instruction per place, so at most (scalars read + 1) × `instructions.count`.
    func run(_ text: UnsafeBufferPointer<UInt8>, from start: Int, goal: Goal,
             limit: Int = .max) -> (match: Range<Int>?, steps: Int) {
        let count = instructions.count
        return instructions.withUnsafeBufferPointer { program in
            sets.withUnsafeBufferPointer { sets in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 6 * count) { scratch in
                    guard let base = scratch.baseAddress else { return (nil, 0) }
                    base.initialize(repeating: -1, count: count)
                    var machine = Machine(program: program, marks: base, stack: base + count)
                    var current = ThreadList(states: base + 2 * count, starts: base + 3 * count)
                    var next = ThreadList(states: base + 4 * count, starts: base + 5 * count)
                    var position = start
                    var before = RegexProgram.scalar(in: text, before: start)
                    var here = RegexProgram.scalar(in: text, at: position)
                    var place = 0
                    while true {
                        // A new thread starts at each place, after the older ones: the list stays
                        // ordered by where the threads' matches started.
                        if machine.found == nil {
                            machine.enter(0, start: position, place: place, at: position, before: before,
                                          after: here?.scalar, into: &current)
                            if goal == .anyMatch, machine.found != nil { break }
                        }
                        guard let (scalar, length) = here, current.count > 0 || machine.found == nil else { break }
                        // Checked once a place, not once a step: a place costs at most one
                        // step per instruction, so the run ends within that of its limit.
                        if machine.steps > limit { return (nil, machine.steps) }
                        let after = position + length
                        let following = RegexProgram.scalar(in: text, at: after)
                        let folded = CaseFolding.fold(scalar)
                        place += 1
                        next.count = 0
                        for index in 0..<current.count {
                            let threadStart = current.starts[index]
                            // A thread whose match would start after one found cannot win.
                            if let found = machine.found, threadStart > found.lowerBound { break }
                            let state = current.states[index]
                            let reads = switch program[state] {
                            case .scalar(let literal): literal == folded
                            case .anyButLineBreak: !RegexScalar.isLineBreak(scalar)
                            case .set(let set): sets[set].contains(scalar)
                            default: false
                            }
                            guard reads else { continue }
                            machine.enter(state + 1, start: threadStart, place: place, at: after, before: scalar,
                                          after: following?.scalar, into: &next)
                            if goal == .anyMatch, machine.found != nil { break }
                        }
                        if goal == .anyMatch, machine.found != nil { break }
                        swap(&current, &next)
                        before = scalar
                        position = after
                        here = following
                    }
                    return (machine.found, machine.steps)
                }
            }
        }
    }

    /// The threads at one place: the state each is in and where its match started.
    private struct ThreadList {
        let states: UnsafeMutablePointer<Int>
        let starts: UnsafeMutablePointer<Int>
        var count = 0

        @inline(__always)
        mutating func append(_ state: Int, start: Int) {
            states[count] = state
            starts[count] = start
            count += 1
        }
    }

    private struct Machine {
        let program: UnsafeBufferPointer<Instruction>
        /// The place each state was last entered at, so that it is entered once a place.
        let marks: UnsafeMutablePointer<Int>
        /// The states still to follow from the one entered (the instruction count bounds it:
        /// a state is pushed only when first entered at a place).
        let stack: UnsafeMutablePointer<Int>
        var steps = 0
        var found: Range<Int>?

        /// Enters `state` and every state reachable from it without reading, at byte `position`
        /// (the `place`-th scalar boundary of the run), between the scalars `before` and
        /// `after`: those that read go into `list`; reaching `match` records a match.
        @inline(__always)
        mutating func enter(_ state: Int, start: Int, place: Int, at position: Int, before: Unicode.Scalar?,
                            after: Unicode.Scalar?, into list: inout ThreadList) {
            var depth = 0
            func push(_ target: Int) {
                guard marks[target] != place else { return }
                marks[target] = place
                steps += 1
                stack[depth] = target
                depth += 1
            }
            push(state)
            while depth > 0 {
                depth -= 1
                let state = stack[depth]
                switch program[state] {
                case .jump(let target):
                    push(target)
                case .split(let first, let second):
                    push(second)
                    push(first)
                case .assertion(let assertion):
                    if RegexProgram.holds(assertion, before: before, after: after) { push(state + 1) }
                case .match:
                    if let found, start > found.lowerBound || (start == found.lowerBound && position <= found.upperBound) {
                        break
                    }
                    found = start..<position
                default:
                    list.append(state, start: start)
                }
            }
        }
    }

    static func holds(_ assertion: RegexAssertion, before: Unicode.Scalar?, after: Unicode.Scalar?) -> Bool {
        switch assertion {
        case .lineStart:
            // Between the two scalars of a CR LF there is no line to start or end.
            guard let before else { return true }
            return RegexScalar.isLineBreak(before) && !(before == "\r" && after == "\n")
        case .lineEnd:
            guard let after else { return true }
            return RegexScalar.isLineBreak(after) && !(after == "\n" && before == "\r")
        case .wordBoundary:
            return before.map(RegexScalar.isWord) ?? false != after.map(RegexScalar.isWord) ?? false
        case .notWordBoundary:
            return before.map(RegexScalar.isWord) ?? false == after.map(RegexScalar.isWord) ?? false
        }
    }

    /// The scalar that starts at byte `index`, and its length; nil at the end. Bytes that are
    /// not UTF-8 (the index is built from strings, so there are none) read as U+FFFD one by one.
    @inline(__always)
    static func scalar(in text: UnsafeBufferPointer<UInt8>, at index: Int) -> (scalar: Unicode.Scalar, length: Int)? {
        guard index < text.count else { return nil }
        let lead = text[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        return multibyteScalar(in: text, at: index)
    }

    private static func multibyteScalar(in text: UnsafeBufferPointer<UInt8>, at index: Int) -> (scalar: Unicode.Scalar, length: Int) {
        let invalid: (Unicode.Scalar, Int) = ("\u{FFFD}", 1)
        let lead = UInt32(text[index])
        let (length, smallest, bits): (Int, UInt32, UInt32) = switch lead {
        case 0xC2...0xDF: (2, 0x80, lead & 0x1F)
        case 0xE0...0xEF: (3, 0x800, lead & 0x0F)
        case 0xF0...0xF4: (4, 0x10000, lead & 0x07)
        default: (0, 0, 0)
        }
        guard length > 0, index + length <= text.count else { return invalid }
        var value = bits
        for offset in 1..<length {
            let byte = text[index + offset]
            guard byte & 0xC0 == 0x80 else { return invalid }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        // Overlong forms and surrogates are not scalars.
        guard value >= smallest, let scalar = Unicode.Scalar(value) else { return invalid }
        return (scalar, length)
    }

    /// The scalar that ends at byte `index`, for the assertions at a run's first place.
    static func scalar(in text: UnsafeBufferPointer<UInt8>, before index: Int) -> Unicode.Scalar? {
        guard index > 0, index <= text.count else { return nil }
        var lead = index - 1
        while lead > 0, index - lead < 4, text[lead] & 0xC0 == 0x80 { lead -= 1 }
        guard let (scalar, length) = scalar(in: text, at: lead), lead + length == index else { return "\u{FFFD}" }
        return scalar
    }
}
