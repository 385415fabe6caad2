#if LEITNER_TEST_HOOKS
import LeitnerCore
import LeitnerVarlink
import Testing
@testable import LeitnerProtocol

/// The typed client (`BoxClient`) and the interface text agree: every method it calls is
/// declared, with parameters the interface takes (names, types, required ones present); every
/// declared method and parameter is reachable from one of its functions; and each function reads
/// a reply made from the interface text alone.
@Suite struct BoxClientTests {
    /// Answers each call with a reply made from the method's declared output, and keeps the call.
    final class RecordingTransport: BoxTransport {
        var calls: [(method: String, parameters: [String: JSONValue])] = []

        func call(_ method: String, _ parameters: [String: JSONValue]) throws -> [String: JSONValue] {
            calls.append((method, parameters))
            return try reply(method)
        }

        func stream(_ method: String, _ parameters: [String: JSONValue],
                    _ body: ([String: JSONValue]) throws -> Void) throws {
            calls.append((method, parameters))
            try body(try reply(method))
        }

        func reply(_ method: String) throws -> [String: JSONValue] {
            let name = String(method.dropFirst(BoxInterface.name.count + 1))
            let declared = try #require(BoxInterface.declaration.methods[name], "a call of the undeclared method \(method)")
            var made: [String] = []
            return DecodersMatchInterfaceTests.sample(.structure(declared.output), path: [], made: &made).objectValue ?? [:]
        }
    }

    static let asset = Asset(name: "front.txt", text: "hola")

