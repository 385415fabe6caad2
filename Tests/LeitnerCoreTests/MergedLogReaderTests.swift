import Glibc
import Testing
@testable import LeitnerCore
@testable import LeitnerSystem
import LeitnerTestSupport

/// `MergedLogReader` reads the devices' review logs of a box kept on several machines
/// (docs/sync.md) as one: in time order, ties by device then by each log's order, each entry
/// with its device, a log shared before the devices were separated told once, `since` and
/// `limit` as `Log` takes them, streamed without a limit.
@Suite struct MergedLogReaderTests {
    /// A directory per device, each with its `log`, as `.leitner/devices/<DEVICE>/` holds it.
    final class Devices {
        let dir = TemporaryDirectory()
        private var opened: [FileDescriptor] = []
        /// By device: the length of its log's history from before devices (`migrated`).
        private var shared: [String: Int] = [:]

        deinit {
            for fd in opened { fd.close() }
            dir.remove()
        }

        /// Writes `entries` as `device`'s log (lines that are not log lines with `extra`); the
        /// first `shared` of them are its history from before devices, as its migration records.
        func write(_ device: String, _ entries: [LogEntry], extra: [String] = [], shared: Int = 0) throws {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(entries.count * 80)
            for (index, entry) in entries.enumerated() {
                bytes += Array(LogLine.format(entry).utf8)
                if index + 1 == shared { self.shared[device] = bytes.count }
            }
            for line in extra { bytes += Array((line + "\n").utf8) }
            mkdir(dir.path + "/" + device, 0o755)
            let fd = try FileDescriptor.open(dir.path + "/" + device + "/log", flags: O_WRONLY | O_CREAT | O_TRUNC)
            defer { fd.close() }
            try fd.writeAll(bytes)
        }

        /// A merged reader of the devices' logs, each reader made as `Log` makes it.
        func reader(_ devices: [String], since: Int64? = nil, limit: Int? = nil) throws -> MergedLogReader {
            var readers: [(device: String, reader: ReviewLogReader)] = []
            for device in devices {
                let path = dir.path + "/" + device
                let directory = try FileDescriptor.openDirectory(path)
                opened.append(directory)
                let size = try FileSystem.readFile(atPath: path + "/log").count
                readers.append((device, try ReviewLogReader(stateDirectory: directory, path: path + "/log", end: size,
                                                            since: since, limit: limit)))
            }
            return MergedLogReader(readers: readers, limit: limit, sharedHistory: shared)
        }
    }

    static let time = ReviewLogTests.time

    /// A grade at `seconds` after `time`.
    static func grade(_ id: String, _ seconds: Int64, correct: Bool = true) -> LogEntry {
        LogEntry(time: time + seconds * 1000, event: .grade, id: id, from: .one, to: correct ? .two : .one,
                 correct: correct, answerMs: 1200)
    }

    static func readAll(_ reader: MergedLogReader, batch: Int = 100) throws -> [LogEntry] {
        var entries: [LogEntry] = []
        while true {
            let next = try reader.next(upTo: batch)
            #expect(next.count <= batch)
            if next.isEmpty { return entries }
            entries += next
        }
    }

    /// `id@device` of each entry.
    static func seen(_ entries: [LogEntry]) -> [String] { entries.map { "\($0.id ?? $0.event.rawValue)@\($0.device ?? "-")" } }

