import LeitnerCore

/// The names a person reads for a date, written once for every view (status's week,
/// `calendar`, the review's summary, the statistics).
extension LogicalDate {
    /// `Mon` … `Sun`, Monday first as `weekday` counts.
    public static let weekdayAbbreviations = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// This date's weekday, abbreviated: `Thu`.
    public var weekdayAbbreviation: String { LogicalDate.weekdayAbbreviations[weekday] }
}