    /// Each function of the client, with every optional parameter given, and with none.
    static let everyCall: [(String, @Sendable (BoxClient) throws -> Void)] = [
        ("status", { _ = try $0.status() }),
        ("prepare", { _ = try $0.prepare() }),
        ("next", { _ = try $0.next() }),
        ("grade", { _ = try $0.grade(id: "a", correct: true, answerMs: 1200) }),
        ("grade (no time)", { _ = try $0.grade(id: "a", correct: false) }),
        ("undo", { _ = try $0.undo() }),
        ("keepTest", { _ = try $0.keepTest(device: "web-ab12") }),
        ("takeKeptGrade", { _ = try $0.takeKeptGrade(device: "web-ab12", sequence: 3, id: "a", correct: false,
                                                     time: "2026-11-28T08:00:00.250+01:00", answerMs: 900, level: .two, position: 40) }),
        ("add", { _ = try $0.add(front: asset, back: asset, id: "a", level: .three, allowDuplicate: true, typeAnswer: true) }),
        ("add (media)", { _ = try $0.add(front: asset, back: asset, media: [Asset(name: "cat.png", content: [0x89])]) }),
        ("add (tags)", { _ = try $0.add(front: asset, back: asset, tags: ["ja", "ja:kana"]) }),
        ("add (defaults)", { _ = try $0.add(front: asset, back: Asset(name: "back.png", content: [0, 1])) }),
        ("addMany", { _ = try $0.addMany([NewCard(front: asset, back: asset, id: "a", level: "2")], allowDuplicate: false) }),
        ("addMany (reverse)", { _ = try $0.addMany([NewCard(front: asset, back: asset)], reverse: true) }),
        ("addMany (shared media)", {
            let png = Asset(name: "cat.png", content: [0x89])
            _ = try $0.addMany([NewCard(front: asset, back: asset, id: "a", media: [png]), NewCard(front: asset, back: asset, id: "b", media: [png])])
        }),
        ("addWithReverse", { _ = try $0.addWithReverse(front: asset, back: asset, id: "a", level: .two, allowDuplicate: false) }),
        ("addWithReverse (tags)", { _ = try $0.addWithReverse(front: asset, back: asset, tags: ["ja"]) }),
        ("addReverse", { _ = try $0.addReverse(of: "a", reverseID: "a-back", level: .three) }),
        ("addReverse (defaults)", { _ = try $0.addReverse(of: "a") }),
        ("addReverse (its own tags, typed)", { _ = try $0.addReverse(of: "a", tags: ["ja"], typeAnswer: true) }),
        ("addCloze", { _ = try $0.addCloze(text: "{{c1::a}}", id: "n", level: .new, extra: "x", tags: ["t"]) }),
        ("addCloze (defaults)", { _ = try $0.addCloze(text: "{{c1::a}}") }),
        ("addCloze (media)", { _ = try $0.addCloze(text: "{{c1::a}}", typeAnswer: true, media: [Asset(name: "cat.png", content: [0x89])]) }),
        ("addClozes", {
            _ = try $0.addClozes([NewNote(text: "{{c1::a}} {{c2::b}}", id: "n", level: "new", extra: "x", tags: ["t"], typeAnswer: true,
                                          media: [Asset(name: "cat.png", content: [0x89])], cardLevels: [2: "3"]),
                                  NewNote(text: "{{c1::a}}")])
        }),
        ("move", { _ = try $0.move(id: "a", to: .finished) }),
        ("suspend", { _ = try $0.suspend(ids: ["a", "b"]) }),
        ("unsuspend", { _ = try $0.unsuspend(ids: ["a"]) }),
        ("delete", { _ = try $0.delete(id: "a") }),
        ("delete (keeping reverses)", { _ = try $0.delete(id: "a", keepReverses: true) }),
        ("edit", { _ = try $0.edit(id: "a", front: asset, back: asset) }),
        ("edit (front)", { _ = try $0.edit(id: "a", front: asset) }),
        ("rename", { _ = try $0.rename(id: "a", to: "b") }),
        ("show", { _ = try $0.show(id: "a") }),
        ("readAsset", { _ = try $0.readAsset(id: "a", side: .back) }),
        ("readMedium", { _ = try $0.readMedium(id: "a", name: "katze.png") }),
        ("speech", { _ = try $0.speech(id: "a", side: .front, withData: true) }),
        ("addMedia", { _ = try $0.addMedia(id: "a", media: [Asset(name: "katze.png", content: [1])]) }),
        ("resolveConflict", { _ = try $0.resolveConflict(id: "a", keep: "mine") }),
        ("list", { try $0.list(level: .two, withText: true) { _ in } }),
        ("list (all)", { try $0.list { _ in } }),
        ("calendar", { try $0.calendar(from: LogicalDate(year: 2026, month: 11, day: 2)!, to: LogicalDate(year: 2026, month: 11, day: 8)!) { _ in } }),
        ("log", { try $0.log(since: "2026-11-01", limit: 10) { _ in } }),
        ("search", { try $0.search("x", regex: true, fields: [.front, .back], level: .one, limit: 5) { _ in } }),
        ("search (plain)", { try $0.search("x") { _ in } }),
        ("search (a page of cards)", { try $0.search("x", cards: 101) { _ in } }),
        ("doctor", { try $0.doctor { _ in } }),
        ("stats", { _ = try $0.stats(days: 30, leeches: 5, tags: ["ja"], notTags: ["ja:kanji"]) }),
        ("next (a subset)", { _ = try $0.next(tags: ["ja"], notTags: ["de"], levels: [.one]) }),
        ("list (by tag)", { try $0.list(tags: ["ja"], notTags: ["de"]) { _ in } }),
        ("list (a page after)", { try $0.list(after: ListPosition(level: .three, id: "hola"), limit: 101) { _ in } }),
        ("list (a page before)", { try $0.list(before: ListPosition(level: .finished, id: "hola"), limit: 101) { _ in } }),
        ("search (by tag)", { try $0.search("x", tags: ["ja"], notTags: ["de"]) { _ in } }),
        ("tag", { _ = try $0.tag(id: "x", tags: ["ja"]) }),
        ("untag", { _ = try $0.untag(id: "x", tags: ["ja"]) }),
        ("tags", { try $0.tags(tags: ["ja"], notTags: ["de"]) { _ in } }),
        ("practice cards", { try $0.practiceCards(tags: ["ja"], notTags: ["de"], levels: [.one], pattern: "x", regex: false,
                                                 wrongDays: 7, limit: 10, shuffle: true) { _ in } }),
        ("practice", { _ = try $0.practice(id: "x", correct: true, answerMs: 900) }),
        ("stop", { _ = try $0.stop() }),
    ]

