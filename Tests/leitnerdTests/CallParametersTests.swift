import Testing
import LeitnerCore
import LeitnerProtocol
@testable import leitnerd

@Suite struct CallParametersTests {
    let parameters = CallParameters(["s": "text", "b": true, "i": 7, "n": .null, "side": "front", "o": ["k": 1]])

    @Test func readsEachKind() throws {
        #expect(try parameters.string("s") == "text")
        #expect(try parameters.bool("b") == true)
        #expect(try parameters.optionalInt("i") == 7)
        #expect(try parameters.enumeration("side", as: SideName.self) == .front)
        #expect(try parameters.required("o") == ["k": 1])
    }

    @Test func absentAndNullAreNilWhenOptional() throws {
        #expect(try parameters.optionalString("n") == nil)
        #expect(try parameters.optionalString("missing") == nil)
        #expect(try parameters.optionalBool("n") == nil)
        #expect(try parameters.optionalInt("missing") == nil)
    }

    @Test func aMissingMistypedOrUnknownValueNamesTheParameter() {
        #expect(throws: InvalidParameter(name: "missing")) { try parameters.string("missing") }
        #expect(throws: InvalidParameter(name: "n")) { try parameters.string("n") }
        #expect(throws: InvalidParameter(name: "i")) { try parameters.string("i") }
        #expect(throws: InvalidParameter(name: "s")) { try parameters.bool("s") }
        #expect(throws: InvalidParameter(name: "s")) { try parameters.optionalInt("s") }
        #expect(throws: InvalidParameter(name: "s")) { try parameters.enumeration("s", as: SideName.self) }
        #expect(throws: InvalidParameter(name: "n")) { try parameters.required("n") }
    }
}
