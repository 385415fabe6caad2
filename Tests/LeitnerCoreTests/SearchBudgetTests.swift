import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// A search's work budget (`SearchScan`, docs/performance.md "A search's work budget"): the
/// regular-expression engine's steps are counted, a search that spends its budget is cut with
/// `searchCut`, and what runs on the budget (finding, matching lines) needs no box.
@Suite struct SearchBudgetTests {
    static let all = Set(SearchMatch.Field.allCases)

    @Test func aRunStopsWithinAPlaceOfItsLimit() throws {
        let regex = try LinearRegex("(.{0,100}){8}z")
        let text = [UInt8](repeating: UInt8(ascii: "a"), count: 10_000)
        let (match, steps) = text.withUnsafeBufferPointer { regex.program.run($0, from: 0, goal: .anyMatch, limit: 5_000) }
        #expect(match == nil)
        #expect(steps > 5_000 && steps <= 5_000 + regex.program.instructions.count, "\(steps) steps")
        var budget = 5_000
        #expect(text.withUnsafeBufferPointer { regex.matches($0, budget: &budget) } == nil)
        #expect(budget < 0)
        // Within budget: the answer, and the steps taken from it.
        var plenty = Int.max / 2
        let before = plenty
        #expect(Array("abz".utf8).withUnsafeBufferPointer { regex.matches($0, budget: &plenty) } == true)
        #expect(plenty < before)
    }

    @Test func aCostlyPatternIsCutWhileFindingAndNothingIsGiven() throws {
        let f = try BoxFixture()
        let long = String(repeating: "word ", count: 2_000)
        for number in 0..<20 { f.dir.writeCard("c\(number)", level: "1", front: "f", back: long) }
        // No literal every match must hold (a class ends a run): every side goes to the engine.
        let costly = try SearchPattern("(.{0,100}){8}[xyz]", regex: true)
        var scan = try f.box.startSearch(costly, fields: Self.all, level: nil, limit: nil, budget: 1_000_000)
        #expect(scan.needsBox == false)
        #expect {
            try scan.find()
        } throws: { error in
            guard case .searchCut(let pattern, let reason)? = error as? BoxError else { return false }
            return pattern == costly.text && reason.contains("1000000 steps") && reason.contains("narrower")
        }
        #expect(scan.isFinished)
        // A narrower pattern over the same sides is not cut.
        #expect(try f.box.search(try SearchPattern("(wor){1,2}d [xyz]", regex: true), fields: Self.all, level: nil).isEmpty)
    }

    @Test func aCostlyPatternIsCutWhileMatchingLinesAfterLinesAlreadyGiven() throws {
        let f = try BoxFixture()
        // Found cheaply in the index (each side matches early), but each card's many lines cost
        // the engine a run each: the budget runs out in the second batch.
        let lines = (0..<200).map { "z line \($0) " + String(repeating: "x", count: 50) }.joined(separator: "\n")
        for number in 0..<6 { f.dir.writeCard("c\(number)", level: "1", front: "f", back: lines) }
        let pattern = try SearchPattern("(.{0,20}){4}[z]", regex: true)
        var generous = try f.box.startSearch(pattern, fields: [.back], level: nil, limit: nil)
        let everything = try SearchScanTests.readAll(f.box, &generous, batch: 2)
        #expect(everything.count == 1_200)
        // Half the steps the whole search took: enough for finding and the first card's lines.
        let steps = SearchScan.defaultBudget - generous.budget
        var scan = try f.box.startSearch(pattern, fields: [.back], level: nil, limit: nil, budget: steps / 2)
        #expect(try f.box.nextMatches(of: &scan, upTo: 1).count == 200)
        #expect(throws: BoxError.self) { while !scan.isFinished { _ = try f.box.nextMatches(of: &scan, upTo: 2) } }
    }

    @Test func findingUsesTheIndexAsTheSearchBeganWithoutTheBox() throws {
        let f = try BoxFixture()
        for number in 0..<4 { f.dir.writeCard("c\(number)", level: "2", back: "the dog") }
        let pattern = try SearchPattern("d.g", regex: true)
        var scan = try f.box.startSearch(pattern, fields: [.back], level: nil, limit: nil)
        // The box goes on between the search's beginning and its finding (as the daemon serves
        // other calls meanwhile): a new card is not found, a deleted one is not given.
        f.dir.writeCard("late", level: "2", back: "a dig")
        try f.box.delete(id: "c1")
        _ = try f.box.search(pattern, fields: [.back], level: nil)
        try scan.find()
        #expect(scan.cards == 4)
        #expect(scan.needsBox)
        try f.box.readCards(of: &scan, upTo: 10)
        #expect(!scan.needsBox)
        #expect(try scan.matchRead().map(\.id) == ["c0", "c2", "c3"])
        #expect(scan.isFinished)
    }
}