    @Test(arguments: everyCall.map(\.0))
    func eachCallIsOneTheInterfaceTakes(_ name: String) throws {
        let transport = RecordingTransport()
        let call = try #require(Self.everyCall.first { $0.0 == name }?.1)
        try call(BoxClient(transport))
        #expect(transport.calls.count == 1)
        for (method, parameters) in transport.calls {
            #expect(method.hasPrefix(BoxInterface.name + "."))
            let short = String(method.dropFirst(BoxInterface.name.count + 1))
            try #require(BoxInterface.declaration.methods[short] != nil, "\(name) calls \(method), which is not declared")
            #expect(BoxInterface.declaration.invalidParameter(in: parameters, of: short) == nil,
                    "\(name) sends \(JSONValue.object(parameters).jsonText), which \(short) does not take")
        }
    }

    /// Every method and every parameter the interface declares is sent by some function.
    @Test func everyDeclaredMethodAndParameterIsReachable() throws {
        let transport = RecordingTransport()
        for (_, call) in Self.everyCall { try call(BoxClient(transport)) }
        var sent: [String: Set<String>] = [:]
        for (method, parameters) in transport.calls {
            sent[String(method.dropFirst(BoxInterface.name.count + 1)), default: []].formUnion(parameters.keys)
        }
        for (name, method) in BoxInterface.declaration.methods {
            let parameters = try #require(sent[name], "no function of BoxClient calls \(name)")
            for field in method.input {
                #expect(parameters.contains(field.name), "no function of BoxClient sends \(name)'s parameter '\(field.name)'")
            }
        }
    }

    /// `BoxMethod` names exactly the interface's methods.
    @Test func theMethodNamesAreTheInterfaces() {
        #expect(Set(BoxMethod.allCases.map(\.rawValue)) == Set(BoxInterface.declaration.methods.keys))
    }

    /// A reply in a shape the client does not know is an error naming the method and the member.
    @Test func anUnreadableReplyNamesTheMethodAndTheMember() throws {
        final class Broken: BoxTransport {
            func call(_ method: String, _ parameters: [String: JSONValue]) throws -> [String: JSONValue] { ["card": 3] }
            func stream(_ method: String, _ parameters: [String: JSONValue], _ body: ([String: JSONValue]) throws -> Void) throws {
                try body(["cards": [["id": 1]]])
            }
        }
        let client = BoxClient(Broken())
        let error = try #require(throws: BoxReplyError.self) { try client.show(id: "a") }
        #expect(error.method == .show)
        #expect(error.description.hasPrefix("the daemon's answer to Show cannot be read: "))
        #expect(error.description.contains("card"))
        let streamed = try #require(throws: BoxReplyError.self) { try client.list { _ in } }
        #expect(streamed.description.contains("cards.0"))
    }

    /// The connection errors and the service's standard errors read back as they were sent.
    @Test func connectionAndServiceErrorsRoundTrip() throws {
        for error in [BoxConnectionError.connectionClosed(reason: "idle"), .tooManyConnections(limit: 64)] {
            let reply = error.varlinkReply
            let name = try #require(reply.error, "\(error) is not an error reply")
            #expect(BoxConnectionError(VarlinkCallError(name: name, parameters: reply.parameters)) == error)
        }
        let tooLarge = VarlinkCallError(name: VarlinkServiceInterface.invalidParameter,
                                        parameters: ["parameter": .string(VarlinkServiceInterface.messageParameter)])
        #expect(VarlinkServiceError(tooLarge) == .invalidParameter(parameter: "message"))
        #expect(VarlinkServiceError(VarlinkCallError(name: VarlinkServiceInterface.methodNotFound, parameters: [:]))
                == .methodNotFound(method: nil))
        #expect(VarlinkServiceError(VarlinkCallError(name: BoxInterface.connectionClosed, parameters: [:])) == nil)
    }
}
#endif
