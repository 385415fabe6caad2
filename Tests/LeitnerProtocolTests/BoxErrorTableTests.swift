import LeitnerVarlink
import Testing
@testable import LeitnerCore
@testable import LeitnerProtocol

/// The box's errors are written once (`BoxError+Varlink`): these tests hold that table, the
/// interface text and the decoder leitnerctl uses to one another.
@Suite struct BoxErrorTableTests {
    /// One value of every case, with distinct texts so that a swapped parameter shows.
    static let everyError: [BoxError] = [
        .noSuchCard(id: "a"), .invalidCardId(id: "b", reason: "r1"), .invalidLevel(level: "9"),
        .cardExists(id: "c"), .notInTest(id: "d"), .testComplete, .nothingToUndo,
        .invalidAsset(name: "front.png", reason: "r2"), .storeFailure(path: "/p", reason: "r3"),
        .duplicateFront(id: "e"), .invalidPattern(pattern: "(", reason: "r"), .invalidParameter(name: "date", reason: "refused by the service"),
        .cannotResolve(id: "f", reason: "r4"),
        .replyTooLarge(reason: "r5"),
    ]

    /// The errors the interface text declares: qualified name → parameter names.
    static func declaredErrors() -> [String: [String]] {
        var errors: [String: [String]] = [:]
        for (name, fields) in BoxInterface.declaration.errors {
            errors[BoxInterface.name + "." + name] = fields.map(\.name)
        }
        return errors
    }

    @Test func everyErrorTheBoxRaisesIsDeclaredWithItsParameters() {
        let declared = Self.declaredErrors()
        for error in Self.everyError where error.varlinkName.hasPrefix(BoxInterface.name + ".") {
            #expect(declared[error.varlinkName] == error.parameters.map(\.0), "\(error.varlinkName)")
        }
    }

    @Test func everyDeclaredErrorIsRaisedByTheBoxOrTheDaemon() {
        let raised = Set(Self.everyError.map(\.varlinkName))
        let daemonOwn: Set = [BoxInterface.connectionClosed, BoxInterface.tooManyConnections]
        let declared = Set(Self.declaredErrors().keys)
        #expect(declared.subtracting(raised).subtracting(daemonOwn).isEmpty)
        #expect(daemonOwn.isSubset(of: declared))
    }

    @Test func theDecoderReadsBackEveryError() {
        for error in Self.everyError {
            let reply = VarlinkCallError(name: error.varlinkName, parameters: error.varlinkParameters)
            #expect(BoxError(reply) == error)
        }
    }

    @Test func anUnknownOrIncompleteErrorIsNotTakenForABoxError() {
        #expect(BoxError(VarlinkCallError(name: "io.leitner.Box.NoSuchThing", parameters: ["id": "a"])) == nil)
        #expect(BoxError(VarlinkCallError(name: BoxError.Name.noSuchCard)) == nil)
        #expect(BoxError(VarlinkCallError(name: BoxError.Name.storeFailure, parameters: ["path": "/p"])) == nil)
    }
}
