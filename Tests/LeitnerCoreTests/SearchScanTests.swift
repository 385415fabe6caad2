import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// A search read a batch of cards at a time (`Box.startSearch`, `Box.nextMatches`): the streamed
/// `Search` of docs/protocol.md. Its lines are in the order of the whole search, and a card
/// changed between two batches is read as it is when its batch is read.
@Suite struct SearchScanTests {
    static let all = Set(SearchMatch.Field.allCases)

    static func readAll(_ box: Box, _ scan: inout SearchScan, batch: Int) throws -> [SearchMatch] {
        var matches: [SearchMatch] = []
        while !scan.isFinished { matches += try box.nextMatches(of: &scan, upTo: batch) }
        return matches
    }

    @Test func batchesGiveEveryLineInLevelThenIdOrder() throws {
        let f = try BoxFixture()
        for number in 0..<40 {
            f.dir.writeCard("c\(number)", level: String(1 + number % 4), front: "word \(number)", back: "one\nword two\nthree")
        }
        let pattern = try SearchPattern("WORD", regex: false)
        var scan = try f.box.startSearch(pattern, fields: Self.all, level: nil, limit: nil)
        #expect(scan.cards == 40)
        let matches = try Self.readAll(f.box, &scan, batch: 3)
        #expect(matches.count == 80)
        let cards = matches.map { ($0.level, $0.id) }
        #expect(zip(cards, cards.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(matches.prefix(2).map(\.line) == ["word 0", "word two"])
        #expect(matches.prefix(2).map(\.field) == [.front, .back])
        #expect(try f.box.search(pattern, fields: Self.all, level: nil) == matches)
    }

    @Test func aLimitStopsAfterThatManyLines() throws {
        let f = try BoxFixture()
        for number in 0..<10 { f.dir.writeCard("c\(number)", level: "1", front: "x", back: "x\nx") }
        let pattern = try SearchPattern("x", regex: false)
        var scan = try f.box.startSearch(pattern, fields: [.front, .back], level: nil, limit: 7)
        let matches = try Self.readAll(f.box, &scan, batch: 2)
        #expect(matches.count == 7 && matches.last?.id == "c2")
        #expect(throws: BoxError.self) { try f.box.startSearch(pattern, fields: Self.all, level: nil, limit: 0) }
    }

    @Test func aCardChangedBetweenBatchesIsReadAsItIsThen() throws {
        let f = try BoxFixture()
        for number in 0..<8 { f.dir.writeCard("c\(number)", level: "1", back: "the dog") }
        let pattern = try SearchPattern("dog", regex: false)
        var scan = try f.box.startSearch(pattern, fields: Self.all, level: "1", limit: nil)
        #expect(try f.box.nextMatches(of: &scan, upTo: 2).map(\.id) == ["c0", "c1"])
        // By the box, and by hand (R13): moved out of the level searched, deleted, damaged, a side
        // that no longer holds the pattern, and one that does now (not searched: found at the start).
        _ = try f.box.move(id: "c2", level: "4")
        try f.box.delete(id: "c3")
        f.dir.removeTree("1/c4/front.txt")
        f.dir.write("1/c5/back.txt", "the cat")
        f.dir.write("1/c6/back.txt", "a dog\nand a dog again")
        f.dir.writeCard("c9", level: "1", back: "dog")
        let rest = try Self.readAll(f.box, &scan, batch: 2)
        #expect(rest.map(\.id) == ["c6", "c6", "c7"])
        #expect(rest.map(\.line) == ["a dog", "and a dog again", "the dog"])
    }

    @Test func aRegexAcrossLinesShowsTheFirstLine() throws {
        let f = try BoxFixture()
        f.dir.writeCard("a", level: "2", back: "first\nsecond")
        let matches = try f.box.search(try SearchPattern("first\\nsecond", regex: true), fields: [.back], level: nil)
        #expect(matches == [SearchMatch(id: "a", level: .two, field: .back, line: "first")])
    }
}
