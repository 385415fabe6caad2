import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// A listing read a batch at a time (`Box.startListing`, `Box.nextCards`): the streamed `List`
/// of docs/protocol.md. Its order is the one `list` always had, and a card changed between two
/// batches is listed where it is when its batch is read.
@Suite struct CardListingTests {
    static func readAll(_ box: Box, _ listing: inout CardListing, batch: Int) throws -> [Card] {
        var cards: [Card] = []
        while !listing.isFinished {
            let next = try box.nextCards(of: &listing, upTo: batch)
            // Without text, cards the outline table knows cost no read: more of them a batch.
            #expect(next.count <= batch * (listing.withText ? 1 : Box.outlinesPerRead))
            cards += next
        }
        return cards
    }

    @Test func theOrderIsByLevelThenIdAsStringsCompare() throws {
        let f = try BoxFixture()
        let ids = ["b", "a", "B", "a-2", "a.1", "é", "z", "猫", "ありがとう", "café", "1", "10", "9"]
        for (index, id) in ids.enumerated() { f.dir.writeCard(id, level: ["1", "3", "finished"][index % 3]) }
        var listing = try f.box.startListing(level: nil, withText: false)
        let listed = try Self.readAll(f.box, &listing, batch: 2)
        let expected = ids.map { ($0, Level(name: ["1", "3", "finished"][ids.firstIndex(of: $0)! % 3])!) }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        #expect(listed.map(\.id) == expected.map(\.0))
        #expect(listed.map(\.level) == expected.map(\.1))
        #expect(try f.box.list(level: nil, withText: false) == listed)
    }

    /// A listing's reply may still be in flight long after its last batch: neither the listing
    /// nor its batch keeps the index it began with, whose entries the box's next change would
    /// otherwise copy for it (docs/performance.md, "A listing without text"); the batch keeps
    /// its ids' bytes, unchanged by the box's changes since.
    @Test func aFinishedListingAndItsBatchHoldNoCopyOfTheIndex() throws {
        let f = try BoxFixture()
        for number in 0..<20 { f.dir.writeCard("c\(number)", level: "2") }
        var listing = try f.box.startListing(level: "2", withText: false)
        let outlines = try f.box.nextOutlines(of: &listing, upTo: 256)
        #expect(listing.isFinished && listing.index.isEmpty)
        _ = try f.box.move(id: "c3", level: "5")
        try f.box.delete(id: "c4")
        let listed = (0..<outlines.count).map { outlines.card(at: $0) }
        #expect(listed.map(\.id) == (0..<20).map { "c\($0)" }.sorted())
        #expect(listed.allSatisfy { $0.level == .two && $0.front.path.hasSuffix("/2/" + $0.id + "/front.txt") })
    }

    @Test func aListingOfOneLevelHasThatLevelOnly() throws {
        let f = try BoxFixture()
        for number in 0..<30 { f.dir.writeCard("c\(number)", level: String(1 + number % 3)) }
        var listing = try f.box.startListing(level: "2", withText: true)
        let listed = try Self.readAll(f.box, &listing, batch: 4)
        #expect(listed.count == 10 && listed.allSatisfy { $0.level == .two && $0.front.text == "f" })
    }

    @Test func aCardChangedBetweenBatchesIsListedAsItIsThen() throws {
        let f = try BoxFixture()
        for number in 0..<10 { f.dir.writeCard("c\(number)", level: "1") }
        var listing = try f.box.startListing(level: nil, withText: false)
        #expect(try f.box.nextCards(of: &listing, upTo: 3).map(\.id) == ["c0", "c1", "c2"])
        // By the box, and by hand (R13): moved, deleted, damaged, added.
        _ = try f.box.move(id: "c5", level: "4")
        try f.box.delete(id: "c6")
        f.dir.move("1/c7", "2/c7")
        f.dir.removeTree("1/c8/back.txt")
        f.dir.writeCard("c3a", level: "1")
        let rest = try Self.readAll(f.box, &listing, batch: 3)
        #expect(rest.map(\.id) == ["c3", "c4", "c5", "c7", "c9"])
        #expect(rest.first { $0.id == "c5" }?.level == .four)
        #expect(rest.first { $0.id == "c7" }?.level == .two)
    }

