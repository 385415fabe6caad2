import Testing
@testable import LeitnerCore

/// `CardIndex`, the store's compact index of every card's level, answers as the dictionary it
/// replaced would, through growth, removals and the rebuilds that reclaim their room.
@Suite struct CardIndexTests {
    static func id(_ number: Int) -> String { "card-\(number)-with-a-longer-id" }

    @Test func answersAsADictionaryThroughRandomChanges() {
        var index = CardIndex()
        var model: [String: Level] = [:]
        var random = SeededGenerator(seed: 7)
        let ids = (0..<3000).map(Self.id) + ["a", "猫", "café", "ありがとう", String(repeating: "x", count: 128)]
        for step in 0..<40_000 {
            let id = ids[Int(random.next() % UInt64(ids.count))]
            if random.next() % 3 == 0 {
                #expect(index.removeValue(forKey: id) == model.removeValue(forKey: id))
            } else {
                let level = Level.allCases[Int(random.next() % 8)]
                #expect(index.updateValue(level, forKey: id) == model.updateValue(level, forKey: id))
            }
            if step % 5000 == 0 { #expect(index.count == model.count) }
        }
        #expect(index.count == model.count)
        for id in ids { #expect(index[id] == model[id], "\(id)") }
        #expect(Dictionary(uniqueKeysWithValues: index.map { ($0.key, $0.value) }) == model)
        #expect(Set(index.keys) == Set(model.keys))
        #expect(index["missing"] == nil)
    }

    /// The few least ids of a level, compared where they lie, are those a sort of its ids gives.
    @Test func leastEntriesOfALevelAreTheFirstOfItsSortedIds() {
        var random = SeededGenerator(seed: 11)
        for count in [0, 1, 7, 100, 5000] {
            var index = CardIndex()
            for _ in 0..<count {
                let id = ["c", "card-", "é", "猫"][Int(random.next() % 4)] + "\(random.next() % 100_000)"
                index[id] = random.next() % 3 == 0 ? .new : .two
                // A few removed, so that removed entries are passed over.
                if random.next() % 10 == 0 { index[id] = nil }
            }
            let ids = index.filter { $0.value == .new }.map(\.key).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for limit in [0, 1, 3, 20, 64, 65, count] {
                #expect(index.leastEntries(limit, at: .new).map { index.id(ofEntry: $0) } == Array(ids.prefix(limit)),
                        "\(limit) of \(count)")
            }
        }
    }

    /// The entries at some levels are each card there once, with its bytes, in entry order; a
    /// removed card at none, and every level's with no levels named (a test's queue).
    @Test func entriesAtSomeLevelsAreTheCardsThere() {
        var random = SeededGenerator(seed: 12)
        var index = CardIndex()
        for _ in 0..<3000 {
            let id = "c\(random.next() % 2000)"
            index[id] = random.next() % 9 == 0 ? nil : Level.allCases[Int(random.next() % UInt64(Level.allCases.count))]
        }
        for levels in [[Level.one], [.new], [.two, .four, .finished], [.suspended, .one, .seven], [], Level.allCases] {
            var seen: [String] = []
            index.forEachEntryWithBytes(at: levels) { entry, level, bytes in
                #expect(levels.contains(level) && index.level(ofEntry: entry) == level)
                seen.append(String(decoding: bytes, as: UTF8.self))
            }
            let expected = index.filter { levels.contains($0.value) }.map(\.key)
            #expect(seen == expected, "\(levels)")
        }
        var all = 0
        index.forEachEntryWithBytes { _, _, _ in all += 1 }
        #expect(all == index.count)
    }

    @Test func growsFromEmptyAndFromASizedStart() {
        for start in [0, 10, 100_000] {
            var index = CardIndex(minimumCapacity: start)
            for number in 0..<20_000 { index[Self.id(number)] = .three }
            #expect(index.count == 20_000)
            #expect((0..<20_000).allSatisfy { index[Self.id($0)] == .three })
            #expect(index[Self.id(20_000)] == nil)
        }
    }

    @Test func removingMostCardsAndAddingThemBackKeepsEveryAnswer() {
        var index = CardIndex()
        for number in 0..<5000 { index[Self.id(number)] = .one }
        for number in 0..<4900 { index[Self.id(number)] = nil }
        #expect(index.count == 100)
        for number in 0..<5000 where number % 2 == 0 { index[Self.id(number)] = .finished }
        #expect(index.count == 100 + 2450)
        for number in 0..<5000 {
            let expected: Level? = number >= 4900 ? (number % 2 == 0 ? .finished : .one) : (number % 2 == 0 ? .finished : nil)
            #expect(index[Self.id(number)] == expected)
        }
    }

    @Test func aCopyKeepsItsAnswersWhileTheOriginalChanges() {
        var index = CardIndex()
        for number in 0..<100 { index[Self.id(number)] = .two }
        let copy = index
        for number in 0..<100 { index[Self.id(number)] = number % 2 == 0 ? nil : .four }
        index["new"] = .one
        #expect((0..<100).allSatisfy { copy[Self.id($0)] == .two })
        #expect(copy["new"] == nil && copy.count == 100)
    }

    /// An open test's copy of the index finds each of its ids' levels in the store's index as
    /// it is now (`level(ofEntry:of:)`): through moves, removals, re-adds, and the rebuild that
    /// numbers every entry anew.
    @Test func aCopysEntriesAreFoundInTheIndexAsItIsNow() {
        var index = CardIndex()
        for number in 0..<3000 { index[Self.id(number)] = .two }
        let copy = index
        func check(_ note: String) {
            for number in 0..<3000 {
                #expect(index.level(ofEntry: copy.entryNumber(of: Self.id(number))!, of: copy) == index[Self.id(number)],
                        "\(note): \(number)")
            }
        }
        check("unchanged")
        for number in 0..<3000 where number % 3 == 0 { index[Self.id(number)] = .five }
        for number in 0..<3000 where number % 7 == 0 { index[Self.id(number)] = nil }
        for number in 0..<3000 where number % 14 == 0 { index[Self.id(number)] = .one }
        check("changed")
        // Enough removed for a rebuild: every entry numbered anew, most at other places.
        for number in 0..<2500 { index[Self.id(number)] = nil }
        for number in 0..<1000 { index[Self.id(number)] = .seven }
        check("rebuilt")
    }

    @Test func entriesSortByTheBytesOfTheirIds() {
        var index = CardIndex()
        let ids = ["b", "a", "B", "a-2", "a.1", "é", "z", "猫", "ありがとう", "café", "1", "10", "9",
                   "abcdefgh", "abcdefgh-2", "abcdefg", "abcdefghi",
                   // The same first sixteen bytes, or sixteen and a longer id.
                   "abcdefghijklmnop", "abcdefghijklmnop-2", "abcdefghijklmnopq", "abcdefghijklmno",
                   "abcdefghijklmnoz", "abcdefghijklmnoé", "abcdefghijklmnop.1"]
        for id in ids { index[id] = .one }
        var entries: [UInt32] = []
        index.forEachEntry { number, _ in entries.append(number) }
        #expect(CardListing.sorted(entries, in: index).map { index.id(ofEntry: $0) } == ids.sorted())
    }
}
