import Testing
@testable import LeitnerCore
import LeitnerTestSupport

@Suite struct BoxSmokeTests {
    @Test func addPrepareGradeComplete() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let clock = ManualClock("2026-03-02")
        let box = try Box.open(dir, clock: clock)
        defer { box.close() }
        try box.addText("hola", "hello", id: "hola")
        try box.addText("adios", "goodbye", id: "adios")
        let prepared = try box.prepare()
        #expect(prepared.test.remaining == 2)
        #expect(prepared.isNewlyReady)
        let (card, _) = try box.next()
        let first = try #require(card)
        _ = try box.grade(id: first.id, correct: true, answerMs: 1200)
        let (second, _) = try box.next()
        let (_, test) = try box.grade(id: try #require(second).id, correct: true, answerMs: 900)
        #expect(test.state == .completed)
        #expect(try box.status().counts[.two] == 2)
    }
}
