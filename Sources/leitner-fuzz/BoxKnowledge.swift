import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink

/// What the fuzzer knows of the box under test, read back from the daemon after each step: the
/// values worth sending are mostly those that name something in it.
struct BoxKnowledge {
    /// The ids of the cards in the box.
    var ids: [String] = []
    /// Each card's level.
    var levels: [String: Level] = [:]
    /// The paths of the lone halves of loose pairs the fuzzer put into the store by hand, which
    /// `Doctor` must report (R14), and no other problem.
    var looseHalves: Set<String> = []
    /// The devices with a directory in the store (`.leitner/devices/`): this one, and each
    /// browser that kept a test.
    var devices: [String] = []
    /// Today's logical date, from `Status`.
    var today = LogicalDate(ordinal: 20_000)
    /// The interfaces the daemon serves, from `GetInfo`.
    var interfaces: [String] = []
    /// The last ids a reply named (a card `Next` showed, one `Add` made): the next call is
    /// likeliest to mean them.
    var recentIds: [String] = []

    /// Notes the ids a reply names, in members called `id` at any depth.
    mutating func noteIds(in value: JSONValue, depth: Int = 0) {
        guard depth < 4 else { return }
        switch value {
        case .object(let members):
            if let id = members["id"]?.stringValue { recentIds = Array((recentIds + [id]).suffix(8)) }
            for member in members.values { noteIds(in: member, depth: depth + 1) }
        case .array(let items):
            for item in items.prefix(4) { noteIds(in: item, depth: depth + 1) }
        default:
            break
        }
    }

    /// What the invariants found (`found`), with what only calls tell: the interfaces and the
    /// ids replies named.
    func updated(with found: BoxKnowledge) -> BoxKnowledge {
        var merged = found
        merged.interfaces = interfaces
        merged.recentIds = recentIds
        return merged
    }
}
