import LeitnerVarlink
import Testing
import LeitnerProtocol
@testable import leitnerd

/// Each method is declared once, in its interface's IDL text; the dispatcher's one method table
/// (`Dispatcher.methods`) must name exactly those methods, or a declared method would answer
/// MethodNotImplemented and an entry would be unreachable.
@Suite struct MethodTableTests {
    static func names(_ interface: String) -> [String] {
        Dispatcher.methods[interface]?.methods.keys.sorted() ?? []
    }

    /// The kind of each entry of an interface, by method name.
    static func kinds(_ interface: String) -> [String: String] {
        (Dispatcher.methods[interface]?.methods ?? [:]).mapValues { method in
            switch method {
            case .once: "once"
            case .streams: "streams"
            case .daemon: "daemon"
            }
        }
    }

    /// Checked against the parsed interface texts themselves, not against the declarations the
    /// table carries, so that a table holding the wrong text fails too.
    @Test func everyDeclaredMethodHasOneEntryAndEveryEntryIsDeclared() throws {
        let box = try VarlinkInterfaceDescription(parsing: BoxInterface.description)
        let service = try VarlinkInterfaceDescription(parsing: VarlinkServiceInterface.description)
        #expect(Self.names(BoxInterface.name) == box.methods.keys.sorted())
        #expect(Self.names(VarlinkServiceInterface.name) == service.methods.keys.sorted())
    }

    /// The table is keyed by the interfaces' enumerations of their methods, so each must name
    /// exactly the declared methods (`BoxClientTests` holds `BoxMethod` to its text): a case the
    /// text lacks could not be called, and a declared method without its case could have no entry.
    @Test func theServiceMethodsAreTheDeclaredOnes() throws {
        let service = try VarlinkInterfaceDescription(parsing: VarlinkServiceInterface.description)
        #expect(VarlinkServiceMethod.allCases.map(\.rawValue).sorted() == service.methods.keys.sorted())
        #expect(VarlinkServiceMethod.getInfo.qualifiedName == "org.varlink.service.GetInfo")
    }

    /// The table serves the interfaces `GetInfo` names, each checked against its own text.
    @Test func theTableServesTheDescribedInterfacesWithTheirOwnDeclarations() throws {
        #expect(Dispatcher.methods.keys.sorted() == ServiceInterface.descriptions.map(\.name).sorted())
        for (name, text) in ServiceInterface.descriptions {
            let parsed = try VarlinkInterfaceDescription(parsing: text)
            let table = try #require(Dispatcher.methods[name])
            #expect(table.declaration.name == name)
            #expect(table.declaration.methods.keys.sorted() == parsed.methods.keys.sorted())
        }
    }

    /// Only `Stop` of the box's interface is the daemon's own, and nothing of
    /// `org.varlink.service` waits for the box: a daemon whose box is stuck still answers them.
    /// The replies that grow with the box stream.
    @Test func eachEntrySaysHowItIsAnswered() {
        let box = Self.kinds(BoxInterface.name)
        #expect(box.filter { $0.value == "daemon" }.keys.sorted() == ["Stop"])
        #expect(box.filter { $0.value == "streams" }.keys.sorted() == ["Calendar", "Doctor", "List", "Log", "PracticeCards", "Search", "Tags"])
        #expect(Set(Self.kinds(VarlinkServiceInterface.name).values) == ["daemon"])
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
