import Testing
@testable import LeitnerCore
import LeitnerTestSupport

/// The simulation's steps for the order of events (#34): a restart or a kill at any step of a
/// day, an answer as the first call of a date (one that fails and one that opens the day), and
/// hand moves into `new/` and `suspended/` taken in by the very request that acts on the card.
/// They draw from a learner of their own, as the tags' steps do.
extension BoxSimulationTests {
    /// A restart at any step of a day, the box closed or killed (kill -9: no checkpoint, the
    /// journal replayed): the box says what it said before, its queue keeps its order (R11),
    /// and its day stays opened or not (R23). The model knows no restart: from here on, the
    /// box must go on agreeing with it. `whileStopped` runs while no box is open (told whether
    /// it was killed); when it moved a card by hand, it returns its id: the status is then the
    /// model's to check, and the queue keeps its order but for that card (R8).
    func restart(_ f: BoxFixture, _ random: inout Learner, when: String, agree: (Bool, String) -> Void,
                 whileStopped: (_ killed: Bool) throws -> String? = { _ in nil }) throws {
        // The queue of a test that follows the levels (R8): one left behind by R6's skipped days
        // is no test of the box's any more, and what its file's replay makes of it is no rule's.
        func queue() -> [String]? { f.box.tracksMembership ? f.box.queueNow : nil }
        let status = try f.box.status()
        let before = queue()
        let kill = random.chance(0.5)
        if kill { f.kill() } else { f.close() }
        let moved = try whileStopped(kill)
        try f.reopen()
        let how = kill ? "kill -9" : "restart"
        guard let moved else {
            agree(queue() == before, "\(when) \(how): the queue \(String(describing: queue()?.prefix(5))), before \(String(describing: before?.prefix(5)))")
            let after = try f.box.status()
            agree(after == status, "\(when) \(how): status \(after), before \(status)")
            return
        }
        let others = queue()?.filter { $0 != moved }
        agree(others == before?.filter { $0 != moved },
              "\(when) \(how) with \(moved) moved by hand: the queue \(String(describing: others?.prefix(5))), before \(String(describing: before?.prefix(5)))")
    }

    /// An answer as the first call of a date that opens anything (R16, R23): to a card no box
    /// holds, to one the test would not hold once opened, or to one it would — a card of the
    /// test still open, or one of `new/` that the opening admits. The model, opened on a copy,
    /// says which: one that fails leaves the levels and the log as they were (but for what every
    /// request records first: R6's skipped days, and hand changes it took in, R13); one that
    /// succeeds opened the day.
    /// - Returns: the card graded and its level before, nil when the answer failed.
    func answerFirst(_ f: BoxFixture, _ model: inout LeitnerModel, _ random: inout Learner, when: String,
                     agree: (Bool, String) -> Void) throws -> (id: String, from: Level)? {
        model.settle()
        var opened = model
        opened.open()
        let queued = opened.completedToday ? [] : opened.queue.sorted()
        let id = !queued.isEmpty && random.chance(0.4) ? random.pick(queued) : random.pick(["ghost"] + model.level.keys.sorted())
        let correct = random.chance(0.85)
        let lines = f.dir.logLines.count
        if queued.contains(id), let from = opened.level[id] {
            let graded = try f.box.grade(id: id, correct: correct, answerMs: 1000)
            model = opened
            model.grade(id, correct: correct)
            agree(graded.card.level == model.level[id], "\(when) first call grade \(id) → \(graded.card.level)")
            agree(graded.test == model.summary(), "\(when) first call grade \(id): \(graded.test), model \(model.summary())")
            return (id, from)
        }
        let expected: BoxError = opened.completedToday ? .testComplete
            : model.level[id] == nil ? .noSuchCard(id: id) : .notInTest(id: id)
        do {
            _ = try f.box.grade(id: id, correct: correct, answerMs: 1000)
            agree(false, "\(when) first call grade \(id) succeeded; the model says \(expected)")
        } catch {
            agree(error == expected, "\(when) first call grade \(id): \(error), model \(expected)")
        }
        let added = f.dir.logLines.dropFirst(lines).filter { $0[1] != "skip" && !$0.contains("origin=hand") }
        agree(added.isEmpty, "\(when) the failed grade of \(id) logged \(added)")
        let levels = onDisk(f.dir)
        agree(levels == model.level, "\(when) the failed grade of \(id) moved \(levels.filter { model.level[$0.key] != $0.value })")
        return nil
    }

    /// A test carried over from a day before, with an answer and a few cards left, completed by
    /// moving those to `finished` before the day opened (R10): the day's first `Prepare` opens
    /// the day all the same, and its admissions keep `new/`'s order (R23).
    /// - Returns: whether it did.
    func completeBeforeOpening(_ f: BoxFixture, _ model: inout LeitnerModel, when: String,
                               agree: (Bool, String) -> Void) throws -> Bool {
        model.settle()
        guard !model.dayOpened, let test = model.current, !test.grades.isEmpty,
              !test.queue.isEmpty, test.queue.count <= 10 else { return false }
        for id in test.queue.sorted() {
            let moved = try f.box.move(id: id, level: Level.finished.name)
            model.settle()
            model.handMove(id, to: .finished, byHand: false)
            agree(moved.level == .finished, "\(when) move \(id) to finished before the day opened")
        }
        model.settle()
        agree(model.completedToday, "\(when) the carried-over test is not completed in the model")
        return true
    }

    /// A card no grade of the test names moved into `new/` by hand, and no request between: the
    /// next one takes it in (R13) — the day's opening, which may admit it in its turn (R23).
    func handIntoNew(_ f: BoxFixture, _ model: inout LeitnerModel, _ random: inout Learner) {
        let graded = Set(model.test?.grades.map(\.id) ?? [])
        let free = model.level.keys.filter { !graded.contains($0) && model.level[$0] != .new }.sorted()
        guard !free.isEmpty else { return }
        let id = random.pick(free)
        f.dir.move("\(model.level[id]!.name)/\(id)", "new/\(id)")
        model.handMove(id, to: .new)
    }

    /// A request on a card moved into a place by hand just before, which it takes in first
    /// (R13): `unsuspend` of a card put in `suspended/` (back to the level the hand took it
    /// from, R24), or `suspend` or `move` of one put in `new/`.
    func actOnHandMoved(_ f: BoxFixture, _ model: inout LeitnerModel, _ id: String, _ random: inout Learner,
                        when: String, agree: (Bool, String) -> Void) throws {
        model.settle()
        let card: Card
        if model.level[id] == .suspended {
            card = try f.box.unsuspend(ids: [id])[0]
            model.unsuspend(id)
        } else if random.chance(0.5) {
            card = try f.box.suspend(ids: [id])[0]
            model.suspend(id)
        } else {
            let to = random.pick(Level.levels)
            card = try f.box.move(id: id, level: to.name)
            model.handMove(id, to: to, byHand: false)
        }
        agree(card.level == model.level[id], "\(when) \(id) taken in by the request that moved it to \(card.level), model \(model.level[id]!)")
        expectPathsExist([card], when, agree: agree)
    }
}
