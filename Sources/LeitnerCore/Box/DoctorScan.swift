/// A `Doctor` in progress: the cards to look at, taken when it began, and how far it has come.
/// Each card's directory is read (R21), a batch at a time (`Box.nextProblems`), so that the box
/// serves other calls between two batches of a store of 100,000 cards; the problems that are not
/// about one card come last, in one batch.
public struct DoctorScan: Sendable {
    /// The ids of the cards to look at, in id order.
    let ids: [String]
    /// The index in `ids` of the next card to look at.
    var position = 0
    /// True once the last batch has been given.
    public internal(set) var isFinished = false
}
