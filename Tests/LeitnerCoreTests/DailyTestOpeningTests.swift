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
