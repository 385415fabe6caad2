@testable import LeitnerCore

/// The settings of R23 and R24 a test box is opened with (`BoxOptions.newPerDay`, …): pacing off
/// (`NewPerDay=all`) unless a test asks for it, as every box was before R23.
struct PlacesSettings {
    var newPerDay: Int? = nil
    var leechAfter = 8
    var suspendLeeches = false
}

extension PlacesLedger {
    /// The admission order with `new/`'s least ids walked from `index` each time, as a box does
    /// without the view it keeps of them (`LeastWaiting`): the ledger's tests are of the ledger.
    mutating func admissionOrder(in index: CardIndex, limit: Int) -> [String] {
        admissionOrder(in: index, limit: limit) { index.leastEntries($0, at: .new).map { index.id(ofEntry: $0) } }
    }
}
