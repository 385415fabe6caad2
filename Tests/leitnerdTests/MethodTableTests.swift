import LeitnerVarlink
import Testing
import LeitnerProtocol
@testable import leitnerd

/// Each method is declared once, in its interface's IDL text; the handler tables must cover
/// exactly those methods, or a declared method would answer MethodNotFound and a handler would
/// be unreachable.
@Suite struct MethodTableTests {
    /// `io.leitner.Box` has three tables: the box's methods with one reply, those whose replies
    /// grow with the box and are streamed, and the daemon's own (`Stop`), which never wait for
    /// the box. Apart, and together, they are the declared methods.
    @Test func theBoxStreamedAndDaemonHandlersAreTheDeclaredMethods() {
        let box = Set(BoxMethods.handlers.keys), streamed = Set(BoxMethods.streamed.keys)
        let daemon = Set(DaemonMethods.handlers.keys)
        #expect(box.isDisjoint(with: daemon) && box.isDisjoint(with: streamed) && streamed.isDisjoint(with: daemon))
        #expect(box.union(streamed).union(daemon).sorted() == BoxInterface.declaration.methods.keys.sorted())
        #expect(daemon == ["Stop"])
        #expect(streamed.isSuperset(of: ["List", "Log", "Calendar", "Search", "Doctor"]))
    }

    @Test func theServiceHandlersAreTheDeclaredMethods() {
        #expect(ServiceInterface.handlers.keys.sorted() == VarlinkServiceInterface.declaration.methods.keys.sorted())
    }

    /// `GetInfo` names each interface the daemon serves, and each has its IDL text.
    @Test func everyServedInterfaceIsDescribed() throws {
        let info = try ServiceInterface.getInfo(CallParameters([:]))
        let names = info["interfaces"]?.arrayValue?.compactMap(\.stringValue)
        #expect(names == [VarlinkServiceInterface.name, BoxInterface.name])
        for name in names ?? [] {
            let reply = try ServiceInterface.getInterfaceDescription(CallParameters(["interface": .string(name)]))
            let text = try #require(reply["description"]?.stringValue)
            #expect(try VarlinkInterfaceDescription(parsing: text).name == name)
        }
    }

    @Test func anUnknownInterfaceIsNotFound() {
        #expect(throws: InterfaceNotFound.self) {
            try ServiceInterface.getInterfaceDescription(CallParameters(["interface": "org.example.none"]))
        }
    }
}
