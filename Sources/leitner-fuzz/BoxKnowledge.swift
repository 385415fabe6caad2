import LeitnerCore

/// What the fuzzer knows of the box under test, read back from the daemon after each step: the
/// values worth sending are mostly those that name something in it.
struct BoxKnowledge {
    /// The ids of the cards in the box.
    var ids: [String] = []
    /// Today's logical date, from `Status`.
    var today = LogicalDate(ordinal: 20_000)
    /// The interfaces the daemon serves, from `GetInfo`.
    var interfaces: [String] = []
}
