import Testing
@testable import LeitnerCore

/// R3: the stated properties of the default table.
@Suite struct CycleTableTests {
    let table = CycleTable.standard

    @Test func sixtyFourEntries() {
        #expect(table.count == 64)
    }

    @Test func levelOneInEveryEntry() {
        #expect(table.entries.allSatisfy { $0.contains(.one) })
    }

    @Test func levelTwoInEverySecondAndThreeInEveryFourth() {
        for (index, entry) in table.entries.enumerated() {
            #expect(entry.contains(.two) == (index % 2 == 0), "entry \(index)")
            #expect(entry.contains(.three) == (index % 4 == 1), "entry \(index)")
        }
    }

    @Test func higherLevelsAppear8421Times() {
        func count(_ level: Level) -> Int { table.entries.filter { $0.contains(level) }.count }
        #expect(count(.four) == 8)
        #expect(count(.five) == 4)
        #expect(count(.six) == 2)
        #expect(count(.seven) == 1)
    }

    @Test func atMostThreeLevelsPerEntry() {
        #expect(table.entries.allSatisfy { (1...3).contains($0.count) })
    }

    /// R2: the open test reviews T[p mod L].
    @Test func positionsWrapAround() {
        #expect(table.levels(at: 0) == [.two, .one])
        #expect(table.levels(at: 64) == table.levels(at: 0))
        #expect(table.levels(at: 63) == [.one])
        #expect(table.levels(at: 55) == [.seven, .one])
    }

    @Test func inlineFormRoundTrips() throws {
        #expect(try CycleTable(parsing: table.inlineForm) == table)
        #expect(throws: CycleTableError.repeatedLevel(index: 0, level: .one)) { try CycleTable(parsing: "1,1") }
    }
}
