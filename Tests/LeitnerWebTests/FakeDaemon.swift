import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink
import Synchronization

/// A daemon in memory, enough for the review's routes: a test of a few cards in a queue, `Next`
/// (with its tag filter), `Show`, `Grade`, `Suspend`, `Edit`, `Status`, `Stats`, `Tags`, `List`,
/// `Search`, each reply made from the model's own JSON, as the daemon makes it. Every call is kept, with its
/// parameters, so that a test can tell what reached the daemon.
final class FakeDaemon: BoxTransport, Sendable {
    struct State {
        var queue: [Card]
        var suspended: [Card] = []
        var passed = 0
        var status: BoxStatus
        /// The figures `Stats` answers.
        var stats: BoxStatistics?
        var calls: [(method: BoxMethod, parameters: [String: JSONValue])] = []
        /// The parts of the last `Search` taken by the caller, and how many it had (a card a part).
        var searchParts = (taken: 0, of: 0)
        /// False for a daemon older than `Search`'s `cards`: it refuses the parameter, as every
        /// one its interface does not declare (`InvalidParameter`).
        var searchTakesCards = true
    }

    let state: Mutex<State>

    init(cards: [Card], status: BoxStatus? = nil) {
        let today = LogicalDate(year: 2026, month: 1, day: 5)!
        let test = TestSummary(date: today, position: 0, levels: [.one], state: .open, remaining: cards.count, passed: 0, failed: 0)
        state = Mutex(State(queue: cards, status: status ?? BoxStatus(today: today, test: test, counts: [.one: cards.count], problems: 0)))
    }

    /// The methods called, in order.
    var methods: [BoxMethod] { state.withLock { $0.calls.map(\.method) } }

    /// The parameters of the last call of `method`.
    func parameters(of method: BoxMethod) -> [String: JSONValue]? {
        state.withLock { $0.calls.last { $0.method == method }?.parameters }
    }

    func card(_ id: String) -> Card? {
        state.withLock { state in (state.queue + state.suspended).first { $0.id == id } }
    }

    private static func method(_ name: String) -> BoxMethod {
        BoxMethod.allCases.first { $0.qualifiedName == name }!
    }

    private static func summary(_ state: State) -> JSONValue {
        TestSummary(date: state.status.today, position: 0, levels: [.one], state: state.queue.isEmpty ? .completed : .open,
                    remaining: state.queue.count, passed: state.passed, failed: 0).json
    }

    func call(_ name: String, _ parameters: [String: JSONValue]) throws -> [String: JSONValue] {
        let method = Self.method(name)
        return try state.withLock { state throws -> [String: JSONValue] in
            state.calls.append((method, parameters))
            let id = parameters["id"]?.stringValue
            switch method {
            case .status:
                return state.status.json.objectValue ?? [:]
            case .stats:
                guard let stats = state.stats else { throw VarlinkCallError(name: name, parameters: [:]) }
                return stats.json.objectValue ?? [:]
            case .next:
                let tags = parameters["tags"]?.arrayValue?.compactMap(\.stringValue) ?? []
                let head = state.queue.first { card in tags.allSatisfy(card.tags.contains) }
                var reply: [String: JSONValue] = ["card": head?.json ?? .null, "test": Self.summary(state)]
                if !tags.isEmpty {
                    let inside = state.queue.filter { card in tags.allSatisfy(card.tags.contains) }.count
                    reply["outside"] = .int(Int64(state.queue.count - inside))
                }
                return reply
            case .show:
                guard let card = (state.queue + state.suspended).first(where: { $0.id == id }) else { throw Self.noSuchCard(id ?? "") }
                return ["card": card.json]
            case .grade:
                guard let index = state.queue.firstIndex(where: { $0.id == id }) else { throw Self.noSuchCard(id ?? "") }
                var card = state.queue.remove(at: index)
                card.level = .two
                state.passed += 1
                return ["card": card.json, "test": Self.summary(state)]
            case .suspend:
                let ids = parameters["ids"]?.arrayValue?.compactMap(\.stringValue) ?? []
                var moved: [JSONValue] = []
                for id in ids {
                    guard let index = state.queue.firstIndex(where: { $0.id == id }) else { throw Self.noSuchCard(id) }
                    var card = state.queue.remove(at: index)
                    card.level = .suspended
                    state.suspended.append(card)
                    moved.append(card.json)
                }
                return ["cards": .array(moved)]
            case .unsuspend:
                let ids = parameters["ids"]?.arrayValue?.compactMap(\.stringValue) ?? []
                var moved: [JSONValue] = []
                for id in ids {
                    guard let index = state.suspended.firstIndex(where: { $0.id == id }) else { throw Self.noSuchCard(id) }
                    var card = state.suspended.remove(at: index)
                    card.level = .one
                    state.queue.insert(card, at: 0)
                    moved.append(card.json)
                }
                return ["cards": .array(moved)]
            case .edit:
                guard let index = state.queue.firstIndex(where: { $0.id == id }) else { throw Self.noSuchCard(id ?? "") }
                if let front = parameters["front"].flatMap({ try? Asset(json: $0) }) {
                    state.queue[index].front.text = String(decoding: front.content, as: UTF8.self)
                }
                if let back = parameters["back"].flatMap({ try? Asset(json: $0) }) {
                    state.queue[index].back.text = String(decoding: back.content, as: UTF8.self)
                }
                return ["card": state.queue[index].json, "changed": true]
            default:
                throw VarlinkCallError(name: name, parameters: [:])
            }
        }
    }

