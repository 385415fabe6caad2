import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// R11, "Siblings apart": a card and its reverse (R28) are never offered one right after the
/// other while the queue holds another card, whatever the seed's order; the queue keeps that
/// order, so the card offered follows from the seed and the answers, after a restart too.
@Suite struct SiblingOrderTests {
    /// Six cards and their reverses in level 1, a test opened with `seed`.
    func withPairs(seed: UInt64, _ body: (inout Box, TemporaryDirectory, ManualClock) throws -> Void) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let clock = ManualClock("2026-05-04")
        var box = try Box.open(dir, clock: clock, seeds: SeedSequence(seed: seed))
        defer { box.close() }
        for n in 0..<6 {
            _ = try box.add(front: Asset(name: "front.txt", text: "front \(n)"), back: Asset(name: "back.txt", text: "back \(n)"),
                            id: "w\(n)", level: "1", allowDuplicateFront: true, withReverse: true)
        }
        try body(&box, dir, clock)
    }

    static func siblings(_ a: String, _ b: String) -> Bool { a + ".rev" == b || b + ".rev" == a }

    @Test(arguments: 1...20 as ClosedRange<UInt64>)
    func aCardAndItsReverseAreNeverOfferedOneAfterTheOther(seed: UInt64) throws {
        try withPairs(seed: seed) { box, _, _ in
            var previous: String?
            var answers = 0
            while let card = try box.next().card {
                if let previous, Self.siblings(previous, card.id) {
                    // Only when nothing else is left to offer but the card just answered wrong.
                    #expect(box.test!.queue.allSatisfy { $0 == card.id || $0 == previous || Self.siblings($0, previous) },
                            "seed \(seed): \(card.id) right after \(previous), queue \(box.test!.queue)")
                }
                // Every third answer wrong: the card goes to the end and comes back (R9).
                answers += 1
                _ = try box.grade(id: card.id, correct: answers % 3 != 0, answerMs: 5)
                previous = card.id
            }
            #expect(answers >= 12)
        }
    }

    @Test func theCardOfferedFollowsFromTheSeedAndTheAnswersAfterARestart() throws {
        // A seed whose shuffled queue puts a reverse right after its card, found in the queue.
        for seed in 1...200 as ClosedRange<UInt64> {
            var found = false
            try withPairs(seed: seed) { box, dir, clock in
                _ = try box.prepare()
                let queue = box.test!.queue
                guard let at = queue.indices.dropLast().first(where: { Self.siblings(queue[$0], queue[$0 + 1]) }),
                      at == 0 else { return }
                found = true
                _ = try box.grade(id: queue[0], correct: true, answerMs: 5)
                let offered = try box.next().card!.id
                #expect(offered == queue[2], "the head, \(queue[1]), is \(queue[0])'s sibling: the next card is offered")
                #expect(box.test!.queue.first == queue[1], "the queue keeps its order")
                box.close()
                box = try Box.open(dir, clock: clock)
                #expect(try box.next().card!.id == offered, "after a restart, the same card")
            }
            if found { return }
        }
        Issue.record("no seed in 1...200 put a card's reverse right after it at the head of the queue")
    }
}
