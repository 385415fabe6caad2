@testable import LeitnerVarlink
import Testing

/// The IDL reader and the check of a call's parameters against a method's declaration.
@Suite struct VarlinkInterfaceDescriptionTests {
    static let sample = """
        # A sample with every kind of type.
        interface org.example.sample

        type Pair (key: string, value: ?int)
        type Colour (red, green, blue)

        # Doc comments are skipped.
        method Take(
          name: string,
          count: ?int,
          ratio: ?float,
          flag: ?bool,
          colour: ?Colour,
          pairs: ?[]Pair,
          table: ?[string]bool,
          inline: ?(a: string, b: ?[]int),
          anything: ?object
        ) -> (done: bool)
        method Nothing() -> ()
        error Broken (reason: string, codes: []int)
        error Plain ()

        """

    static func parsed() throws -> VarlinkInterfaceDescription {
        try VarlinkInterfaceDescription(parsing: sample)
    }

    @Test func readsEveryKindOfDeclaration() throws {
        let description = try Self.parsed()
        #expect(description.name == "org.example.sample")
        #expect(description.types["Colour"] == .enumeration(["red", "green", "blue"]))
        #expect(description.types["Pair"] == .structure([
            VarlinkField(name: "key", type: .string), VarlinkField(name: "value", type: .optional(.int)),
        ]))
        let take = try #require(description.methods["Take"])
        #expect(take.input.map(\.name) == ["name", "count", "ratio", "flag", "colour", "pairs", "table", "inline", "anything"])
        #expect(take.input[5].type == .optional(.array(.named("Pair"))))
        #expect(take.input[6].type == .optional(.map(.bool)))
        #expect(take.input[7].type == .optional(.structure([
            VarlinkField(name: "a", type: .string), VarlinkField(name: "b", type: .optional(.array(.int))),
        ])))
        #expect(take.output == [VarlinkField(name: "done", type: .bool)])
        #expect(description.methods["Nothing"]?.input == [])
        #expect(description.errors["Broken"]?.map(\.name) == ["reason", "codes"])
        #expect(description.errors["Plain"] == [])
    }

    @Test func readsTheServiceInterface() throws {
        #expect(VarlinkServiceInterface.declaration.methods.keys.sorted() == ["GetInfo", "GetInterfaceDescription"])
    }

    @Test(arguments: [
        ("method X() -> ()", 1, "expected 'interface'"),
        ("interface a.b\nmethod X( -> ()", 2, "expected a field or enum name"),
        ("interface a.b\n\nmethod X() ()", 3, "expected '->'"),
        ("interface a.b\nmethod X() -> ()\nmethod X() -> ()", 3, "'X' declared twice"),
        ("interface a.b\nerror E (a, b)", 2, "expected fields 'name: type', found an enum"),
        ("interface a.b\ntype T (a: string, a: int)", 2, "field 'a' declared twice"),
        ("interface a.b\nconst X", 2, "expected 'type', 'method' or 'error', found 'const'"),
        ("interface a.b\nmethod X() -> () }", 2, "unexpected '}'"),
    ])
    func refusesMalformedText(text: String, line: Int, reason: String) {
        #expect(throws: VarlinkIDLError(line: line, reason: reason)) {
            try VarlinkInterfaceDescription(parsing: text)
        }
    }

    @Test func acceptsConformingParameters() throws {
        let description = try Self.parsed()
        #expect(description.invalidParameter(in: ["name": "n"], of: "Take") == nil)
        #expect(description.invalidParameter(in: [
            "name": "n", "count": 3, "ratio": 1, "flag": .null, "colour": "green",
            "pairs": [["key": "k"], ["key": "l", "value": 2, "later": "ignored"]],
            "table": ["x": true], "inline": ["a": "s", "b": [1, 2]], "anything": ["z": [1]],
        ], of: "Take") == nil)
        #expect(description.invalidParameter(in: ["ratio": 0.5, "name": "n"], of: "Take") == nil)
    }

    typealias Case = (parameters: [String: JSONValue], expected: String)
    static let nonconforming: [Case] = {
        var cases: [Case] = []
        cases.append((["name": "n", "cuont": 1], "cuont"))
        cases.append((["name": "n", "zz": 1, "aa": 2], "aa"))
        cases.append(([:], "name"))
        cases.append((["name": .null], "name"))
        cases.append((["name": 5], "name"))
        cases.append((["name": "n", "count": "5"], "count"))
        cases.append((["name": "n", "count": 1.5], "count"))
        cases.append((["name": "n", "flag": 1], "flag"))
        cases.append((["name": "n", "colour": "purple"], "colour"))
        let pairs: JSONValue = [["key": "k"], ["value": 1]]
        cases.append((["name": "n", "pairs": pairs], "pairs.1.key"))
        cases.append((["name": "n", "pairs": ["key": "k"]], "pairs"))
        cases.append((["name": "n", "table": ["x": true, "y": "no"]], "table.y"))
        let inline: JSONValue = ["a": "s", "b": [1, "2"]]
        cases.append((["name": "n", "inline": inline], "inline.b.1"))
        cases.append((["name": "n", "anything": [1]], "anything"))
        return cases
    }()

    @Test(arguments: nonconforming)
    func namesTheFirstNonconformingParameter(parameters: [String: JSONValue], expected: String) throws {
        #expect(try Self.parsed().invalidParameter(in: parameters, of: "Take") == expected)
    }
}
