import LeitnerVarlink
import Testing
import LeitnerProtocol
@testable import leitner_fuzz

/// The edges the fuzzer sends each parameter (issue #25, docs/protocol.md, "Fuzzing").
@Suite struct EdgeValuesTests {
    let edges = EdgeValues(interface: BoxInterface.declaration)

    @Test func theIntegersAreTheIssuesAndSomeThatAreNoInt() {
        let sent = edges.edges(of: .int).compactMap(\.json)
        for number in ["-9223372036854775808", "-1", "0", "1", "2147483648", "9007199254740992", "9223372036854775807",
                       "18446744073709551616", "1.5"] {
            #expect(sent.contains(number), "\(number)")
        }
    }

    @Test func aNullableMemberIsLeftOutAndNullAndEachEdgeOfItsType() {
        let sent = edges.edges(of: .optional(.bool))
        #expect(sent[0].json == nil && sent[1].json == "null")
        #expect(sent.count == 2 + edges.edges(of: .bool).count)
    }

    @Test func theStringsIncludeAMebibyteAndLoneSurrogates() throws {
        let sent = edges.edges(of: .string)
        let mebibyte = try #require(sent.first { $0.label == "1 MiB" }?.json)
        #expect(try JSONValue(parsing: mebibyte).stringValue?.utf8.count == 1 << 20)
        // No JSONValue holds a lone surrogate: it is sent as escaped text, which the daemon refuses.
        let lone = try #require(sent.first { $0.label == "lone high surrogate" }?.json)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: lone) }
        for text in ["", "..", "/abs", "0000-01-01", "9999-12-31", "2026-02-30"] {
            #expect(sent.contains { $0.json == JSONValue.string(text).jsonText }, "\(text)")
        }
    }

    @Test func anArrayIsSentEmptyAndWith100000Items() throws {
        let sent = edges.edges(of: .array(.named("NewCard")))
        #expect(sent.contains { $0.json == "[]" })
        let long = try #require(sent.first { $0.label == "100000 items" }?.json)
        #expect(try JSONValue(parsing: long).arrayValue?.count == 100_000)
    }

    @Test func anEnumGetsEachCaseAndAnUnknownOne() {
        let sent = edges.edges(of: .enumeration(["front", "back"])).compactMap(\.json)
        #expect(sent.contains("\"front\"") && sent.contains("\"back\"") && sent.contains("\"fuzzUnknown\""))
    }

    @Test func aCallIsSentAsItsJSONTextWithTheEdgeAsWritten() {
        let call = FuzzCall(method: "io.leitner.Box.Log", parameters: [("since", "\"\\ud800\""), ("limit", "9223372036854775807")],
                            more: true, purpose: "test")
        #expect(String(decoding: call.message, as: UTF8.self)
                == #"{"method":"io.leitner.Box.Log","parameters":{"since":"\ud800","limit":9223372036854775807},"more":true}"#)
        #expect(call.shortName == "Log")
    }
}
