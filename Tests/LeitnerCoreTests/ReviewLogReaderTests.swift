import Glibc
import Testing
@testable import LeitnerCore
@testable import LeitnerSystem
import LeitnerTestSupport

/// `ReviewLogReader` reads the review log (R16) a piece at a time, as it was when it was made:
/// the last `limit` entries found by reading backwards, `since` applied, lines that are not log
/// lines skipped, lines across the pieces' edges whole.
@Suite struct ReviewLogReaderTests {
    typealias Fixture = ReviewLogTests.Fixture

    static func grade(_ number: Int) -> LogEntry { ReviewLogTests.grade("card-\(number)", seconds: Int64(number)) }

    /// A log of `count` grades, ids `card-0` …, one second apart; lines of about 80 bytes, so
    /// that a few thousand of them span several of the reader's pieces.
    static func log(_ f: Fixture, count: Int, damagedEvery: Int? = nil) throws -> ReviewLog {
        var bytes: [UInt8] = []
        for number in 0..<count {
            bytes += ReviewLogTests.line(grade(number))
            if let every = damagedEvery, number % every == 0 { bytes += Array("not a log line\n".utf8) }
        }
        try f.replace(with: bytes)
        return try f.open()
    }

    static func readAll(_ reader: ReviewLogReader, batch: Int = 100) throws -> [String] {
        var ids: [String] = []
        while true {
            let next = try reader.next(upTo: batch)
            #expect(next.count <= batch)
            if next.isEmpty { return ids }
            ids += next.compactMap(\.id)
        }
    }

    static func ids(_ range: Range<Int>) -> [String] { range.map { "card-\($0)" } }

    @Test func readsEveryEntryInOrderAcrossPieces() throws {
        let f = try Fixture()
        defer { f.close() }
        let log = try Self.log(f, count: 5000)
        #expect(log.size > 4 * ReviewLogReader.chunkSize)
        #expect(try Self.readAll(try log.reader()) == Self.ids(0..<5000))
        #expect(try Self.readAll(try log.reader(), batch: 7) == Self.ids(0..<5000))
    }

    @Test func theLastEntriesAreFoundFromTheEnd() throws {
        let f = try Fixture()
        defer { f.close() }
        let log = try Self.log(f, count: 5000)
        for limit in [0, 1, 2, 799, 800, 801, 4999, 5000, 6000] {
            #expect(try Self.readAll(try log.reader(limit: limit)) == Self.ids(max(0, 5000 - limit)..<5000), "limit \(limit)")
        }
    }

    @Test func sinceAndLimitTogetherKeepTheLastOfThoseSince() throws {
        let f = try Fixture()
        defer { f.close() }
        let log = try Self.log(f, count: 3000)
        let since = ReviewLogTests.time + 1000 * 2500
        #expect(try Self.readAll(try log.reader(since: since)) == Self.ids(2500..<3000))
        #expect(try Self.readAll(try log.reader(since: since, limit: 10)) == Self.ids(2990..<3000))
        #expect(try Self.readAll(try log.reader(since: since, limit: 900)) == Self.ids(2500..<3000))
    }

    @Test func linesThatAreNotLogLinesAreSkippedAndNotCounted() throws {
        let f = try Fixture()
        defer { f.close() }
        let log = try Self.log(f, count: 3000, damagedEvery: 3)
        #expect(try Self.readAll(try log.reader()) == Self.ids(0..<3000))
        #expect(try Self.readAll(try log.reader(limit: 1001)) == Self.ids(1999..<3000))
    }

    @Test func whatIsAppendedAfterTheReaderWasMadeIsNotRead() throws {
        let f = try Fixture()
        defer { f.close() }
        let log = try Self.log(f, count: 10)
        let reader = try log.reader()
        let limited = try log.reader(limit: 3)
        try log.appendDurably([Self.grade(10)])
        #expect(try Self.readAll(reader) == Self.ids(0..<10))
        #expect(try Self.readAll(limited) == Self.ids(7..<10))
        #expect(try Self.readAll(try log.reader(limit: 3)) == Self.ids(8..<11))
    }

    @Test func aLastLineWithoutItsNewlineIsNotRead() throws {
        let f = try Fixture()
        defer { f.close() }
        var bytes: [UInt8] = []
        for number in 0..<3 { bytes += ReviewLogTests.line(Self.grade(number)) }
        bytes += ReviewLogTests.line(Self.grade(3)).dropLast()
        try f.replace(with: bytes)
        // Read through a reader made on the whole file, cut line included.
        let stateDirectory = try FileDescriptor.openDirectory(f.dir.path)
        defer { stateDirectory.close() }
        for limit in [nil, 2] as [Int?] {
            let reader = try ReviewLogReader(stateDirectory: stateDirectory, path: f.logPath, end: bytes.count,
                                             since: nil, limit: limit)
            #expect(try Self.readAll(reader) == (limit == nil ? Self.ids(0..<3) : Self.ids(1..<3)))
        }
    }

    @Test func theOffsetGivenWithEachEntryIsWhereTheNextLineStarts() throws {
        let f = try Fixture()
        defer { f.close() }
        let log = try Self.log(f, count: 2000)
        var ends: [Int] = []
        try log.forEachEntry(from: 0) { _, end in ends.append(end) }
        #expect(ends.count == 2000 && ends.last == log.size)
        let middle = ends[999]
        var rest: [String] = []
        try log.forEachEntry(from: middle) { entry, _ in rest.append(entry.id ?? "") }
        #expect(rest == Self.ids(1000..<2000))
    }

    @Test func anEmptyLogHasNoEntries() throws {
        let f = try Fixture()
        defer { f.close() }
        let log = try f.open()
        #expect(try Self.readAll(try log.reader()).isEmpty)
        #expect(try Self.readAll(try log.reader(limit: 5)).isEmpty)
    }
}
