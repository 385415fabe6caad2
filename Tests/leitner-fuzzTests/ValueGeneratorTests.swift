import LeitnerVarlink
import Testing
import LeitnerCore
import LeitnerProtocol
@testable import leitner_fuzz

/// The fuzzer's random values are valid for any method an interface text declares — one added
/// by a later issue included, with no code for it (issue #25) — and a seed draws them again.
@Suite struct ValueGeneratorTests {
    /// A method of every type the interface language has, and the member names the generator
    /// knows more of than their type.
    static let text = """
        interface org.example.Later
        type Thing (name: string, count: ?int, text: ?string, data: ?string, tags: []string)
        method Later(a: int, b: ?string, c: []Thing, d: [string]bool, e: (x, y), f: object, g: float,
          h: ?Thing, i: ?(p: int, q: ?bool), id: string, level: ?string, limit: ?int, since: ?string,
          fields: ?[]string) -> ()
        """

    static func parameters(_ interface: VarlinkInterfaceDescription, _ random: inout FuzzRandom) -> [String: JSONValue] {
        let generator = ValueGenerator(interface: interface, knowledge: BoxKnowledge())
        var parameters: [String: JSONValue] = [:]
        for field in interface.methods["Later"]!.input {
            parameters[field.name] = generator.value(named: field.name, of: field.type, using: &random)
        }
        return parameters
    }

    @Test func everyValueItDrawsConformsToTheDeclaration() throws {
        let interface = try VarlinkInterfaceDescription(parsing: Self.text)
        var random = FuzzRandom(seed: 25)
        for _ in 0..<500 {
            let parameters = Self.parameters(interface, &random)
            #expect(interface.invalidParameter(in: parameters, of: "Later") == nil, "\(JSONValue.object(parameters).jsonText)")
        }
    }

    @Test func aSeedDrawsTheSameValuesAgain() throws {
        let interface = try VarlinkInterfaceDescription(parsing: Self.text)
        var first = FuzzRandom(seed: 7), second = FuzzRandom(seed: 7), other = FuzzRandom(seed: 8)
        let drawn = (0..<20).map { _ in JSONValue.object(Self.parameters(interface, &first)).jsonText }
        #expect(drawn == (0..<20).map { _ in JSONValue.object(Self.parameters(interface, &second)).jsonText })
        #expect(drawn != (0..<20).map { _ in JSONValue.object(Self.parameters(interface, &other)).jsonText })
    }

    @Test func anAssetMostlyHasExactlyOneOfTextAndData() throws {
        let interface = try VarlinkInterfaceDescription(parsing: BoxInterface.description)
        let generator = ValueGenerator(interface: interface, knowledge: BoxKnowledge())
        var random = FuzzRandom(seed: 3)
        var one = 0
        for _ in 0..<200 {
            let asset = generator.value(named: "front", of: .named("Asset"), using: &random)?.objectValue ?? [:]
            if (asset["text"].map { !$0.isNull } ?? false) != (asset["data"].map { !$0.isNull } ?? false) { one += 1 }
        }
        #expect(one > 160)
    }
}
