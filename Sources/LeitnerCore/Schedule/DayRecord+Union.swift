extension DayRecord {
    /// The day record of a box kept by several devices, each writing only its own record
    /// (docs/sync.md): every date of any of `records`, once, in date order. A date completed on
    /// one device and skipped on another is completed — the test was done that day, on some
    /// machine. The cycle position counts distinct dates, so two devices completing the same day
    /// advance the cycle once (docs/rules.md, R4).
    public static func union(_ records: [DayRecord]) -> DayRecord {
        if records.count == 1 { return records[0] }
        var union = DayRecord()
        var all = records.flatMap(\.entries)
        // Each record is already in date order; a sort of all of them is simpler than a k-way
        // merge and costs little: a record grows by one line a day.
        all.sort { $0.date < $1.date }
        union.entries.reserveCapacity(all.count)
        for entry in all {
            if let last = union.entries.last, last.date == entry.date {
                if entry.outcome == .completed { union.entries[union.entries.count - 1].outcome = .completed }
            } else {
                union.entries.append(entry)
            }
        }
        return union
    }
}
