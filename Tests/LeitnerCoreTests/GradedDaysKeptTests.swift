import Testing
@testable import LeitnerCore
import LeitnerSystem
import LeitnerTestSupport

/// A device's graded days kept across restarts (`GradedDays.fileName`, docs/store-format.md):
/// the week's row after a start reads only what another device's log gained since, and a log
/// that is no longer what they were read from, or another day clock, reads it all again.
@Suite struct GradedDaysKeptTests {
    /// 30,000 grades of another device over ten days of March 2026 (1.3 MB): past `GradedDays.saveEvery`.
    static func history(lastID: String? = nil) -> String {
        (0..<30_000).map { n in
            let day = 1 + n / 3_000
            let time = "2026-03-\(day < 10 ? "0" : "")\(day)T10:\(n % 60 < 10 ? "0" : "")\(n % 60):00Z"
            return SyncDevicesTests.line(time, "grade", n == 29_999 ? lastID ?? "c2999" : "c\(n % 3_000)", "1", "2", "correct")
        }.joined()
    }

    static func open(_ dir: TemporaryDirectory, dayStartsAt: Int = 4 * 60) throws -> Box {
        // A box made before those days, so that they count (days before its first are none).
        dir.write(".leitner/created", "2026-02-01\n")
        var options = BoxOptions(storePath: dir.path, device: TestBox.device, dayClock: DayClock(dayStartsAt: dayStartsAt),
                                 clock: ManualClock("2026-03-20"))
        options.settleAfter = 3_600_000
        return try Box(options: options)
    }

    /// A store whose peer's log was read once by a box, which kept its graded days.
    static func readOnce() throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        dir.write(".leitner/devices/peer/log", history())
        let first = try open(dir)
        _ = try counts(first)
        first.close()
        return dir
    }

    static func counts(_ box: Box) throws -> [Int] {
        try box.calendar(from: "2026-02-28", to: "2026-03-12").map(\.cards)
    }

    @Test func theWeekAfterARestartIsTakenFromTheFile() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.write(".leitner/devices/peer/log", Self.history())
        let first = try Self.open(dir)
        let counts = try Self.counts(first)
        #expect(counts.dropFirst().prefix(10).allSatisfy { $0 == 3_000 }, "\(counts)")
        first.close()
        let kept = try FileSystem.readFile(GradedDays.fileName(of: "peer"),
                                           in: try FileDescriptor.openDirectory(dir.path + "/.leitner/local." + TestBox.device))
        #expect(!kept.isEmpty)
        let again = try Self.open(dir)
        defer { again.close() }
        #expect(try Self.counts(again) == counts)
        #expect(again.statistics.gradedKept["peer"] == Self.history().utf8.count)
    }

    @Test func aLogThatIsNoLongerWhatWasReadIsReadAgain() throws {
        let dir = try Self.readOnce()
        defer { dir.remove() }
        // The same length, its last line naming a card graded that day already: one card fewer.
        dir.write(".leitner/devices/peer/log", Self.history(lastID: "c2998"))
        let again = try Self.open(dir)
        defer { again.close() }
        #expect(try Self.counts(again)[10] == 2_999)
    }

    @Test func anotherDayClockReadsTheLogAgain() throws {
        let dir = try Self.readOnce()
        defer { dir.remove() }
        // Days starting at 11:00: each day's grades before 11:00 UTC belong to the day before.
        let again = try Self.open(dir, dayStartsAt: 11 * 60)
        defer { again.close() }
        #expect(try Self.counts(again)[0] == 3_000)
    }

    @Test func theFileRoundTrips() throws {
        var days = GradedDays()
        let clock = DayClock()
        var end = 0
        for (index, (time, id)) in [("2026-03-01T10:00:00Z", "a"), ("2026-03-02T10:00:00Z", "b"), ("2026-03-02T11:00:00Z", "b"),
                                     ("2026-03-02T12:00:00Z", "c")].enumerated() {
            end += 10 + index
            let entry = try #require(LogLine.parse(Array(SyncDevicesTests.line(time, "grade", id, "1", "2", "correct").utf8.dropLast())[...]))
            days.read(LogLine.Fields(entry), end: end, dayClock: clock)
        }
        let text = days.encoded(check: 0xbeef, clock: "x")
        let back = try #require(GradedDays(decoding: text, clock: "x"))
        #expect(GradedDays.check(inFile: text) == 0xbeef)
        #expect(back.logOffset == days.logOffset)
        for date in ["2026-02-28", "2026-03-01", "2026-03-02"] {
            #expect(back.count(on: LogicalDate(date)!) == days.count(on: LogicalDate(date)!))
        }
        #expect(GradedDays(decoding: text, clock: "y") == nil)
        #expect(GradedDays(decoding: "garbage", clock: "x") == nil)
    }
}
