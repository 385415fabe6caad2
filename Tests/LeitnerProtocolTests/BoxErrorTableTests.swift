import LeitnerVarlink
import Testing
import LeitnerSystem
@testable import LeitnerCore
@testable import LeitnerProtocol

/// The box's errors are written once (`BoxError+Varlink`): these tests hold that table, the
/// interface text and the decoder leitnerctl uses to one another.
@Suite struct BoxErrorTableTests {
    /// One value of every case, with distinct texts so that a swapped parameter shows.
    static let everyError: [BoxError] = [
        .noSuchCard(id: "a"), .invalidCardId(id: "b", reason: "r1"), .invalidLevel(level: "9"),
        .cardExists(id: "c"), .notInTest(id: "d"), .testComplete, .nothingToUndo,
        .invalidAsset(name: "front.png", reason: "r2"), .storeFailure(path: "/p", reason: "r3", errno: 28, operation: "write"),
        .duplicateFront(id: "e"), .invalidPattern(pattern: "(", reason: "r"), .searchCut(pattern: "(a|aa)*b", reason: "r"), .invalidParameter(name: "date", reason: "refused by the service"),
        .cannotResolve(id: "f", reason: "r4"),
        .replyTooLarge(reason: "r5"), .invalidTag(tag: "a b", reason: "r6"), .notSuspended(id: "g", level: "3"),
        .reverseOfReverse(id: "h.rev", reverseOf: "h"), .keptGradeRefused(device: "web-1", reason: "r7"),
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

    /// StoreFailure's errno and operation go to the wire and come back; without them, neither is
    /// sent (not even as null), as an older daemon's reply.
    @Test func aStoreFailureKeepsItsErrnoAndOperation() {
        let full = BoxError.storeFailure(path: "/s/1/a", reason: "cannot rename to '/s/2/a': Read-only file system",
                                         errno: 30, operation: "rename")
        #expect(full.varlinkParameters == ["path": "/s/1/a", "reason": "cannot rename to '/s/2/a': Read-only file system",
                                           "errno": 30, "operation": "rename"])
        #expect(BoxError(VarlinkCallError(name: full.varlinkName, parameters: full.varlinkParameters)) == full)

        let plain = BoxError.storeFailure(path: "/s/1/a", reason: "damaged card: no front")
        #expect(plain.varlinkParameters == ["path": "/s/1/a", "reason": "damaged card: no front"])
        #expect(BoxError(VarlinkCallError(name: plain.varlinkName, parameters: plain.varlinkParameters)) == plain)
    }

    /// What an older daemon or another client may send still reads as a store failure: null
    /// members, or an errno that is no `Int32`, are as absent.
    @Test func aStoreFailureWithoutUsableNumbersIsStillOne() {
        let expected = BoxError.storeFailure(path: "/p", reason: "r")
        for extra: [String: JSONValue] in [[:], ["errno": .null, "operation": .null], ["errno": "28"], ["errno": .int(1 << 40)]] {
            let parameters: [String: JSONValue] = ["path": "/p", "reason": "r"].merging(extra) { $1 }
            #expect(BoxError(VarlinkCallError(name: BoxError.Name.storeFailure, parameters: parameters)) == expected, "\(extra)")
        }
    }

    /// `BoxError.failing` is the one way a system call's failure is named: the operation's word,
    /// the path, the errno, and the reason in the words the store used before.
    @Test func failingNamesTheOperationThePathAndTheErrno() {
        #expect(BoxError.failing(.sync, "/s/.leitner/devices/d/log", Errno.noSpace)
                == .storeFailure(path: "/s/.leitner/devices/d/log", reason: "cannot sync: No space left on device",
                                 errno: Errno.noSpace.rawValue, operation: "fsync"))
        #expect(BoxError.failing(.rename, "/s/1/a", Errno.readOnlyFileSystem, doing: "cannot rename to '/s/2/a'")
                == .storeFailure(path: "/s/1/a", reason: "cannot rename to '/s/2/a': Read-only file system",
                                 errno: Errno.readOnlyFileSystem.rawValue, operation: "rename"))
    }
}