    @Test func aCardThatLeftTheListedLevelIsLeftOut() throws {
        let f = try BoxFixture()
        for number in 0..<4 { f.dir.writeCard("c\(number)", level: "3") }
        var listing = try f.box.startListing(level: "3", withText: false)
        _ = try f.box.move(id: "c2", level: "5")
        #expect(try Self.readAll(f.box, &listing, batch: 1).map(\.id) == ["c0", "c1", "c3"])
    }

    /// A page of a level much larger than the page (the web's Cards page) orders only its first
    /// cards; it is the same page the whole level's order gives, forwards and backwards, and
    /// when cards among the first are left out (damaged, R21) the listing goes on past them.
    @Test func aPageOfALargeLevelIsTheFirstOfTheWholeOrder() throws {
        let f = try BoxFixture()
        // Ids whose first eight bytes are often equal, so that whole ids decide.
        let ids = (0..<240).map { number in number % 3 == 0 ? "sameprefix-\(number * 7919 % 240)" : "c\(number * 7919 % 240)" }
        for id in ids { f.dir.writeCard(id, level: "2") }
        f.dir.writeCard("elsewhere", level: "1")
        let whole = try f.box.list(level: "2", withText: false).map(\.id)
        #expect(whole == ids.sorted())
        for withText in [false, true] {
            for limit in [1, 7, 20] {
                var listing = try f.box.startListing(level: "2", withText: withText, limit: limit)
                #expect(try Self.readAll(f.box, &listing, batch: 3).map(\.id) == Array(whole.prefix(limit)))
                let middle = ListPosition(level: .two, id: whole[100])
                listing = try f.box.startListing(level: nil, withText: withText, after: middle, limit: limit)
                #expect(try Self.readAll(f.box, &listing, batch: 3).map(\.id) == Array(whole[101..<101 + limit]))
                listing = try f.box.startListing(level: nil, withText: withText, before: middle, limit: limit)
                #expect(try Self.readAll(f.box, &listing, batch: 3).map(\.id) == Array(whole[(100 - limit)..<100].reversed()))
            }
        }
        for id in whole.prefix(12) { f.dir.removeTree("2/\(id)/back.txt") }
        for withText in [false, true] {
            var listing = try f.box.startListing(level: "2", withText: withText, limit: 5)
            #expect(try Self.readAll(f.box, &listing, batch: 2).map(\.id) == Array(whole[12..<17]))
        }
    }

    /// A listing's first batch orders only its own cards of a level much larger than it, the
    /// next batch the rest: the whole listing is in the whole order, forwards and backwards,
    /// when the first cards are left out (damaged, R21), and across levels.
    @Test func aFirstBatchOfALargeLevelGivesTheFirstOfTheWholeOrder() throws {
        let f = try BoxFixture()
        // Ids whose first eight or sixteen bytes are often equal, so that whole ids decide.
        let ids = (0..<240).map { number in
            ["c\(number * 7919 % 240)", "sameprefix-\(number * 7919 % 240)", "sixteen-bytes-same-\(number * 7919 % 240)"][number % 3]
        }
        for id in ids { f.dir.writeCard(id, level: "2") }
        for number in 0..<5 { f.dir.writeCard("one-\(number)", level: "1") }
        f.dir.writeCard("three", level: "3")
        let whole = try f.box.list(level: nil, withText: false).map(\.id)
        #expect(whole == (0..<5).map { "one-\($0)" } + ids.sorted() + ["three"])
        for withText in [false, true] {
            for batch in [1, 3, 8, 40] {
                var listing = try f.box.startListing(level: nil, withText: withText)
                #expect(try Self.readAll(f.box, &listing, batch: batch).map(\.id) == whole)
                listing = try f.box.startListing(level: "2", withText: withText)
                #expect(try Self.readAll(f.box, &listing, batch: batch).map(\.id) == ids.sorted())
                let last = ListPosition(level: .three, id: "three")
                listing = try f.box.startListing(level: nil, withText: withText, before: last)
                #expect(try Self.readAll(f.box, &listing, batch: batch).map(\.id) == whole.dropLast().reversed())
            }
        }
        for id in ids.sorted().prefix(12) { f.dir.removeTree("2/\(id)/back.txt") }
        for withText in [false, true] {
            var listing = try f.box.startListing(level: "2", withText: withText)
            #expect(try Self.readAll(f.box, &listing, batch: 4).map(\.id) == Array(ids.sorted().dropFirst(12)))
        }
    }

