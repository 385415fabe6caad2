/// A regular expression compiled into a program for a Thompson NFA: each instruction is a state,
/// and `run` follows all the states a match could be in at once, one scalar of the text at a
/// time, never going back. Its time is linear in the text for a program of bounded size, which is
/// why the size is bounded (repetitions are written out: `x{3}` is three copies of `x`).
struct RegexProgram: Sendable {
    enum Instruction: Sendable {
        /// Reads a scalar whose folded form is this one.
        case scalar(Unicode.Scalar)
        /// Reads any scalar but a line break.
        case anyButLineBreak
        /// Reads a scalar of `sets[index]`.
        case set(Int)
        /// Goes on at both places: the only way a program branches.
        case split(Int, Int)
        case jump(Int)
        /// Goes on to the next instruction only when the place satisfies it; reads nothing.
        case assertion(RegexAssertion)
        case match
    }

    /// The most instructions a program may have: the bound on the work for each scalar of the
    /// text, so on how long a search of the whole box can take.
    static let maxInstructions = 10_000

    let instructions: [Instruction]
    let sets: [RegexSet]

    /// - Throws: `RegexError` when the program would have more than `maxInstructions`.
    init(_ node: RegexNode) throws(RegexError) {
        guard RegexProgram.size(of: node) + 1 <= RegexProgram.maxInstructions else {
            throw RegexError("too large: more than \(RegexProgram.maxInstructions) instructions once its repetitions are "
                             + "expanded (x{m,n} is up to n copies of x), the most a regular expression may take")
        }
        var compiler = Compiler()
        compiler.emit(node)
        compiler.instructions.append(.match)
        instructions = compiler.instructions
        sets = compiler.sets
    }

    /// How many instructions `node` compiles to, without compiling it: a pattern such as
    /// `(x{1000}){1000}` must be refused before a million instructions are written. Saturates
    /// just above the limit, so that nothing overflows.
    static func size(of node: RegexNode) -> Int {
        let cap = maxInstructions + 1
        switch node {
        case .empty:
            return 0
        case .scalar, .anyButLineBreak, .set, .assertion:
            return 1
        case .sequence(let items):
            return items.reduce(0) { min(cap, $0 + size(of: $1)) }
        case .alternation(let branches):
            return branches.reduce(2 * (branches.count - 1)) { min(cap, $0 + size(of: $1)) }
        case .repetition(let item, let low, let high):
            let one = size(of: item)
            let optional = high.map { ($0 - low) * (one + 1) } ?? one + 2
            return min(cap, low * one + optional)
        }
    }

    /// Writes the instructions of a node, in the shapes `size(of:)` counts.
    private struct Compiler {
        var instructions: [Instruction] = []
        var sets: [RegexSet] = []

        mutating func emit(_ node: RegexNode) {
            switch node {
            case .empty:
                break
            case .scalar(let scalar):
                instructions.append(.scalar(scalar))
            case .anyButLineBreak:
                instructions.append(.anyButLineBreak)
            case .set(let set):
                instructions.append(.set(sets.count))
                sets.append(set)
            case .assertion(let assertion):
                instructions.append(.assertion(assertion))
            case .sequence(let items):
                for item in items { emit(item) }
            case .alternation(let branches):
                // split → first, rest; first; jump → end; rest: split → second, rest …; last.
                var exits: [Int] = []
                for branch in branches.dropLast() {
                    let split = instructions.count
                    instructions.append(.split(split + 1, -1))
                    emit(branch)
                    exits.append(instructions.count)
                    instructions.append(.jump(-1))
                    instructions[split] = .split(split + 1, instructions.count)
                }
                if let last = branches.last { emit(last) }
                for exit in exits { instructions[exit] = .jump(instructions.count) }
            case .repetition(let item, let low, let high):
                for _ in 0..<low { emit(item) }
                if let high {
                    // x{2,4}: x x (x (x)?)?, each optional copy skipping to the end.
                    var skips: [Int] = []
                    for _ in low..<high {
                        skips.append(instructions.count)
                        instructions.append(.split(instructions.count + 1, -1))
                        emit(item)
                    }
                    for skip in skips { instructions[skip] = .split(skip + 1, instructions.count) }
                } else {
                    // x*: loop: split → x, end; x; jump → loop. An x that matches empty loops
                    // back to a state already entered at this place, so it stops.
                    let loop = instructions.count
                    instructions.append(.split(loop + 1, -1))
                    emit(item)
                    instructions.append(.jump(loop))
                    instructions[loop] = .split(loop + 1, instructions.count)
                }
            }
        }
    }
}
