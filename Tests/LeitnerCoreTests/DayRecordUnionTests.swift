import Testing
@testable import LeitnerCore

/// `DayRecord.union`: the day record of a box kept by several devices (docs/sync.md) — every
/// date once, in date order, `completed` beating `skipped`.
@Suite struct DayRecordUnionTests {
    func record(_ entries: [(String, DayRecord.Outcome)]) throws -> DayRecord {
        try DayRecord(entries: entries.map { DayRecord.Entry(date: LogicalDate($0.0)!, outcome: $0.1) })
    }

    func lines(_ record: DayRecord) -> [String] { record.entries.map(DayRecord.line(for:)) }

    @Test func noRecordsOrEmptyOnesMakeAnEmptyRecord() throws {
        #expect(DayRecord.union([]) == DayRecord())
        #expect(DayRecord.union([DayRecord(), DayRecord()]).position == 0)
    }

    @Test func oneRecordIsItself() throws {
        let one = try record([("2026-03-01", .completed), ("2026-03-02", .skipped)])
        #expect(DayRecord.union([one]) == one)
        #expect(DayRecord.union([one, DayRecord()]) == one)
    }

    @Test func disjointRecordsInterleaveByDate() throws {
        let laptop = try record([("2026-03-01", .completed), ("2026-03-03", .skipped)])
        let desktop = try record([("2026-03-02", .completed), ("2026-03-04", .completed)])
        let union = DayRecord.union([laptop, desktop])
        #expect(lines(union) == ["2026-03-01 completed", "2026-03-02 completed", "2026-03-03 skipped",
                                 "2026-03-04 completed"])
        #expect(DayRecord.union([desktop, laptop]) == union)
        // The result is a valid record: dates strictly increasing.
        #expect(try DayRecord(entries: union.entries) == union)
    }

    @Test func aDateOnTwoDevicesCountsOnce() throws {
        let laptop = try record([("2026-03-01", .completed), ("2026-03-02", .completed)])
        let desktop = try record([("2026-03-02", .completed), ("2026-03-03", .skipped)])
        let union = DayRecord.union([laptop, desktop])
        // docs/sync.md: the cycle position counts distinct dates.
        #expect(union.position == 3)
        #expect(lines(union) == ["2026-03-01 completed", "2026-03-02 completed", "2026-03-03 skipped"])
    }

    @Test func completedBeatsSkippedEitherWay() throws {
        let skipped = try record([("2026-03-05", .skipped)])
        let completed = try record([("2026-03-05", .completed)])
        #expect(lines(DayRecord.union([skipped, completed])) == ["2026-03-05 completed"])
        #expect(lines(DayRecord.union([completed, skipped])) == ["2026-03-05 completed"])
        #expect(lines(DayRecord.union([skipped, skipped])) == ["2026-03-05 skipped"])
    }

    @Test func threeRecords() throws {
        let a = try record([("2026-03-01", .completed), ("2026-03-04", .skipped), ("2026-03-06", .skipped)])
        let b = try record([("2026-03-02", .skipped), ("2026-03-04", .skipped), ("2026-03-05", .completed)])
        let c = try record([("2026-03-01", .skipped), ("2026-03-04", .completed), ("2026-03-06", .skipped),
                            ("2026-03-07", .completed)])
        let union = DayRecord.union([a, b, c])
        #expect(lines(union) == ["2026-03-01 completed", "2026-03-02 skipped", "2026-03-04 completed",
                                 "2026-03-05 completed", "2026-03-06 skipped", "2026-03-07 completed"])
        #expect(union.position == 6)
        #expect(DayRecord.union([c, b, a]) == union)
        #expect(union.state(of: LogicalDate("2026-03-04")!) == .completed)
    }
}
