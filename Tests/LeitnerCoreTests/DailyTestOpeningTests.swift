import Testing
@testable import LeitnerCore

/// A test opened from the store's index (entry numbers, ids as bytes) is the test opened from the
/// same ids as strings: the same queue in the same order, the same file, the same shuffle keys
/// (R11), so that the faster opening changes nothing a person or a restart sees.
@Suite struct DailyTestOpeningTests {
    static let ids = (0..<500).map { "card-\($0)" } + ["猫", "café", "ありがとう", "a", String(repeating: "z", count: 128)]

    /// The index with every id, some removed and added again, so entry numbers have gaps.
    static func index() -> CardIndex {
        var index = CardIndex()
        for id in ids { index.updateValue(.one, forKey: id) }
        for id in ids.prefix(50) { index.removeValue(forKey: id) }
        for id in ids.prefix(50) { index.updateValue(.two, forKey: id) }
        return index
    }

    @Test func theShuffleKeyOfBytesIsTheKeyOfTheString() {
        for id in Self.ids {
            var copy = id
            #expect(copy.withUTF8 { SeededGenerator.key(seed: 42, bytes: $0) } == SeededGenerator.key(seed: 42, id: id))
        }
    }

    @Test func entriesOpenTheTestTheStringsOpen() {
        let index = Self.index()
        var entries: [UInt32] = []
        index.forEachEntry { entry, _ in entries.append(entry) }
        var generator = SeededGenerator(seed: 2026)
        entries.shuffle(using: &generator)
        let strings = entries.map { index.id(ofEntry: $0) }
        let date = LogicalDate(ordinal: 20_000)
        let fromEntries = DailyTest(position: 3, levels: [.two, .one], opened: date, seed: 9, logOffset: 77,
                                    queue: entries, of: index)
        let fromStrings = DailyTest(position: 3, levels: [.two, .one], opened: date, seed: 9, logOffset: 77, queue: strings)
        #expect(fromEntries.queue == strings)
        #expect(fromStrings.queue == strings)
        #expect(TestFile.encode(fromEntries) == TestFile.encode(fromStrings))
        #expect(TestFile.decode(TestFile.encode(fromEntries))?.queue == strings)
    }