    @Test func twoDevicesInterleaveByTime() throws {
        let d = Devices()
        try d.write("laptop", [Self.grade("a", 0), Self.grade("c", 2), Self.grade("e", 4)])
        try d.write("desktop", [Self.grade("b", 1), Self.grade("d", 3), Self.grade("f", 5), Self.grade("g", 6)])
        for batch in [1, 2, 100] {
            let entries = try Self.readAll(try d.reader(["laptop", "desktop"]), batch: batch)
            #expect(Self.seen(entries) == ["a@laptop", "b@desktop", "c@laptop", "d@desktop", "e@laptop", "f@desktop",
                                           "g@desktop"])
        }
        // Apart from the device, an entry is read as its log holds it.
        let first = try #require(try d.reader(["laptop", "desktop"]).next(upTo: 1).first)
        var plain = first
        plain.device = nil
        #expect(plain == Self.grade("a", 0) && first.device == "laptop")
    }

    @Test func threeDevicesInterleaveByTime() throws {
        let d = Devices()
        try d.write("a", [Self.grade("1", 1), Self.grade("4", 4), Self.grade("7", 7)])
        try d.write("b", [Self.grade("2", 2), Self.grade("5", 5)])
        try d.write("c", [Self.grade("0", 0), Self.grade("3", 3), Self.grade("6", 6), Self.grade("8", 8)])
        let entries = try Self.readAll(try d.reader(["c", "a", "b"]), batch: 3)
        #expect(entries.compactMap(\.id) == (0...8).map(String.init))
        #expect(entries.map { $0.device ?? "" } == ["c", "a", "b", "c", "a", "b", "c", "a", "c"])
    }

    @Test func equalTimesGoByDeviceThenByEachLogsOrder() throws {
        let d = Devices()
        try d.write("zeta", [Self.grade("z1", 5), Self.grade("z2", 5)])
        try d.write("alpha", [Self.grade("a1", 5), Self.grade("a2", 5), Self.grade("a3", 6)])
        try d.write("mid", [Self.grade("m1", 4), Self.grade("m2", 5)])
        let entries = try Self.readAll(try d.reader(["zeta", "mid", "alpha"]))
        #expect(Self.seen(entries) == ["m1@mid", "a1@alpha", "a2@alpha", "m2@mid", "z1@zeta", "z2@zeta", "a3@alpha"])
    }

    @Test func aLogWhoseClockWentBackKeepsItsOwnOrder() throws {
        let d = Devices()
        try d.write("a", [Self.grade("a1", 10), Self.grade("a2", 2), Self.grade("a3", 11)])
        try d.write("b", [Self.grade("b1", 5)])
        let entries = try Self.readAll(try d.reader(["a", "b"]))
        #expect(Self.seen(entries) == ["b1@b", "a1@a", "a2@a", "a3@a"])
    }

    /// docs/sync.md: the log the machines shared before the devices were separated lives in each
    /// device's file; it is told once, then each device's own entries follow.
    @Test func aSharedLogIsToldOnce() throws {
        let shared = [
            LogEntry(time: Self.time, event: .add, id: "hola", to: .one),
            Self.grade("hola", 60),
            // A last grade and the completion it wrote, in one second.
            Self.grade("adios", 61, correct: false),
            LogEntry(time: Self.time + 61_000, event: .complete, date: LogicalDate("2026-11-21")),
        ]
        let d = Devices()
        try d.write("laptop", shared + [Self.grade("laptop-1", 100), Self.grade("laptop-2", 102)], shared: shared.count)
        try d.write("desktop", shared + [Self.grade("desktop-1", 101)], shared: shared.count)
        try d.write("phone", shared, shared: shared.count)
        let entries = try Self.readAll(try d.reader(["phone", "laptop", "desktop"]), batch: 2)
        // The shared entries come from the first device by id.
        #expect(Self.seen(entries) == ["hola@desktop", "hola@desktop", "adios@desktop", "complete@desktop",
                                       "laptop-1@laptop", "desktop-1@desktop", "laptop-2@laptop"])
        // Two of them: the shared log told once, the desktop's own entry once.
        let two = try Self.readAll(try d.reader(["laptop", "phone"]))
        #expect(Self.seen(two) == ["hola@laptop", "hola@laptop", "adios@laptop", "complete@laptop", "laptop-1@laptop",
                                   "laptop-2@laptop"])
    }

    @Test func onlyCopiesFromAnotherDeviceAreDropped() throws {
        let d = Devices()
        // Twice in one log: both kept. Differing in one field (the answer time): both kept.
        let again = Self.grade("x", 3)
        var slower = Self.grade("y", 4)
        slower.answerMs = 5000
        try d.write("a", [again, again, Self.grade("y", 4)], shared: 3)
        try d.write("b", [again, slower], shared: 2)
        let entries = try Self.readAll(try d.reader(["a", "b"]))
        #expect(Self.seen(entries) == ["x@a", "x@a", "y@a", "y@b"])
        #expect(entries.last?.answerMs == 5000)
    }

    /// Two devices' own lines alike in one second are two answers (two devices grading a card the
    /// same way at once): both are told. Only the history from before devices is matched.
    @Test func ownLinesAlikeAreAllTold() throws {
        let d = Devices()
        let alike = Self.grade("x", 3)
        try d.write("a", [Self.grade("s", 1), alike], shared: 1)
        try d.write("b", [Self.grade("s", 1), alike], shared: 1)
        #expect(Self.seen(try Self.readAll(try d.reader(["a", "b"]))) == ["s@a", "x@a", "x@b"])
    }

    @Test func sinceKeepsTheEntriesFromThatTimeOn() throws {
        let d = Devices()
        try d.write("a", (0..<10).map { Self.grade("a\($0)", Int64(2 * $0)) })
        try d.write("b", (0..<10).map { Self.grade("b\($0)", Int64(2 * $0 + 1)) })
        let entries = try Self.readAll(try d.reader(["a", "b"], since: Self.time + 15_000))
        #expect(entries.compactMap(\.id) == ["b7", "a8", "b8", "a9", "b9"])
    }

    @Test func aLimitKeepsTheMergedLastEntries() throws {
        let d = Devices()
        let shared = (0..<30).map { Self.grade("s\($0)", Int64($0 / 2)) } // two a second
        try d.write("a", shared + (0..<40).map { Self.grade("a\($0)", 100 + Int64($0)) }, shared: shared.count)
        try d.write("b", shared + (0..<25).map { Self.grade("b\($0)", 100 + Int64(2 * $0)) }, extra: ["not a log line"],
                    shared: shared.count)
        try d.write("c", (0..<5).map { Self.grade("c\($0)", 50 + Int64($0)) })
        let all = Self.seen(try Self.readAll(try d.reader(["a", "b", "c"])))
        #expect(all.count == 30 + 40 + 25 + 5)
        for limit in [0, 1, 2, 10, 39, 40, 65, 66, 70, 71, 80, 99, 100, 101, 500] {
            for batch in [3, 1000] {
                let last = Self.seen(try Self.readAll(try d.reader(["a", "b", "c"], limit: limit), batch: batch))
                #expect(last == Array(all.suffix(limit)), "limit \(limit)")
            }
        }
        let since = Self.time + 140_000
        let fromSince = Self.seen(try Self.readAll(try d.reader(["a", "b", "c"], since: since)))
        #expect(Self.seen(try Self.readAll(try d.reader(["a", "b", "c"], since: since, limit: 4))) == Array(fromSince.suffix(4)))
    }

    /// issue #25 (found by leitner-fuzz): `Log(limit: 2^63 - 1)` stopped the daemon with SIGILL,
    /// the merge computing `2 * limit`. A limit of 2^62 or more gives every entry, as any limit
    /// larger than the logs does.
    @Test func aLimitNearIntMaxGivesEveryEntryWithoutOverflow() throws {
        let d = Devices()
        try d.write("a", (0..<3).map { Self.grade("a\($0)", Int64($0)) })
        try d.write("b", (0..<2).map { Self.grade("b\($0)", Int64($0)) })
        let all = Self.seen(try Self.readAll(try d.reader(["a", "b"])))
        for limit in [Int.max, Int.max - 1, 1 << 62, (1 << 62) - 1] {
            #expect(Self.seen(try Self.readAll(try d.reader(["a", "b"], limit: limit))) == all, "limit \(limit)")
        }
    }

    @Test func emptyLogsAddNothing() throws {
        let d = Devices()
        try d.write("a", [])
        try d.write("b", [Self.grade("b", 1)])
        try d.write("c", [], extra: ["# nothing yet"])
        #expect(Self.seen(try Self.readAll(try d.reader(["a", "b", "c"]))) == ["b@b"])
        #expect(Self.seen(try Self.readAll(try d.reader(["a", "c"]))).isEmpty)
        #expect(Self.seen(try Self.readAll(try d.reader(["a", "c"], limit: 3))).isEmpty)
        #expect(try MergedLogReader(readers: [], limit: nil).next(upTo: 10).isEmpty)
        #expect(try d.reader(["b"]).next(upTo: 0).isEmpty)
    }

    /// A long log streams: 200,000 lines over three devices read in order, in about the time
    /// the three readers take alone (a merge that rescanned what it holds would take minutes).
    @Test func longLogsStreamInOrder() throws {
        let d = Devices()
        let perDevice = 66_667
        for (index, device) in ["a", "b", "c"].enumerated() {
            try d.write(device, (0..<perDevice).map { Self.grade("card-\($0 % 1000)", Int64(3 * $0 + index)) })
        }
        let reader = try d.reader(["c", "b", "a"])
        var count = 0
        var lastTime = Int64.min
        var ordered = true
        while true {
            let next = try reader.next(upTo: 4096)
            if next.isEmpty { break }
            for entry in next {
                ordered = ordered && entry.time > lastTime
                lastTime = entry.time
            }
            count += next.count
        }
        #expect(count == 3 * perDevice && ordered)
        let last = try Self.readAll(try d.reader(["a", "b", "c"], limit: 20))
        #expect(last.map(\.time) == (3 * Int64(perDevice) - 20..<3 * Int64(perDevice)).map { Self.time + $0 * 1000 })
        #expect(last.map { $0.device ?? "" }.prefix(3) == ["b", "c", "a"])
    }
}
