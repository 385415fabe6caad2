import Testing
@testable import LeitnerCore
@testable import LeitnerSystem
import LeitnerTestSupport

/// R17, R18: an operation cut off after any single step of its system calls leaves, once the
/// store is reopened, the state before it or the state after it — never a mix. `CrashPoint`
/// makes the N-th mutating call and every later one fail, as a kill at that instant would.
@Suite(.serialized) struct CrashRecoveryTests {
    /// What a reopened store shows: the tree of cards and the test's counters.
    struct Observed: Equatable, CustomStringConvertible {
        var tree: [String]
        var test: TestSummary
        var days: String

        var description: String { "\(tree)\n\(test)\ndays: \(days)" }
    }

    enum Operation: String, CaseIterable {
        case gradeCorrect, gradeWrong, gradeCompleting, undo, move, add, delete, adopt, edit, editAsMarkdown, rename, addMany
        // R28: a card and its reverse cards change together, or not at all.
        case addWithReverse, addReverse, renameWithReverses, deleteWithReverses, addManyWithReverses
        // R30: a note and its cards change together, or not at all.
        case addCloze, renameNote, deleteNote, addClozes

        var hasReverses: Bool { self == .renameWithReverses || self == .deleteWithReverses }
        var hasNote: Bool { self == .addCloze || self == .renameNote || self == .deleteNote || self == .addClozes }
    }

    /// Two cards in level 1, today's test open; for `gradeCompleting` one is passed already,
    /// for `undo` one grade made.
    func setUp(_ dir: TemporaryDirectory, clock: ManualClock, for operation: Operation) throws {
        let box = try Box.open(dir, clock: clock)
        defer { box.close() }
        try box.addText("uno", "one", id: "uno")
        try box.addText("dos", "two", id: "dos")
        _ = try box.prepare()
        if operation == .gradeCompleting || operation == .undo { _ = try box.grade(id: "dos", correct: true, answerMs: 5) }
        if operation == .adopt {
            dir.write("1/tres-front.txt", "tres")
        }
        if operation.hasReverses {
            _ = try box.addReverse(of: "uno", reverseID: nil, level: nil)
            _ = try box.addReverse(of: "uno", reverseID: "uno-2", level: "3")
        }
        if operation.hasNote {
            _ = try box.addCloze(text: "{{c1::eins}} und {{c2::zwei}}", id: "zahl", level: "2")
            _ = try box.move(id: "zahl.c2", level: "4")
        }
    }

    func perform(_ operation: Operation, on box: Box, dir: TemporaryDirectory) throws {
        switch operation {
        case .gradeCorrect, .gradeCompleting: _ = try box.grade(id: "uno", correct: true, answerMs: 10)
        case .gradeWrong: _ = try box.grade(id: "uno", correct: false, answerMs: 10)
        case .undo: _ = try box.undo()
        case .move: _ = try box.move(id: "uno", level: "5")
        case .add: try box.addText("cuatro", "four", id: "cuatro", level: "3")
        case .delete: try box.delete(id: "uno")
        case .addMany:
            // Each card whole or absent: a batch's record makes it all or nothing (R18).
            _ = try box.addMany([NewCard(front: Asset(name: "front.txt", text: "cuatro"), back: Asset(name: "back.md", text: "four"), level: "3"),
                                 NewCard(front: Asset(name: "front.txt", text: "cinco"), back: Asset(name: "back.txt", text: "five"))],
                                allowDuplicateFront: false)
        case .adopt:
            dir.write("1/tres-back.txt", "three")
            _ = try box.status()
        case .edit: _ = try box.edit(id: "uno", front: Asset(name: "front.txt", text: "UNO"), back: nil)
        case .editAsMarkdown: _ = try box.edit(id: "uno", front: Asset(name: "front.md", text: "*uno*"), back: nil)
        case .rename, .renameWithReverses: _ = try box.rename(id: "uno", to: "eins")
        case .addWithReverse:
            _ = try box.add(front: Asset(name: "front.txt", text: "cuatro"), back: Asset(name: "back.txt", text: "four"),
                            id: "cuatro", level: "3", allowDuplicateFront: true, withReverse: true)
        case .addReverse: _ = try box.addReverse(of: "dos", reverseID: nil, level: nil)
        case .deleteWithReverses: _ = try box.delete(id: "uno", keepReverses: false)
        case .addCloze:
            _ = try box.addCloze(text: "Die {{c1::Katze}} schläft {{c2::auf dem Sofa}} {{c3::heute}}", id: "katze", level: "3",
                                 extra: "cat", tags: ["de"])
        case .addClozes:
            // Each note with all its cards, each in its place, or absent: one batch's record.
            _ = try box.addClozes([NewNote(text: "Die {{c1::Katze}} schläft {{c2::auf dem Sofa}}", id: "katze", level: "3",
                                           extra: "cat", tags: ["de"], cardLevels: [2: "5"]),
                                   NewNote(text: "{{c1::drei}} und {{c2::vier}}", id: "zahlen")])
        case .renameNote: _ = try box.rename(id: "zahl", to: "nummer")
        case .deleteNote: _ = try box.delete(id: "zahl", keepReverses: false)
        case .addManyWithReverses:
            _ = try box.addMany([NewCard(front: Asset(name: "front.txt", text: "cuatro"), back: Asset(name: "back.txt", text: "four")),
                                 NewCard(front: Asset(name: "front.txt", text: "cinco"), back: Asset(name: "back.txt", text: "five"), level: "2")],
                                allowDuplicateFront: true, withReverse: true)
        }
    }

    func observe(_ dir: TemporaryDirectory, clock: ManualClock) throws -> Observed {
        let box = try Box.open(dir, clock: clock)
        defer { box.close() }
        let status = try box.status()
        let days = (try? FileSystem.readFile(atPath: dir.path + "/.leitner/devices/here/days")).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return Observed(tree: dir.snapshot(), test: status.test, days: days)
    }

    func reference(_ operation: Operation, performed: Bool) throws -> Observed {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let clock = ManualClock("2026-05-04")
        try setUp(dir, clock: clock, for: operation)
        if performed {
            let box = try Box.open(dir, clock: clock)
            try perform(operation, on: box, dir: dir)
            box.close()
        }
        return try observe(dir, clock: clock)
    }

    @Test(arguments: Operation.allCases)
    func crashAfterEveryStepLeavesBeforeOrAfter(_ operation: Operation) throws {
        let before = try reference(operation, performed: false)
        let after = try reference(operation, performed: true)
        #expect(before != after, "the operation must change something")
        var sawBefore = false, sawAfter = false
        var step = 1
        while step < 400 {
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            let clock = ManualClock("2026-05-04")
            try setUp(dir, clock: clock, for: operation)
            let box = try Box.open(dir, clock: clock)
            CrashPoint.arm(after: step)
            do { try perform(operation, on: box, dir: dir) } catch {}
            let crashed = CrashPoint.hasCrashed
            box.close() // after a crash this writes nothing: only descriptors close, as at exit
            CrashPoint.disarm()
            let observed = try observe(dir, clock: clock)
            #expect(observed == before || observed == after,
                    "\(operation) cut after step \(step) left a mix:\n\(observed)\nbefore:\n\(before)\nafter:\n\(after)")
            if observed == before { sawBefore = true }
            if observed == after { sawAfter = true }
            if !crashed { break }
            step += 1
        }
        // A loose pair cut off half-adopted is put back and adopted again at open (R14), so
        // only the state after shows.
        #expect((sawBefore || operation == .adopt) && sawAfter, "\(operation): both outcomes should occur across the steps")
        #expect(step < 400)
    }
}