    func stream(_ name: String, _ parameters: [String: JSONValue], _ body: ([String: JSONValue]) throws -> Void) throws {
        let method = Self.method(name)
        let reply: [String: JSONValue] = try state.withLock { state throws -> [String: JSONValue] in
            state.calls.append((method, parameters))
            if method == .search, parameters["cards"] != nil, !state.searchTakesCards {
                let refusal = BoxError.invalidParameter(name: "cards", reason: "").varlinkReply
                throw VarlinkCallError(name: refusal.error ?? "", parameters: refusal.parameters)
            }
            let cards = state.queue + state.suspended
            switch method {
            case .tags:
                var counts: [String: Int] = [:]
                for card in cards { for tag in card.tags { counts[tag, default: 0] += 1 } }
                return ["tags": .array(counts.keys.sorted().map { TagCount(tag: $0, cards: counts[$0]!).json })]
            case .list:
                let tags = parameters["tags"]?.arrayValue?.compactMap(\.stringValue) ?? []
                let level = parameters["level"]?.stringValue.flatMap { Level(name: $0) }
                let chosen = cards.filter { card in tags.allSatisfy(card.tags.contains) && (level == nil || card.level == level) }
                return ["cards": .array(chosen.map(\.json))]
            case .search:
                // Each side's lines holding the pattern (case ignored), with the side's media
                // type, as the daemon's `SearchScan` gives them; given below a card a part, of
                // the first `cards` cards when asked.
                let pattern = parameters["pattern"]?.stringValue?.lowercased() ?? ""
                let most = parameters["cards"]?.intValue ?? Int.max
                let matches = cards.sorted { ($0.level, $0.id) < ($1.level, $1.id) }.map { card in
                    [(SearchMatch.Field.front, card.front), (.back, card.back)].flatMap { field, side in
                        (side.text ?? "").split(separator: "\n").filter { $0.lowercased().contains(pattern) }.map {
                            SearchMatch(id: card.id, level: card.level, field: field, line: String($0), mediaType: side.mediaType).json
                        }
                    }
                }.filter { !$0.isEmpty }.prefix(most)
                return ["parts": .array(matches.map(JSONValue.array))]
            default:
                return [:]
            }
        }
        guard let parts = reply["parts"]?.arrayValue else { return try body(reply) }
        state.withLock { $0.searchParts = (0, parts.count) }
        for part in parts {
            try body(["matches": part])
            state.withLock { $0.searchParts.taken += 1 }
        }
    }

    static func noSuchCard(_ id: String) -> VarlinkCallError {
        let reply = BoxError.noSuchCard(id: id).varlinkReply
        return VarlinkCallError(name: reply.error ?? "", parameters: reply.parameters)
    }
}
