import Testing
import LeitnerCore
import LeitnerProtocol
@testable import leitnerd

@Suite struct CallParametersTests {
    let parameters = CallParameters(["s": "text", "b": true, "i": 7, "n": .null, "side": "front", "o": ["k": 1]])

    @Test func readsEachKind() throws {
        #expect(try parameters.string("s") == "text")
        #expect(try parameters.bool("b") == true)
        #expect(try parameters.optionalInt("i", in: 0...10, clampingAbove: false) == 7)
        #expect(try parameters.enumeration("side", as: SideName.self) == .front)
        #expect(try parameters.required("o") == ["k": 1])
    }

    @Test func absentAndNullAreNilWhenOptional() throws {
        #expect(try parameters.optionalString("n") == nil)
        #expect(try parameters.optionalString("missing") == nil)
        #expect(try parameters.optionalBool("n") == nil)
        #expect(try parameters.optionalInt("missing", in: 0...10, clampingAbove: false) == nil)
    }

    @Test func aMissingMistypedOrUnknownValueNamesTheParameter() {
        #expect(throws: InvalidParameter(name: "missing")) { try parameters.string("missing") }
        #expect(throws: InvalidParameter(name: "n")) { try parameters.string("n") }
        #expect(throws: InvalidParameter(name: "i")) { try parameters.string("i") }
        #expect(throws: InvalidParameter(name: "s")) { try parameters.bool("s") }
        #expect(throws: InvalidParameter(name: "s")) { try parameters.optionalInt("s", in: 0...10, clampingAbove: true) }
        #expect(throws: InvalidParameter(name: "s")) { try parameters.enumeration("s", as: SideName.self) }
        #expect(throws: InvalidParameter(name: "n")) { try parameters.required("n") }
    }

    /// issue #25: every integer from a client is bounded before any arithmetic. Below its range
    /// it is refused naming it; above, clamped or refused as the parameter's documentation says.
    @Test func anIntegerOutsideItsRangeIsRefusedOrClamped() throws {
        let extremes = CallParameters(["max": .int(.max), "min": .int(.min), "edge": 10])
        #expect(try extremes.optionalInt("max", in: 0...Box.maxLimit, clampingAbove: true) == Box.maxLimit)
        #expect(throws: InvalidParameter(name: "max")) { try extremes.optionalInt("max", in: 0...10, clampingAbove: false) }
        #expect(throws: InvalidParameter(name: "min")) { try extremes.optionalInt("min", in: 0...10, clampingAbove: true) }
        #expect(try extremes.optionalInt("edge", in: 0...10, clampingAbove: false) == 10)
        #expect(throws: InvalidParameter(name: "edge")) { try extremes.optionalInt("edge", in: 11...20, clampingAbove: true) }
    }
}
