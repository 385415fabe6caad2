import Testing
@testable import LeitnerCore

@Suite struct LevelTests {
    @Test func namesRoundTrip() {
        for level in Level.allCases {
            #expect(Level(name: level.name) == level)
        }
        #expect(Level(name: "0") == nil)
        #expect(Level(name: "8") == nil)
        #expect(Level(name: "Finished") == nil)
        #expect(Level(name: "") == nil)
    }

    /// R9: correct moves one up, 7 → finished; wrong goes to 1, or one down with OnFail=previous.
    @Test func r9PromotionAndDemotion() {
        #expect(Level.seven.promoted == .finished)
        #expect(Level.three.promoted == .four)
        #expect(Level.five.demoted(.first) == .one)
        #expect(Level.five.demoted(.previous) == .four)
        #expect(Level.one.demoted(.previous) == .one)
    }
}
