#if LEITNER_TEST_HOOKS
import LeitnerVarlink
import Testing
@testable import LeitnerCore
@testable import LeitnerProtocol

/// The client's decoders (BoxTypes+JSON.swift and its neighbours) and the interface text
/// (`BoxInterface.declaration`, docs/io.leitner.Box.varlink) agree: fed an object made from the
/// interface text alone, each decoder reads it, reads every member the text declares, and reads
/// no member the text does not declare (a member a real daemon never sends).
@Suite struct DecodersMatchInterfaceTests {
    typealias Decoder = @Sendable (JSONValue) throws -> Void

    /// Each type of the interface that leitnerctl decodes, by its name in the interface text.
    static let types: [(String, Decoder)] = [
        ("Side", { _ = try Side(json: $0, field: "") }),
        ("Card", { _ = try Card(json: $0, field: "") }),
        ("Asset", { _ = try Asset(json: $0, field: "") }),
        ("Test", { _ = try TestSummary(json: $0, field: "") }),
        ("Day", { _ = try CalendarDay(json: $0, field: "") }),
        ("LogEntry", { _ = try LogEntry(json: $0, field: "") }),
        ("Problem", { _ = try StoreProblem(json: $0, field: "") }),
        ("SearchMatch", { _ = try SearchMatch(json: $0, field: "") }),
        ("NewCard", { json in
            // Its sharedMedia name media of the batch, which the sample's names stand for.
            let names = json.objectValue?["sharedMedia"]?.arrayValue?.compactMap(\.stringValue) ?? []
            _ = try NewCard(json: json, field: "", batchMedia: Dictionary(names.map { ($0, Asset(name: $0, text: "")) }) { first, _ in first })
        }),
        ("StatsDay", { _ = try StatsDay(json: $0, field: "") }),
        ("ForecastTest", { _ = try ForecastTest(json: $0, field: "") }),
        ("Retention", { _ = try LevelRetention(json: $0, field: "") }),
        ("WeekRetention", { _ = try WeekRetention(json: $0, field: "") }),
        ("Streaks", { _ = try Streaks(json: $0, field: "") }),
        ("Leech", { _ = try Leech(json: $0, field: "") }),
    ]

    /// Each method whose whole reply one decoder reads, by its name in the interface text.
    static let replies: [(String, Decoder)] = [
        ("Status", { _ = try BoxStatus(json: $0) }),
        ("AddMany", { _ = try BatchOutcome(json: $0) }),
        ("Stats", { _ = try BoxStatistics(json: $0) }),
    ]

    /// Members a decoder may leave unread, and why.
    static let unread: Set<String> = [
        // A refused card's reason in words: the client says the error as it says any (its own
        // words for some), from the error's name and parameters.
        "refused.0.reason",
    ]

    /// The error a sample's `error` member names (`sampleString`): the error table reads its
    /// parameters by the error's declaration, which BoxInterfaceTests checks.
    static let sampleError = "NoSuchCard"

    static var interface: VarlinkInterfaceDescription { BoxInterface.declaration }

    @Test(arguments: types.map(\.0))
    func typeDecoderReadsWhatTheInterfaceDeclares(_ name: String) throws {
        let type = try #require(Self.interface.types[name], "no type \(name) in the interface text")
        let decode = try #require(Self.types.first { $0.0 == name }?.1)
        try check(type, decode, name)
    }

    @Test(arguments: replies.map(\.0))
    func replyDecoderReadsWhatTheInterfaceDeclares(_ method: String) throws {
        let declared = try #require(Self.interface.methods[method], "no method \(method) in the interface text")
        let decode = try #require(Self.replies.first { $0.0 == method }?.1)
        try check(.structure(declared.output), decode, method)
    }

