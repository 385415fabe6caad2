import Testing
@testable import LeitnerCore

/// docs/rules.md, R13 ("A card in two levels"): the copy served while a sync tool moves a card.
@Suite struct CardCopyTests {
    static func copy(_ level: Level, complete: Bool, at modified: Int64) -> CardCopy {
        CardCopy(level: level, isComplete: complete, modified: modified)
    }

    @Test func theCompleteCopyIsServed() {
        // Syncthing's order: the new folder (level 1) is still being filled.
        let old = Self.copy(.three, complete: true, at: 10), new = Self.copy(.one, complete: false, at: 20)
        #expect(CardCopy.served(among: [new, old], current: .three) == .three)
        #expect(CardCopy.served(among: [new, old], current: nil) == .three)
        // Then the old one is being emptied while the new one is whole.
        let emptied = Self.copy(.three, complete: false, at: 30), filled = Self.copy(.one, complete: true, at: 20)
        #expect(CardCopy.served(among: [filled, emptied], current: .three) == .one)
    }

    @Test func ofTwoCompleteCopiesTheNewerIsServed() {
        let old = Self.copy(.two, complete: true, at: 10), new = Self.copy(.five, complete: true, at: 11)
        #expect(CardCopy.served(among: [old, new], current: .two) == .five)
        #expect(CardCopy.served(among: [new, old], current: nil) == .five)
    }

    @Test func tiesKeepTheServedCopyElseTheLowestLevel() {
        let a = Self.copy(.two, complete: true, at: 10), b = Self.copy(.five, complete: true, at: 10)
        #expect(CardCopy.served(among: [a, b], current: .five) == .five)
        #expect(CardCopy.served(among: [b, a], current: nil) == .two)
    }

    /// Neither whole: the card does not jump to a copy still being written.
    @Test func noCompleteCopyKeepsTheServedOne() {
        let a = Self.copy(.two, complete: false, at: 10), b = Self.copy(.five, complete: false, at: 50)
        #expect(CardCopy.served(among: [a, b], current: .two) == .two)
        #expect(CardCopy.served(among: [a, b], current: nil) == .five)
        #expect(CardCopy.served(among: [], current: .two) == nil)
    }
}