    /// A listing by tag takes its cards from the selection the tag table keeps, in the order of
    /// their ids (`Box.selectedEntries`), and puts no level in order: forwards, backwards, a
    /// page after or before a card, across levels, the order is the whole listing's, and the
    /// selection kept is in id order.
    @Test func aListingByTagIsInTheWholeOrderFromItsOrderedSelection() throws {
        let f = try BoxFixture()
        // Ids whose first eight or sixteen bytes are often equal, so that whole ids decide.
        let ids = (0..<240).map { number in
            ["c\(number * 7919 % 240)", "sameprefix-\(number * 7919 % 240)", "sixteen-bytes-same-\(number * 7919 % 240)"][number % 3]
        }
        for (number, id) in ids.enumerated() {
            f.dir.writeCard(id, level: ["1", "2", "2", "5"][number % 4])
            if number % 2 == 0 { f.dir.write("\(["1", "2", "2", "5"][number % 4])/\(id)/tags", "t\n") }
        }
        let filter = try TagFilter(tags: ["t"])
        let whole = try f.box.list(level: nil, withText: false).map(\.id)
        let tagged = whole.filter { whole in ids.enumerated().contains { $0.element == whole && $0.offset % 2 == 0 } }
        #expect(tagged.count == 120)
        for withText in [false, true] {
            for batch in [1, 8, 40] {
                var listing = try f.box.startListing(level: nil, withText: withText, filter: filter)
                #expect(try Self.readAll(f.box, &listing, batch: batch).map(\.id) == tagged)
                listing = try f.box.startListing(level: "2", withText: withText, filter: filter)
                #expect(try Self.readAll(f.box, &listing, batch: batch).map(\.id) == tagged.filter { f.box.store.level(of: $0) == .two })
                let middle = try f.box.show(id: tagged[60])
                let position = ListPosition(level: middle.level, id: middle.id)
                listing = try f.box.startListing(level: nil, withText: withText, filter: filter, after: position, limit: 30)
                #expect(try Self.readAll(f.box, &listing, batch: batch).map(\.id) == Array(tagged[61..<91]))
                listing = try f.box.startListing(level: nil, withText: withText, filter: filter, before: position)
                #expect(try Self.readAll(f.box, &listing, batch: batch).map(\.id) == Array(tagged[..<60].reversed()))
            }
        }
        let kept = try #require(f.box.tagTable?.selection(filter, cards: f.box.store.cardSetVersion))
        #expect(kept == CardListing.sorted(kept, in: f.box.store.cardLevels))
    }

    @Test func doctorInBatchesFindsWhatTheWholeScanFinds() throws {
        let f = try BoxFixture()
        for number in 0..<20 { f.dir.writeCard("c\(number)", level: "1") }
        for number in [3, 11, 17] { f.dir.removeTree("1/c\(number)/front.txt") }
        f.dir.write("2/lone-front.txt", "x")
        var scan = try f.box.startDoctor()
        var problems: [StoreProblem] = []
        while !scan.isFinished { problems += try f.box.nextProblems(of: &scan, upTo: 4) }
        #expect(problems.filter { $0.kind == .damagedCard }.map(\.path) == ["c11", "c17", "c3"].map { f.dir.path + "/1/" + $0 })
        #expect(problems.contains { $0.kind == .loosePair })
        #expect(try f.box.doctor() == problems)
    }
}