    /// A decoder that reads a member the interface does not have is caught.
    @Test func aMemberOutsideTheInterfaceIsCaught() {
        let side = VarlinkType.structure([VarlinkField(name: "path", type: .string), VarlinkField(name: "mediaType", type: .string)])
        #expect(!Self.isDeclared(["text"], in: side))
        #expect(Self.isDeclared(["mediaType"], in: side))
        #expect(!Self.isDeclared(["front", "colour"], in: Self.interface.types["Card"]!))
        #expect(Self.isDeclared(["cards", "0", "front", "text"], in: .structure(Self.interface.methods["List"]!.output)))
    }

    func check(_ type: VarlinkType, _ decode: Decoder, _ name: String) throws {
        var made: [String] = []
        let sample = Self.sample(type, path: [], made: &made)
        let reads = JSONFieldReads()
        try JSONFieldReads.$current.withValue(reads) { try decode(sample) }
        let read = reads.recorded
        let errorParameters = made.contains { $0.hasSuffix(".error") }
            ? Set((Self.interface.errors[Self.sampleError] ?? []).map(\.name)) : []
        for path in read where !errorParameters.contains(path) {
            #expect(Self.isDeclared(path.split(separator: ".").map(String.init), in: type),
                    "\(name): the decoder reads '\(path)', which the interface text does not declare")
        }
        for path in made where !Self.unread.contains(path) {
            #expect(read.contains(path), "\(name): the interface text declares '\(path)', which the decoder never reads")
        }
    }

    /// Whether the member at `path` (array indices and map keys included) is declared in `type`.
    static func isDeclared(_ path: [String], in type: VarlinkType) -> Bool {
        guard let first = path.first else { return true }
        let rest = Array(path.dropFirst())
        switch type {
        case .structure(let fields):
            guard let field = fields.first(where: { $0.name == first }) else { return false }
            return isDeclared(rest, in: field.type)
        case .named(let name):
            guard let named = interface.types[name] else { return false }
            return isDeclared(path, in: named)
        case .optional(let inner):
            return isDeclared(path, in: inner)
        case .array(let element):
            return Int(first) != nil && isDeclared(rest, in: element)
        case .map(let value):
            return isDeclared(rest, in: value)
        case .bool, .int, .float, .string, .object, .enumeration:
            return false
        }
    }

    /// A value of `type` made from the interface text alone: one element in each array, every
    /// level in each map (`counts`), every nullable member present. `made` gets the dotted path
    /// of each member made.
    static func sample(_ type: VarlinkType, path: [String], made: inout [String]) -> JSONValue {
        switch type {
        case .bool: return true
        case .int: return 1
        case .float: return 1.5
        case .object: return ["id": "a"]
        case .enumeration(let names): return .string(names[0])
        case .string: return sampleString(path.last ?? "")
        case .optional(let inner):
            // An `Asset` has `text` or `data`, never both.
            if path.last == "data" { return .null }
            return sample(inner, path: path, made: &made)
        case .array(let element):
            return [sample(element, path: path + ["0"], made: &made)]
        case .map(let value):
            var members: [String: JSONValue] = [:]
            for level in Level.allCases {
                made.append((path + [level.name]).joined(separator: "."))
                members[level.name] = sample(value, path: path + [level.name], made: &made)
            }
            return .object(members)
        case .named(let name):
            return sample(interface.types[name] ?? .object, path: path, made: &made)
        case .structure(let fields):
            var members: [String: JSONValue] = [:]
            for field in fields {
                made.append((path + [field.name]).joined(separator: "."))
                members[field.name] = sample(field.type, path: path + [field.name], made: &made)
            }
            return .object(members)
        }
    }

    /// A string of the form the member's name asks for: a date, a time, a level, an error.
    static func sampleString(_ name: String) -> JSONValue {
        switch name {
        case "date", "today", "week", "longestEnd", "arrivalDate": "2026-11-23"
        case "time", "clockBehind": "2026-11-23T10:00:00+00:00"
        case "level", "from", "to", "0": "1"
        case "error": .string(BoxInterface.name + "." + sampleError)
        case "data": "aG9sYQ==" // base64, as `ReadAsset` sends a side's bytes
        default: "a"
        }
    }
}
#endif
