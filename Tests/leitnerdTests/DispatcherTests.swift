import LeitnerVarlink
import Testing
import LeitnerProtocol
@testable import leitnerd

/// What the dispatcher answers before a call reaches the box: malformed messages, and calls
/// whose parameters do not match their method's declaration.
@Suite struct DispatcherTests {
    static func read(_ text: String) -> Dispatcher.Message {
        Array(text.utf8).withUnsafeBytes { Dispatcher.read($0) }
    }

    static func answered(_ text: String) throws -> (reply: VarlinkReply, closes: Bool) {
        guard case .answered(let answer) = read(text) else {
            Issue.record("\(text) was taken for a call")
            throw CancellationError()
        }
        let frame = try #require(answer.frame)
        return (try VarlinkReply(parsing: Array(frame.dropLast())), answer.closeReason != nil)
    }

    @Test func aMessageThatIsNoObjectIsAnsweredAndClosesTheConnection() throws {
        for text in ["[1]", "{\"method\":", "nonsense"] {
            let (reply, closes) = try Self.answered(text)
            #expect(reply.error == VarlinkServiceInterface.invalidParameter, "\(text)")
            #expect(reply.parameters["parameter"] == "message")
            #expect(closes)
        }
    }

    @Test func aMalformedCallNamesTheBadMemberAndKeepsTheConnection() throws {
        let cases = [
            (#"{"parameters": {}}"#, "method"),
            (#"{"method": 3}"#, "method"),
            (#"{"method": "io.leitner.Box.Status", "parameters": []}"#, "parameters"),
            (#"{"method": "io.leitner.Box.Status", "more": "yes"}"#, "more"),
        ]
        for (text, member) in cases {
            let (reply, closes) = try Self.answered(text)
            #expect(reply == .invalidParameter(member), "\(text)")
            #expect(!closes)
        }
    }

    @Test func aWellFormedMessageIsACall() {
        guard case .call(let request) = Self.read(#"{"method": "io.leitner.Box.Grade", "parameters": {"id": "a"}}"#) else {
            Issue.record("not taken for a call")
            return
        }
        #expect(request.method == "io.leitner.Box.Grade")
        #expect(request.parameters == ["id": "a"])
    }

    /// The declaration, not the handler, refuses a parameter the method does not take: a
    /// misspelt `answerMS` must not be silently nothing.
    @Test func theDeclarationRefusesWhatTheMethodDoesNotTake() {
        let box = BoxInterface.declaration
        #expect(box.invalidParameter(in: ["id": "a", "correct": true, "answerMS": 5], of: "Grade") == "answerMS")
        #expect(box.invalidParameter(in: ["id": "a"], of: "Grade") == "correct")
        #expect(box.invalidParameter(in: ["id": "a", "correct": "yes"], of: "Grade") == "correct")
        #expect(box.invalidParameter(in: ["id": "a", "side": "middle"], of: "ReadAsset") == "side")
        #expect(box.invalidParameter(in: ["front": ["name": 1], "back": ["name": "b.txt"]], of: "Add") == "front.name")
        #expect(box.invalidParameter(in: ["id": "a", "correct": false, "answerMs": .null], of: "Grade") == nil)
    }
}