    /// R11: the order of a seed, pinned: each card sorts by FNV-1a of its id mixed with the seed
    /// through one SplitMix64 step (the expected order computed apart from the box, from that
    /// definition), so a faster sort can never change the order of a test a person has open.
    @Test func theOrderOfASeedIsPinned() {
        var index = CardIndex()
        for number in 0..<12 { index.updateValue(.one, forKey: "card-\(number)") }
        let queue = DailyTestState.shuffledQueue(of: index, damaged: [:], seed: 2026) { _, _ in true }
        #expect(queue.map { index.id(ofEntry: $0) }
                == ["card-8", "card-11", "card-3", "card-9", "card-4", "card-0", "card-7", "card-10", "card-5", "card-6", "card-2", "card-1"])
        #expect(SeededGenerator.key(seed: 42, id: "card-1") == 0xEEEA_49AF_F8CD_DDCA)
    }

    /// The queue is its cards sorted by whole key, then by id, whatever their number: the radix
    /// sort on the keys' high halves and the ordering of the cards those tie on give that order.
    @Test func theQueueIsTheCardsSortedByKeyThenID() {
        var index = CardIndex()
        var random = SeededGenerator(seed: 5)
        for number in 0..<20_000 { index.updateValue(random.next() % 4 == 0 ? .two : .one, forKey: "id-\(number)-\(random.next() % 1000)") }
        // A damaged card is left out (R21).
        let damaged = index.first { $0.value == .one }!.key
        for seed: UInt64 in [0, 1, 77, .max] {
            let queue = DailyTestState.shuffledQueue(of: index, damaged: [damaged: "damaged"], seed: seed) { _, level in level == .one }
            let expected = index.filter { $0.value == .one && $0.key != damaged }.map(\.key).sorted {
                let (a, b) = (SeededGenerator.key(seed: seed, id: $0), SeededGenerator.key(seed: seed, id: $1))
                return a != b ? a < b : $0.utf8.lexicographicallyPrecedes($1.utf8)
            }
            #expect(queue.map { index.id(ofEntry: $0) } == expected, "seed \(seed)")
        }
    }

    /// Keys whose high halves are equal, and keys equal whole, are ordered by whole key, then by
    /// the tie-break, as a comparison sort of the whole keys orders them.
    @Test func theSortOrdersKeysTiedOnTheirHighHalvesByTheWholeKey() {
        var random = SeededGenerator(seed: 3)
        for count in [0, 1, 2, 3, 100, 5000] {
            // Few distinct high halves and low halves, so that both kinds of tie are common.
            let keys = (0..<count).map { _ in (random.next() % 7) << 61 | (random.next() % 5) << 40 | random.next() % 3 }
            var items = keys.enumerated().map { ShuffleOrder.item(key: $0.element, entry: UInt32($0.offset)) }
            ShuffleOrder.sort(&items, key: { keys[Int($0)] }, tieBreak: { $0 > $1 })
            let expected = keys.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 > $1 }
            #expect(items.map { Int(ShuffleOrder.entry($0)) } == expected, "\(count) keys")
        }
    }

    /// A test opened from the store's index numbers its ids by that index as it was then: the
    /// store may remove, add back, rename and compact its own after, and the test still answers
    /// by id — its queue, its file, a passed card that comes back (R8: it never rejoins).
    @Test func theTestKeepsItsNumbersWhateverTheStoreDoesToItsIndex() {
        var store = Self.index()
        var entries: [UInt32] = []
        store.forEachEntry { entry, _ in entries.append(entry) }
        let strings = entries.map { store.id(ofEntry: $0) }
        let date = LogicalDate(ordinal: 20_000)
        var test = DailyTest(position: 0, levels: [.one, .two], opened: date, seed: 9, logOffset: 0, queue: entries, of: store)
        let file = TestFile.encode(test)
        test.grade(DailyTest.Grade(id: strings[0], from: .one, to: .two, correct: true, time: 1))
        // The store: every card removed (a compaction reclaims their room), some added back in
        // another order, and new ones.
        for id in strings { store.removeValue(forKey: id) }
        for id in strings.reversed().prefix(100) { store.updateValue(.one, forKey: id) }
        for number in 0..<3000 { store.updateValue(.three, forKey: "later-\(number)") }
        #expect(test.queue == Array(strings.dropFirst()))
        #expect(test.contains(strings[1]) && !test.contains(strings[0]))
        #expect(!test.belongs(strings[0], at: .one), "a passed card never rejoins")
        // A card that joins, and a rename, are numbered after the index the test opened with.
        test.levelChanged("joined", to: .one)
        test.rename(strings[2], to: "renamed")
        var expected = Array(strings.dropFirst())
        expected[1] = "renamed"
        expected.append("joined")
        #expect(test.queue == expected)
        #expect(TestFile.decode(TestFile.encode(test))?.queue == expected)
        #expect(TestFile.decode(file)?.queue == strings)
    }

    /// A test read from its file at start-up numbers its ids by the store's index, looking each
    /// up from the file's bytes; ids the store no longer holds are numbered after it. It is the
    /// test the file's strings give, and a file cut short is none.
    @Test func aFileReadByTheStoresIndexIsTheFileReadAsStrings() {
        let index = Self.index()
        let date = LogicalDate(ordinal: 20_000)
        let queue = ["gone", "card-7", "猫", "card-3", "also gone", "café"]
        let file = TestFile.encode(DailyTest(position: 2, levels: [.one], opened: date, seed: 4, logOffset: 9, queue: queue))
        var byIndex = TestFile.decode(file, numberingBy: index)
        let byStrings = TestFile.decode(file)
        #expect(byIndex?.queue == queue && byStrings?.queue == queue)
        #expect(byIndex.map { TestFile.encode($0) } == file)
        byIndex?.grade(DailyTest.Grade(id: "gone", from: .one, to: .two, correct: true, time: 1))
        byIndex?.levelChanged("card-3", to: nil)
        #expect(byIndex?.queue == ["card-7", "猫", "also gone", "café"])
        #expect(TestFile.decode(Array(file.dropLast()), numberingBy: index) == nil)
        #expect(TestFile.decode(Array(file.dropLast(8))) == nil)
    }

    @Test func theFileKeepsTheOrderAfterUndosAndJoins() {
        let date = LogicalDate(ordinal: 20_000)
        var test = DailyTest(position: 0, levels: [.one], opened: date, seed: 1, logOffset: 0, queue: ["a", "b", "c", "d"])
        test.grade(DailyTest.Grade(id: "a", from: .one, to: .two, correct: true, time: 1))
        test.grade(DailyTest.Grade(id: "b", from: .one, to: .one, correct: false, time: 2))
        test.levelChanged("e", to: .one)
        _ = test.undo()
        #expect(TestFile.decode(TestFile.encode(test))?.queue == test.queue)
        #expect(test.queue.first == "b")
    }
}
