import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink

/// The entries of a `Log`, read from the review log as it was when the call began, on the
/// reader's own descriptor: no batch needs the box (docs/daemon.md, "Streamed replies").
final class LogItems: ReplyItems {
    /// Entries parsed at a time: a few tens of kilobytes of log.
    static let batchSize = 1024

    private let reader: MergedLogReader

    init(_ reader: MergedLogReader) {
        self.reader = reader
    }

    var member: String { "entries" }
    var needsBox: Bool { false }

    func next(_ context: BoxMethods.Context?) throws -> [JSONValue]? {
        let entries = try reader.next(upTo: Self.batchSize)
        return entries.isEmpty ? nil : entries.map(\.json)
    }

    func describe(_ item: JSONValue) -> String {
        "the log entry of \(item["time"]?.stringValue ?? "?")"
    }
}
