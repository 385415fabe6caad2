/// Reads the Varlink interface definition language (varlink.org, "Interface Definition"):
/// `interface NAME` followed by `type`, `method` and `error` declarations, `#` comments
/// anywhere. A recursive descent over tokens; doc comments are skipped, not kept.
struct VarlinkIDLParser {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// The whole interface.
    mutating func interface() throws(VarlinkIDLError) -> VarlinkInterfaceDescription {
        try expect("interface")
        var description = VarlinkInterfaceDescription(name: try word("an interface name"))
        while let keyword = nextWord() {
            let name = try word("a name after '\(keyword)'")
            switch keyword {
            case "type":
                try refuseRedeclaration(name, description.types[name] != nil)
                description.types[name] = try parenthesized()
            case "method":
                try refuseRedeclaration(name, description.methods[name] != nil)
                let input = try structure()
                try expect("->")
                description.methods[name] = VarlinkMethod(name: name, input: input, output: try structure())
            case "error":
                try refuseRedeclaration(name, description.errors[name] != nil)
                description.errors[name] = try structure()
            default:
                throw failure("expected 'type', 'method' or 'error', found '\(keyword)'")
            }
        }
        skipBlanks()
        if index < scalars.count { throw failure("unexpected '\(scalars[index])'") }
        return description
    }

    // MARK: Types

    /// `(…)` that must be a structure (a method's input or output, an error's fields).
    private mutating func structure() throws(VarlinkIDLError) -> [VarlinkField] {
        guard case .structure(let fields) = try parenthesized() else {
            throw failure("expected fields 'name: type', found an enum")
        }
        return fields
    }

    /// `(…)`: a structure `(a: T, b: U)`, an empty structure `()`, or an enum `(a, b)`.
    private mutating func parenthesized() throws(VarlinkIDLError) -> VarlinkType {
        try expect("(")
        if take(")") { return .structure([]) }
        let first = try word("a field or enum name")
        if take(":") {
            var fields = [VarlinkField(name: first, type: try type())]
            while take(",") {
                let name = try word("a field name")
                if fields.contains(where: { $0.name == name }) { throw failure("field '\(name)' declared twice") }
                try expect(":")
                fields.append(VarlinkField(name: name, type: try type()))
            }
            try expect(")")
            return .structure(fields)
        }
        var cases = [first]
        while take(",") { cases.append(try word("an enum name")) }
        try expect(")")
        return .enumeration(cases)
    }

    private mutating func type() throws(VarlinkIDLError) -> VarlinkType {
        if take("?") { return .optional(try type()) }
        if take("[") {
            if take("]") { return .array(try type()) }
            try expect("string")
            try expect("]")
            return .map(try type())
        }
        skipBlanks()
        if index < scalars.count, scalars[index] == "(" { return try parenthesized() }
        switch try word("a type") {
        case "bool": return .bool
        case "int": return .int
        case "float": return .float
        case "string": return .string
        case "object": return .object
        case let name: return .named(name)
        }
    }

    // MARK: Tokens

    private mutating func refuseRedeclaration(_ name: String, _ declared: Bool) throws(VarlinkIDLError) {
        if declared { throw failure("'\(name)' declared twice") }
    }

    /// The next word (letters, digits, `_`, `.`), or nil at the end of the text.
    private mutating func nextWord() -> String? {
        skipBlanks()
        let start = index
        while index < scalars.count, Self.isWordScalar(scalars[index]) { index += 1 }
        guard index > start else { return nil }
        var word = ""
        word.unicodeScalars.append(contentsOf: scalars[start..<index])
        return word
    }

    private mutating func word(_ expected: String) throws(VarlinkIDLError) -> String {
        guard let word = nextWord() else { throw failure("expected \(expected)") }
        return word
    }

    /// Takes `token` (punctuation or a word) when it comes next.
    private mutating func take(_ token: String) -> Bool {
        skipBlanks()
        let wanted = Array(token.unicodeScalars)
        guard index + wanted.count <= scalars.count,
              Array(scalars[index..<(index + wanted.count)]) == wanted else { return false }
        // A word must end where the token does: `string` is not the start of `strings`.
        let end = index + wanted.count
        if let last = wanted.last, Self.isWordScalar(last), end < scalars.count, Self.isWordScalar(scalars[end]) {
            return false
        }
        index = end
        return true
    }

    private mutating func expect(_ token: String) throws(VarlinkIDLError) {
        guard take(token) else { throw failure("expected '\(token)'") }
    }

    /// Skips white space and `#` comments, counting lines.
    private mutating func skipBlanks() {
        while index < scalars.count {
            switch scalars[index] {
            case "\n":
                line += 1
                index += 1
            case " ", "\t", "\r":
                index += 1
            case "#":
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            default:
                return
            }
        }
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "."
    }

    private func failure(_ reason: String) -> VarlinkIDLError {
        VarlinkIDLError(line: line, reason: reason)
    }
}
