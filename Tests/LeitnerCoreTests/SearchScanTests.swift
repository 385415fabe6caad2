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
        try scan.find()
        #expect(scan.cards == 40)
        let matches = try Self.readAll(f.box, &scan, batch: 3)
        #expect(matches.count == 80)
        let cards = matches.map { ($0.level, $0.id) }
        #expect(zip(cards, cards.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(matches.prefix(2).map(\.line) == ["word 0", "word two"])
        #expect(matches.prefix(2).map(\.field) == [.front, .back])
        #expect(try f.box.search(pattern, fields: Self.all, level: nil) == matches)
    }

    /// Where each card's id lies in `index`, by id.
    static func places(_ index: SearchIndex) -> [String: Int] {
        var places: [String: Int] = [:]
        index.forEach { parts in places[String(decoding: parts.id, as: UTF8.self)] = Int(bitPattern: parts.id.baseAddress) }
        return places
    }

    /// A search in flight keeps the index as it began until it has found its cards, off the
    /// turn; the box's next update (a card edited by hand, marked dead and read again) copies
    /// only the pieces it changes, where it copied every card's slot and bytes (6 MiB at 100,000
    /// cards, for each search in flight): the other pieces' cards are where they were.
    @Test func anUpdateWhileASearchHoldsTheIndexCopiesOnlyThePiecesItChanges() throws {
        let f = try BoxFixture()
        let count = 4 * SearchIndex.pieceSize
        for number in 0..<count { f.dir.writeCard("c\(number)", level: "1", front: "word \(number)") }
        let pattern = try SearchPattern("word", regex: false)
        var scan = try f.box.startSearch(pattern, fields: [.front], level: nil, limit: nil)
        let held = Self.places(try #require(f.box.searchIndex))
        f.dir.write("1/c7/front.txt", "zebra")
        #expect(try f.box.search(SearchPattern("zebra", regex: false), fields: [.front], level: nil).map(\.id) == ["c7"])
        let now = Self.places(try #require(f.box.searchIndex))
        #expect(now.count == count)
        #expect(now["c7"] != held["c7"])
        // The piece whose slot was marked dead keeps its bytes; the last piece, appended to, is copied.
        #expect(now.filter { held[$0.key] == $0.value }.count >= count - SearchIndex.pieceSize)
        try scan.find()
        #expect(scan.cards == count)
    }

    /// Cards read again leave their old bytes behind until they are half of the index's, then
    /// the live cards are packed into new pieces: each is still found, and found changed.
    @Test func cardsReadAgainArePackedAndStillFound() throws {
        let f = try BoxFixture()
        let count = SearchIndex.pieceSize + 100
        for number in 0..<count { f.dir.writeCard("c\(number)", level: "1", front: "word \(number)") }
        func found(_ text: String) throws -> Int {
            try f.box.search(SearchPattern(text, regex: false), fields: [.front], level: nil).count
        }
        #expect(try found("word") == count)
        // Longer texts: the first cards' bytes, read again, are less than half of all.
        let long = String(repeating: "x", count: 300)
        for number in 0..<count { f.dir.write("1/c\(number)/front.txt", "wolf \(number) \(long)") }
        #expect(try found("wolf") == count)
        #expect(f.box.searchIndex?.slotCount == 2 * count)
        // Read a third time: more than half.
        for number in 0..<count { f.dir.write("1/c\(number)/front.txt", "yaks \(number) \(long)") }
        #expect(try found("yaks") == count)
        #expect(try found("wolf") == 0)
        #expect(f.box.searchIndex?.slotCount == count)
        f.dir.write("1/c0/front.txt", "kudu")
        #expect(try f.box.search(SearchPattern("kudu", regex: false), fields: [.front], level: nil).map(\.id) == ["c0"])
        #expect(Self.places(try #require(f.box.searchIndex)).count == count)
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

    /// `cards` stops after the lines of that many cards, and no batch reads a card past them
    /// (`SearchScan.position`): a page of results (the web's Cards search) leaves no batch for the
    /// daemon to read under the box's turn after it, which the next call waited for. A card the
    /// index found that no longer matches when read, its sides edited by hand since (R13), gives
    /// no line and does not count.
    @Test func aCardLimitReadsNoCardPastTheAskedOnes() throws {
        let f = try BoxFixture()
        for number in 0..<10 { f.dir.writeCard("c\(number)", level: "1", front: "x", back: "x\nx") }
        let pattern = try SearchPattern("x", regex: false)
        var scan = try f.box.startSearch(pattern, fields: [.front, .back], level: nil, limit: nil, cards: 3)
        try scan.find()
        #expect(scan.cards == 10)
        f.dir.write("1/c1/front.txt", "y")
        f.dir.write("1/c1/back.txt", "y")
        let matches = try Self.readAll(f.box, &scan, batch: 256)
        #expect(matches.map(\.id) == ["c0", "c0", "c0", "c2", "c2", "c2", "c3", "c3", "c3"])
        #expect(scan.position == 4)
        // With a line limit too, whichever comes first.
        var both = try f.box.startSearch(pattern, fields: [.front, .back], level: nil, limit: 4, cards: 3)
        #expect(try Self.readAll(f.box, &both, batch: 256).map(\.id) == ["c0", "c0", "c0", "c2"])
        #expect(throws: BoxError.self) { try f.box.startSearch(pattern, fields: Self.all, level: nil, limit: nil, cards: 0) }
    }

    /// Ids one of which begins another, in ASCII and not, of several scripts, with a combining
    /// mark that composes with nothing (R20: NFC): Strings order them by their normal forms.
    static let awkwardIDs = ["b", "a", "ab", "a-b", "a.b", "a_b", "A", "Z", "z9", "10", "9", "café", "cafe", "cafés",
                             "cafè", "q\u{301}", "q", "qa", "猫", "猫a", "ä", "ab1", "éa", "e"]

    /// The index orders two cards' ids from its bytes as their Strings order (`idPrecedes`).
    @Test func theIndexOrdersIDsAsStringsDo() throws {
        let f = try BoxFixture()
        for id in Self.awkwardIDs { f.dir.writeCard(id, level: "1", front: "word") }
        #expect(try f.box.search(SearchPattern("word", regex: false), fields: [.front], level: nil).count == Self.awkwardIDs.count)
        let index = try #require(f.box.searchIndex)
        var numbers: [String: Int] = [:]
        index.forEach { parts in numbers[String(decoding: parts.id, as: UTF8.self)] = parts.number }
        #expect(numbers.count == Self.awkwardIDs.count)
        for a in Self.awkwardIDs {
            #expect(index.id(at: try #require(numbers[a])) == a)
            for b in Self.awkwardIDs {
                #expect(index.idPrecedes(try #require(numbers[a]), try #require(numbers[b])) == (a < b), "\(a) < \(b)")
            }
        }
    }

    /// A search with `cards` (a page of the web's, docs/web.md "Cards") puts in order only as
    /// many of the cards it found as it may give, not every match: a search of a word every card
    /// holds sorted 100,000 before its first line (docs/performance.md). Its lines are the same,
    /// in the same order, as the whole search's first cards, also with cards read again since
    /// (their slots after the others) and cards that no longer match when read (R13), after
    /// which the next ones are put in order.
    @Test func aCardLimitOrdersOnlyItsCardsAndGivesTheSameLines() throws {
        let f = try BoxFixture()
        for (number, id) in Self.awkwardIDs.enumerated() { f.dir.writeCard(id, level: String(1 + number % 3), front: "word") }
        let pattern = try SearchPattern("word", regex: false)
        _ = try f.box.search(pattern, fields: Self.all, level: nil)
        // Read again into new slots, at the index's end.
        let order = Self.awkwardIDs.enumerated().map { (Level(rawValue: 1 + $0.offset % 3)!, $0.element) }.sorted { $0 < $1 }
        for (level, id) in order where ["a", "猫", "10"].contains(id) { f.dir.write("\(level.name)/\(id)/front.txt", "word again") }
        let whole = try f.box.search(pattern, fields: Self.all, level: nil)
        #expect(whole.map(\.id) == order.map(\.1))
        for cards in [1, 2, 5, Self.awkwardIDs.count] {
            var scan = try f.box.startSearch(pattern, fields: Self.all, level: nil, limit: nil, cards: cards)
            try scan.find()
            #expect(scan.cards == Self.awkwardIDs.count)
            #expect(scan.ordered == cards)
            #expect(try Self.readAll(f.box, &scan, batch: 2) == Array(whole.prefix(cards)))
        }
        // The first three no longer match: the next three are put in order and given.
        var scan = try f.box.startSearch(pattern, fields: Self.all, level: nil, limit: nil, cards: 3)
        try scan.find()
        #expect(scan.ordered == 3)
        for (level, id) in order.prefix(3) { f.dir.write("\(level.name)/\(id)/front.txt", "gone") }
        #expect(try Self.readAll(f.box, &scan, batch: 256).map(\.id) == order[3..<6].map(\.1))
        // A line limit orders as many cards: each gives a line at least.
        var limited = try f.box.startSearch(pattern, fields: Self.all, level: nil, limit: 4)
        try limited.find()
        #expect(limited.ordered == 4)
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
        #expect(matches == [SearchMatch(id: "a", level: .two, field: .back, line: "first", mediaType: "text/plain")])
    }
}

/// The search index kept current across many changes (`SearchIndex.update`): each changed card's
/// slot found through the index's table, dropped and read again, the arena compacted when half of
/// it is garbage. Every search must give what reading the cards would.
@Suite struct SearchIndexUpdateTests {
    /// A small seeded generator, so that a failure can be replayed.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func manyChangesLeaveTheIndexAsAFreshReadWouldBe(seed: UInt64) throws {
        let f = try BoxFixture()
        let words = ["apple", "birch", "cedar", "daisy"]
        var random = Generator(state: seed)
        // The model: each card's level and back.
        var cards: [String: (level: String, back: String)] = [:]
        for number in 0..<40 {
            let back = words[number % words.count]
            f.dir.writeCard("c\(number)", level: "1", back: back)
            cards["c\(number)"] = ("1", back)
        }
        var next = 40
        for round in 0..<200 {
            let word = words[random.next(words.count)]
            let expected = cards.filter { $0.value.back.contains(word) }.keys.sorted()
            let found = try f.box.search(try SearchPattern(word, regex: false), fields: [.back], level: nil).map(\.id)
            #expect(found.sorted() == expected, "round \(round), '\(word)'")
            // Some changes, by the box and by hand (R13), before the next search.
            for _ in 0..<(1 + random.next(4)) {
                let ids = cards.keys.sorted()
                let id = ids[random.next(ids.count)]
                switch random.next(4) {
                case 0:
                    let level = String(1 + random.next(7))
                    _ = try f.box.move(id: id, level: level)
                    cards[id]?.level = level
                case 1:
                    let back = words[random.next(words.count)] + " " + words[random.next(words.count)]
                    f.dir.write("\(cards[id]!.level)/\(id)/back.txt", back)
                    cards[id]?.back = back
                case 2 where cards.count > 10:
                    try f.box.delete(id: id)
                    cards[id] = nil
                default:
                    let back = words[random.next(words.count)]
                    f.dir.writeCard("c\(next)", level: "1", back: back)
                    cards["c\(next)"] = ("1", back)
                    next += 1
                }
            }
        }
    }
}
