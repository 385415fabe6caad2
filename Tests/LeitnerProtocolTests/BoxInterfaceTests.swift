import LeitnerVarlink
import Testing
@testable import LeitnerCore
@testable import LeitnerProtocol
@testable import LeitnerSystem

/// The interface texts are data; copies in `docs/` let the Python `varlink` package
/// parse them (Tests/EndToEnd/test_interface_idl.py) and readers see them.
@Suite struct BoxInterfaceTests {
    /// The package's root, from this file's path (Tests/LeitnerProtocolTests/BoxInterfaceTests.swift).
    static let root: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    func docsFile(_ name: String) throws -> String {
        String(decoding: try FileSystem.readFile(atPath: "\(Self.root)/docs/\(name)"), as: UTF8.self)
    }

    @Test func docsCopyOfBoxInterfaceIsCurrent() throws {
        #expect(try docsFile("io.leitner.Box.varlink") == BoxInterface.description,
                "docs/io.leitner.Box.varlink differs from BoxInterface.description: copy the text over")
    }

    @Test func theInterfaceTextParses() throws {
        let box = BoxInterface.declaration
        #expect(box.name == BoxInterface.name)
        #expect(box.methods["Grade"]?.input.map(\.name) == ["id", "correct", "answerMs"])
        #expect(box.types["Test"] != nil)
    }

    @Test func docsCopyOfServiceInterfaceIsCurrent() throws {
        #expect(try docsFile("org.varlink.service.varlink") == VarlinkServiceInterface.description)
    }

    @Test func namesTheInterfaceAndTheAdditions() {
        let text = BoxInterface.description
        #expect(text.hasPrefix("# A Leitner box"))
        #expect(text.contains("\ninterface io.leitner.Box\n"))
        #expect(text.contains("method Add(front: Asset, back: Asset, id: ?string, level: ?string, allowDuplicate: ?bool, reverse: ?bool,\n  typeAnswer: ?bool, media: ?[]Asset, tags: ?[]string) -> (card: Card, reverse: ?Card)"))
        #expect(text.contains("method Status() -> (today: string, test: Test, counts: [string]int, problems: ?int, clockBehind: ?string,\n  arrivals: ?int, arrivalDate: ?string, leeches: ?int, next: ?NextTest, week: ?[]Day)"))
        #expect(text.contains("type NextTest (date: string, levels: []string, cards: int, arrivals: int)"))
        #expect(text.contains("method Suspend(ids: []string) -> (cards: []Card)"))
        #expect(text.contains("method Unsuspend(ids: []string) -> (cards: []Card)"))
        #expect(text.contains("method AddReverse(id: string, reverseId: ?string, level: ?string, tags: ?[]string, typeAnswer: ?bool) -> (card: Card)"))
        #expect(text.contains("method Delete(id: string, keepReverses: ?bool) -> (reverses: ?[]string)"))
        #expect(text.contains("type Card (id: string, level: string, front: Side, back: Side, tags: ?[]string, reverseOf: ?string, clozeOf: ?string, cloze: ?int)"))
        #expect(text.contains("method Stop() -> ()"))
        #expect(text.contains("method Doctor() -> (problems: []Problem)"))
        #expect(text.contains("error DuplicateFront (id: string)"))
        #expect(VarlinkServiceInterface.description.contains("\ninterface org.varlink.service\n"))
    }

    /// Each parameter the error table fills is declared in the interface text, by the same name
    /// and type, in the same order (strings, but for StoreFailure's `errno: ?int`).
    @Test func everyBoxErrorParameterIsAString() {
        for error in BoxErrorTableTests.everyError where error.varlinkName.hasPrefix(BoxInterface.name + ".") {
            let short = String(error.varlinkName.dropFirst(BoxInterface.name.count + 1))
            let fields = BoxInterface.declaration.errors[short] ?? []
            #expect(fields.map(\.name) == error.parameters.map(\.0), "\(short)")
            #expect(fields.allSatisfy { $0.type == .string || $0.type == .optional(.string) || $0.name == "errno" }, "\(short)")
        }
    }

    /// The error table (`BoxError.wireTable`) is the interface's errors: one row for each error
    /// the interface declares but the daemon's own two, with the declared parameters and types;
    /// and the row of `InvalidParameter` is `org.varlink.service`'s declaration.
    @Test func theErrorTableIsTheInterfacesDeclaredErrors() {
        let daemonOwn: Set = ["ConnectionClosed", "TooManyConnections"]
        var declared: [String: [VarlinkField]] = [:]
        for (name, fields) in BoxInterface.declaration.errors where !daemonOwn.contains(name) {
            declared[BoxInterface.name + "." + name] = fields
        }
        declared[VarlinkServiceInterface.invalidParameter] = VarlinkServiceInterface.declaration.errors["InvalidParameter"]
        let rows = BoxError.wireTable
        #expect(Set(rows.map(\.name)) == Set(declared.keys))
        #expect(rows.count == Set(rows.map(\.name)).count, "one row per error")
        for row in rows {
            #expect(declared[row.name] == row.parameters, "\(row.name)")
        }
    }
}
