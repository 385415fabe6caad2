extension DayRecord {
    /// The union by date of several devices' day records (docs/sync.md): completed beats skipped.
    public static func union(_ records: [DayRecord]) -> DayRecord {
        if records.count == 1 { return records[0] }
        var byDate: [LogicalDate: Outcome] = [:]
        for record in records {
            for entry in record.entries where byDate[entry.date] != .completed { byDate[entry.date] = entry.outcome }
        }
        var result = DayRecord()
        result.entries = byDate.keys.sorted().map { Entry(date: $0, outcome: byDate[$0]!) }
        return result
    }
}
