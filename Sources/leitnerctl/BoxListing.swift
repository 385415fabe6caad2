import LeitnerCore
import LeitnerVarlink

/// One line of `leitnerctl boxes`: a box, where it is, and what its daemon said of it.
struct BoxListing {
    /// What could be learnt of the box.
    enum Outcome {
        /// Nothing answers on its socket and autostart is off (`--no-autostart`, `Autostart=no`).
        case notRunning
        /// Its configuration, its daemon or the connection failed: the message says which.
        case failed(String)
        /// Its daemon's `Status`, with its next test.
        case serving(BoxStatus)
    }

    /// The box's name; nil: the default box.
    var name: String?
    /// The box the command line or `LEITNER_BOX` selects (the default one when neither does).
    var selected: Bool
    /// Its store, as its configuration says; nil when the configuration could not be read.
    var storePath: String?
    /// Its socket, as its configuration says; nil when the configuration could not be read.
    var socketPath: String?
    var outcome: Outcome

    /// The name as the table shows it.
    var title: String { name ?? "(default)" }

    /// The cards of the box, every level and finished (damaged cards not counted, R21).
    var cards: Int? {
        guard case .serving(let status) = outcome else { return nil }
        return status.counts.values.reduce(0, +)
    }

    /// The `--json` line: every field always present, null where unknown, so that a script
    /// reads each box the same way. `nextDue` is the next test's date, `next` the whole of it
    /// (`Status`'s), `done` and `testCards` today's progress.
    var json: JSONValue {
        var fields: [String: JSONValue] = [
            "box": name.map(JSONValue.string) ?? .null,
            "selected": .bool(selected),
            "store": storePath.map(JSONValue.string) ?? .null,
            "socket": socketPath.map(JSONValue.string) ?? .null,
            "running": .bool(false), "today": .null, "cards": .null, "remaining": .null, "nextDue": .null, "error": .null,
            "done": .null, "testCards": .null, "next": .null,
        ]
        switch outcome {
        case .notRunning:
            break
        case .failed(let message):
            fields["error"] = .string(message)
        case .serving(let status):
            fields["running"] = .bool(true)
            fields["today"] = .string(status.today.description)
            fields["cards"] = .int(Int64(cards ?? 0))
            fields["remaining"] = .int(Int64(status.test.remaining))
            fields["done"] = .int(Int64(status.test.done))
            fields["testCards"] = .int(Int64(status.test.cards))
            fields["nextDue"] = status.next.map { .string($0.date.description) } ?? .null
            fields["next"] = status.next?.json ?? .null
        }
        return .object(fields)
    }
}
