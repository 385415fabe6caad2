import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// Edit and Rename keep a card's level, its place in the open test and its history, also
/// across a restart, when the test is rebuilt from the review log (R11, R16).
@Suite struct BoxEditTests {
    @Test func editKeepsTheQueueAndIsLogged() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let clock = ManualClock("2026-05-04")
        let box = try Box.open(dir, clock: clock)
        defer { box.close() }
        for id in ["a", "b", "c"] { try box.addText(id, id.uppercased(), id: id) }
        _ = try box.prepare()
        let head = try #require(try box.next().card)
        let (edited, changed) = try box.edit(id: head.id, front: nil, back: Asset(name: "back.md", text: "**new**"))
        #expect(changed && edited.level == head.level && edited.back.mediaType == "text/markdown")
        #expect(try box.next().card?.id == head.id)
        #expect(try box.edit(id: head.id, front: nil, back: Asset(name: "back.md", text: "**new**")).changed == false)
        #expect(try box.log(since: nil, limit: nil).filter { $0.event == .edit }.map(\.id) == [head.id])
        #expect(throws: BoxError.noSuchCard(id: "zz")) { try box.edit(id: "zz", front: Asset(name: "front.txt", text: "x"), back: nil) }
    }

    @Test func renameKeepsThePlaceAndTheMarksAcrossARestart() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let clock = ManualClock("2026-05-04")
        var queue: [String] = []
        do {
            let box = try Box.open(dir, clock: clock, seeds: SeedSequence(seed: 7))
            defer { box.close() }
            for id in ["a", "b", "c"] { try box.addText(id, id.uppercased(), id: id) }
            _ = try box.prepare()
            let first = try #require(try box.next().card).id
            _ = try box.grade(id: first, correct: false, answerMs: 1)
            _ = try box.rename(id: first, to: "renamed")
            queue = box.test!.queue
            #expect(queue.last == "renamed" && !queue.contains(first))
            #expect(box.test!.failedCount == 1)
            #expect(throws: BoxError.cardExists(id: queue[0])) { try box.rename(id: "renamed", to: queue[0]) }
        }
        let reopened = try Box.open(dir, clock: clock)
        defer { reopened.close() }
        #expect(reopened.test!.queue == queue)
        #expect(reopened.test!.failedCount == 1)
        #expect(try reopened.show(id: "renamed").level == .one)
        // The undo of the grade made before the rename takes back the renamed card's grade.
        #expect(try reopened.undo().card.id == "renamed")
    }
}
