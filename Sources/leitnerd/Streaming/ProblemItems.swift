import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink

/// The problems of a `Doctor`, found a batch of cards at a time under the box's turn
/// (`Box.nextProblems`).
final class ProblemItems: ReplyItems {
    /// Card directories looked at in one turn at the box.
    static let batchSize = 256

    private var scan: DoctorScan

    init(_ scan: DoctorScan) {
        self.scan = scan
    }

    var member: String { "problems" }
    var needsBox: Bool { true }

    func next(_ context: BoxMethods.Context?) throws -> [JSONValue]? {
        guard !scan.isFinished, let box = context?.box else { return nil }
        return try box.nextProblems(of: &scan, upTo: Self.batchSize).map(\.json)
    }

    func describe(_ item: JSONValue) -> String {
        "the problem of '\(item["path"]?.stringValue ?? "?")'"
    }
}
