@testable import LeitnerVarlink
import Testing

@Suite struct VarlinkMessageTests {
    func request(_ text: String) throws(VarlinkMessageError) -> VarlinkRequest {
        try VarlinkRequest(parsing: Array(text.utf8))
    }

    @Test func readsARequest() throws {
        let call = try request(#"{"method":"io.leitner.Box.Grade","parameters":{"id":"hola","correct":true},"more":false}"#)
        #expect(call.method == "io.leitner.Box.Grade")
        #expect(call.interface == "io.leitner.Box")
        #expect(call.parameters == ["id": "hola", "correct": true])
        #expect(!call.oneway && !call.more && !call.upgrade)
    }

    @Test func missingParametersAndFlagsAreEmptyAndFalse() throws {
        let call = try request(#"{"method":"org.varlink.service.GetInfo","oneway":true,"extra":[1]}"#)
        #expect(call.parameters.isEmpty)
        #expect(call.oneway)
        #expect(call.interface == "org.varlink.service")
        #expect(try request(#"{"method":"Status"}"#).interface == nil)
    }

    @Test func preciseErrors() {
        #expect(throws: VarlinkMessageError.notAnObject(found: "an array")) { try request("[]") }
        #expect(throws: VarlinkMessageError.notAnObject(found: "a string")) { try request(#""x""#) }
        #expect(throws: VarlinkMessageError.missingMethod) { try request(#"{"parameters":{}}"#) }
        #expect(throws: VarlinkMessageError.methodNotString(found: "an integer")) { try request(#"{"method":1}"#) }
        #expect(throws: VarlinkMessageError.parametersNotObject(found: "an array")) {
            try request(#"{"method":"a.B","parameters":[]}"#)
        }
        #expect(throws: VarlinkMessageError.parametersNotObject(found: "null")) {
            try request(#"{"method":"a.B","parameters":null}"#)
        }
        #expect(throws: VarlinkMessageError.flagNotBoolean(name: "more", found: "an integer")) {
            try request(#"{"method":"a.B","more":1}"#)
        }
        #expect(throws: VarlinkMessageError.invalidJSON(JSONParseError(offset: 1, reason: "unexpected end of input, expected a string key"))) {
            try request("{")
        }
        #expect(VarlinkMessageError.parametersNotObject(found: "an array").description == "'parameters' is not an object but an array")
    }

    @Test func requestRoundTrips() throws {
        let call = VarlinkRequest(method: "io.leitner.Box.Log", parameters: ["limit": 5], oneway: true, more: true)
        #expect(call.json.jsonText == #"{"method":"io.leitner.Box.Log","more":true,"oneway":true,"parameters":{"limit":5}}"#)
        #expect(call.frame.last == 0)
        #expect(try VarlinkRequest(parsing: Array(call.frame.dropLast())) == call)
    }

    @Test func encodesReplies() {
        #expect(VarlinkReply(parameters: ["today": "2026-11-21"]).frame == Array(#"{"parameters":{"today":"2026-11-21"}}"#.utf8) + [0])
        #expect(VarlinkReply.invalidParameter("id").json.jsonText
                == #"{"error":"org.varlink.service.InvalidParameter","parameters":{"parameter":"id"}}"#)
        #expect(VarlinkReply.methodNotFound("io.leitner.Box.Nope").parameters == ["method": "io.leitner.Box.Nope"])
        #expect(VarlinkReply(parameters: [:], continues: true).json.jsonText == #"{"continues":true,"parameters":{}}"#)
        #expect(VarlinkReply.expectedMore.error == "org.varlink.service.ExpectedMore")
    }

    @Test func readsReplies() throws {
        let reply = try VarlinkReply(parsing: Array(#"{"error":"io.leitner.Box.NoSuchCard","parameters":{"id":"x"}}"#.utf8))
        #expect(reply == .error("io.leitner.Box.NoSuchCard", ["id": "x"]))
        #expect(try VarlinkReply(parsing: Array("{}".utf8)) == VarlinkReply())
        #expect(throws: VarlinkMessageError.errorNotString(found: "a boolean")) {
            try VarlinkReply(parsing: Array(#"{"error":true}"#.utf8))
        }
        #expect(throws: VarlinkMessageError.flagNotBoolean(name: "continues", found: "a string")) {
            try VarlinkReply(parsing: Array(#"{"continues":"yes"}"#.utf8))
        }
        let many = VarlinkReply(parameters: ["n": 1], continues: true)
        #expect(try VarlinkReply(from: many.json) == many)
    }
}
