import LeitnerProtocol
import LeitnerVarlink

/// The values at the edges of each type of the interface language, as JSON text (some are text
/// no `JSONValue` can hold: lone surrogates). Each parameter of each method is sent each edge of
/// its type, the others valid; nested structures are gone into, one level at a time.
struct EdgeValues {
    /// One edge: a label for the report and the JSON text sent; nil text leaves the member out.
    struct Edge {
        var label: String
        var json: String?
    }

    /// The interface the types are declared in.
    let interface: VarlinkInterfaceDescription

    static let integers: [Int64] = [.min, -1, 0, 1, 1 << 31, 1 << 53, .max]
    /// Dates and times far past, far future and malformed: every string parameter gets them,
    /// since dates travel as strings.
    static let dateTexts = ["0000-01-01", "0001-01-01", "9999-12-31", "2026-02-30", "2026-13-01", "20260101",
                            "-0001-01-01", "+275760-09-13", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59-23:59",
                            "2026-01-01T24:00:00Z", "2026-01-01T12:00:00", "1969-12-31T23:59:59.999999999Z"]
    /// How many items the long arrays have.
    static let longArrayCount = 100_000

    /// The edges of `type`: values valid at its limits and values of no type it allows.
    func edges(of type: VarlinkType) -> [Edge] {
        switch type {
        case .optional(let wrapped):
            return [Edge(label: "missing", json: nil), Edge(label: "null", json: "null")] + edges(of: wrapped)
        case .bool:
            return [Edge(label: "true", json: "true"), Edge(label: "0", json: "0"), Edge(label: "\"true\"", json: "\"true\"")]
                + EdgeValues.wrongKinds
        case .int, .float:
            return EdgeValues.integers.map { Edge(label: String($0), json: String($0)) } + [
                Edge(label: "2^64", json: "18446744073709551616"), Edge(label: "1.5", json: "1.5"),
                Edge(label: "-0", json: "-0"), Edge(label: "1e308", json: "1e308"), Edge(label: "\"1\"", json: "\"1\""),
            ] + EdgeValues.wrongKinds
        case .string:
            return EdgeValues.strings + EdgeValues.dateTexts.map { Edge(label: $0, json: JSONValue.string($0).jsonText) }
                + [Edge(label: "0", json: "0"), Edge(label: "[]", json: "[]"), Edge(label: "{}", json: "{}")]
        case .object:
            return [Edge(label: "{}", json: "{}"), Edge(label: "unknown member", json: "{\"fuzzUnknown\":[1,{}]}"),
                    Edge(label: "[]", json: "[]"), Edge(label: "\"\"", json: "\"\"")]
        case .enumeration(let cases):
            return cases.map { Edge(label: $0, json: JSONValue.string($0).jsonText) } + [
                Edge(label: "unknown value", json: "\"fuzzUnknown\""), Edge(label: "\"\"", json: "\"\""),
                Edge(label: "upper case", json: JSONValue.string(cases[0].uppercased()).jsonText),
                Edge(label: "0", json: "0"),
            ]
        case .named(let name):
            guard let declared = interface.types[name] else { return [] }
            return edges(of: declared)
        case .array(let element):
            let item = EdgeValues.filler(element)
            let long = "[" + Array(repeating: item, count: EdgeValues.longArrayCount).joined(separator: ",") + "]"
            return [Edge(label: "[]", json: "[]"), Edge(label: "\(EdgeValues.longArrayCount) items", json: long),
                    Edge(label: "[null]", json: "[null]"), Edge(label: "{}", json: "{}"), Edge(label: "\"\"", json: "\"\"")]
        case .map(let element):
            let item = EdgeValues.filler(element)
            return [Edge(label: "{}", json: "{}"), Edge(label: "one member", json: "{\"\":\(item)}"),
                    Edge(label: "member null", json: "{\"a\":null}"), Edge(label: "[]", json: "[]")]
        case .structure:
            return [Edge(label: "{}", json: "{}"), Edge(label: "[]", json: "[]"), Edge(label: "\"\"", json: "\"\""),
                    Edge(label: "null", json: "null")]
        }
    }

    /// Values of the wrong kind for a scalar.
    static let wrongKinds = [Edge(label: "null", json: "null"), Edge(label: "[]", json: "[]"), Edge(label: "{}", json: "{}")]

    /// Strings at the edges: empty, a mebibyte, NUL, lone surrogates (escaped, as JSON alone
    /// can carry them), not in NFC, path tricks, control characters, the largest code point.
    static let strings: [Edge] = [
        Edge(label: "empty", json: "\"\""),
        Edge(label: "1 MiB", json: "\"" + String(repeating: "x", count: 1 << 20) + "\""),
        Edge(label: "1 MiB of é", json: "\"" + String(repeating: "é", count: 1 << 19) + "\""),
        Edge(label: "NUL", json: "\"a\\u0000b\""),
        Edge(label: "lone high surrogate", json: "\"\\ud800\""),
        Edge(label: "lone low surrogate", json: "\"a\\udc00\""),
        Edge(label: "surrogate pair", json: "\"\\ud83d\\ude00\""),
        Edge(label: "non-NFC", json: "\"cafe\\u0301\""),
        Edge(label: "..", json: "\"..\""),
        Edge(label: ".", json: "\".\""),
        Edge(label: "/abs", json: "\"/abs\""),
        Edge(label: "../escape", json: "\"../../etc/passwd\""),
        Edge(label: "a/b", json: "\"a/b\""),
        Edge(label: "newline", json: "\"a\\nb\""),
        Edge(label: "leading dash", json: "\"-rf\""),
        Edge(label: "129 bytes", json: "\"" + String(repeating: "a", count: 129) + "\""),
        Edge(label: "U+10FFFF", json: "\"\\udbff\\udfff\""),
        Edge(label: "regex", json: "\"(a*)*b\""),
        Edge(label: "huge repeat", json: "\"a{2147483647}\""),
        Edge(label: "overflowing repeat", json: "\"a{9223372036854775808}\""),
    ]

    /// One small item of `type` for a long array: the least that may stand for it.
    static func filler(_ type: VarlinkType) -> String {
        switch type {
        case .bool: "false"
        case .int, .float: "0"
        case .string, .enumeration: "\"\""
        case .array: "[]"
        case .object, .map, .named, .structure: "{}"
        case .optional: "null"
        }
    }
}
