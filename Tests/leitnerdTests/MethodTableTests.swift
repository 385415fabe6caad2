import Testing
import LeitnerProtocol
@testable import leitnerd

/// Each method is declared once, in its interface's IDL text; the handler tables must cover
/// exactly those methods, or a declared method would answer MethodNotFound and a handler would
/// be unreachable.
@Suite struct MethodTableTests {
    @Test func theBoxHandlersAreTheDeclaredMethods() {
        #expect(BoxMethods.handlers.keys.sorted() == BoxInterface.declaration.methods.keys.sorted())
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
