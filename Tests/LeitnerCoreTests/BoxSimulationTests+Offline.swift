import Glibc
import Testing
@testable import LeitnerCore
@testable import LeitnerSystem
import LeitnerTestSupport

/// The simulation with a browser that reviews offline (R35): a phone keeps the day's test, grades
/// it while it cannot reach the box, and sends the grades later — some at once, some hours or a
/// day later (across a change of day), some twice (a reply lost), some cut off by a kill in the
/// middle of the request (`CrashPoint`) and sent again — while this device grades, moves, edits
/// and deletes the same cards by request, and a hand moves, makes and removes cards with the box
/// running or stopped (closed or killed), at every step. After every step the box is compared
/// with `LeitnerModel`, which settles each kept grade by docs/sync.md's rules written from the
/// rules alone (`LeitnerModel+Kept.swift`): each receipt's level and test, `Status`, the queue,
/// every card's level on disk and the day record.
extension BoxSimulationTests {
    @Test(arguments: [UInt64(0x5EED), 0x0FF1E, 0x7EA1, 0xD0C5])
    func offlineDeviceAgreesWithTheModel(seed: UInt64) throws {
        try simulateOffline(seed: seed, days: 60)
    }

    /// A phone's side: the test it kept, its grades not yet taken, and those taken (to send again).
    struct Phone {
        static let device = "phone"
        var kept: [(id: String, level: Level)] = []
        var position: Int?
        var pending: [(grade: KeptGrade, given: LogicalDate)] = []
        var sent: [KeptGrade] = []
        var sequence = 0
    }

    func simulateOffline(seed: UInt64, days: Int) throws {
        let f = try BoxFixture("2026-01-05", seed: seed ^ 0x0FF1)
        var model = LeitnerModel(today: LogicalDate("2026-01-05")!)
        var random = Learner(seed: seed)
        var phone = Phone()
        var steps: [String] = []
        var failed = false
        var next = 0
        var counted = (sent: 0, again: 0, cut: 0, gone: 0, late: 0, moved: 0, closedMoves: 0)
        func agree(_ ok: Bool, _ what: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation) {
            if !ok, !failed {
                Issue.record("seed \(seed), \(model.today), after \(steps.suffix(5)): \(what())", sourceLocation: sourceLocation)
                failed = true
            }
        }
        func step(_ what: String) {
            model.now = f.clock.now()
            steps.append(what)
        }
        func check() throws {
            let status = try f.box.status()
            model.settle()
            agree(status.test == model.summary(), "status \(status.test), model \(model.summary())")
            if model.current != nil {
                let queue = Set(f.box.queueNow)
                agree(queue == model.queue, "queue has \(queue.subtracting(model.queue).sorted()), lacks \(model.queue.subtracting(queue).sorted())")
            }
            let levels = onDisk(f.dir)
            agree(levels == model.level, "on disk \(levels.filter { model.level[$0.key] != $0.value }), model \(model.level.filter { levels[$0.key] != $0.value })")
            let recorded = model.days.map { "\($0.date) \($0.outcome)" }
            agree(f.dir.dayLines == recorded, "days \(f.dir.dayLines.suffix(3)), model \(recorded.suffix(3))")
        }
        func add() throws {
            let id = "c\(next)"
            next += 1
            try f.box.addText("front \(id)", "back \(id)", id: id)
            model.settle()
            model.addByRequest(id)
        }
        /// Sends one kept grade, cut off at a random step of its system calls now and then (the
        /// box killed there and opened again, and the grade sent again, as the page does).
        func send(_ grade: KeptGrade, given: LogicalDate) throws {
            let cut = random.chance(0.1)
            model.settle()
            let expected = model.takeKept(grade.id, correct: grade.correct, time: grade.time, given: given, from: grade.from,
                                          position: grade.position!)
            var receipt: KeptGradeReceipt?
            if cut {
                CrashPoint.arm(after: 1 + random.below(12))
                receipt = try? f.box.takeKeptGrade(grade)
                let crashed = CrashPoint.hasCrashed
                CrashPoint.disarm()
                if crashed || receipt == nil {
                    counted.cut += 1
                    f.kill()
                    try f.reopen()
                    receipt = try f.box.takeKeptGrade(grade)
                    // Taken by the request cut off, or by this one: once, either way.
                    agree(receipt?.level == expected, "\(grade.id) sent again after a kill: \(String(describing: receipt?.level)), model \(String(describing: expected))")
                    phone.sent.append(grade)
                    return
                }
            } else {
                receipt = try f.box.takeKeptGrade(grade)
            }
            agree(receipt?.taken == true, "grade \(grade.sequence) of \(grade.id) not taken")
            agree(receipt?.level == expected, "grade \(grade.sequence) of \(grade.id) from \(grade.from): \(String(describing: receipt?.level)), model \(String(describing: expected))")
            model.settle()
            agree(receipt?.test == model.summary(), "grade \(grade.sequence) of \(grade.id): \(String(describing: receipt?.test)), model \(model.summary())")
            if expected == nil { counted.gone += 1 }
            phone.sent.append(grade)
        }

        for _ in 0..<40 { try add() }
        _ = try f.box.prepare()
        model.settle()
        model.open()
        do { for day in 0..<days {
            for minute in 0..<24 {
                if failed { break }
                // A step a quarter of an hour: ties between the devices' times are rare, and each
                // is broken by the rules (the browser's name sorts after this device's).
                if minute > 0 { f.clock.advance(minutes: 15) }
                model.now = f.clock.now()
                let ids = model.level.keys.sorted()
                switch random.below(16) {
                case 0, 1, 2:
                    step("\(day).\(minute) prepare, next, grade")
                    model.settle()
                    _ = try f.box.prepare()
                    model.open()
                    guard let card = try f.box.next().card else { break }
                    model.settle()
                    agree(model.queue.contains(card.id) && card.level == model.level[card.id], "next shows \(card.id) in \(card.level)")
                    let correct = random.chance(0.8)
                    let graded = try f.box.grade(id: card.id, correct: correct, answerMs: 900)
                    model.grade(card.id, correct: correct)
                    agree(graded.card.level == model.level[card.id], "grade \(card.id) → \(graded.card.level)")
                case 3:
                    // The phone reaches the box: it keeps the test as it is now.
                    step("\(day).\(minute) keep")
                    let kept = try f.box.keepTest(device: Phone.device)
                    phone.kept = kept.cards.map { ($0.id, $0.level) }
                    phone.position = kept.test.position
                    phone.sequence = max(phone.sequence, kept.sequence)
                case 4, 5, 6:
                    // The phone grades offline, from what it kept (R9: wrong, again at the end).
                    guard let position = phone.position, !phone.kept.isEmpty else { break }
                    let (id, level) = phone.kept.removeFirst()
                    let correct = random.chance(0.75)
                    phone.sequence += 1
                    let grade = KeptGrade(device: Phone.device, sequence: phone.sequence, id: id, correct: correct,
                                          time: f.clock.now(), answerMs: 1200, from: level, position: position)
                    step("\(day).\(minute) phone grades \(id) \(correct) from \(level) as \(phone.sequence)")
                    phone.pending.append((grade, model.today))
                    if !correct { phone.kept.append((id, .one)) }
                case 7, 8:
                    // Back online: the grades waiting are sent in the order they were given, all
                    // or the first few (the connection drops), and now and then one taken before
                    // is sent again (its reply was lost).
                    guard !phone.pending.isEmpty else { break }
                    let count = random.chance(0.5) ? phone.pending.count : 1 + random.below(phone.pending.count)
                    step("\(day).\(minute) send \(count) of \(phone.pending.count)")
                    for (grade, given) in phone.pending.prefix(count) {
                        if given != model.today { counted.late += 1 }
                        try send(grade, given: given)
                        counted.sent += 1
                        if failed { break }
                    }
                    phone.pending.removeFirst(count)
                    if random.chance(0.3), let again = phone.sent.last {
                        step("\(day).\(minute) send \(again.sequence) again")
                        let receipt = try f.box.takeKeptGrade(again)
                        agree(!receipt.taken && receipt.level == model.level[again.id], "\(again.id) sent again: \(receipt.taken) \(String(describing: receipt.level))")
                        counted.again += 1
                    }
                case 9:
                    // By hand, the box running: a card moved, made or removed.
                    guard let id = ids.isEmpty ? nil : random.pick(ids) else { break }
                    step("\(day).\(minute) by hand: " + handChange(f, &model, &random, id, &next))
                    counted.moved += 1
                case 10:
                    guard let id = ids.isEmpty ? nil : random.pick(ids) else { break }
                    let to = random.pick(Level.levels)
                    step("\(day).\(minute) move \(id) \(to)")
                    let moved = try f.box.move(id: id, level: to.name)
                    model.settle()
                    model.handMove(id, to: to, byHand: false)
                    agree(moved.level == to, "move \(id) → \(moved.level)")
                case 11:
                    guard let id = ids.isEmpty ? nil : random.pick(ids) else { break }
                    step("\(day).\(minute) edit \(id)")
                    _ = try f.box.edit(id: id, front: Asset(name: "front.txt", text: "front \(id) \(steps.count)"), back: nil)
                    model.settle()
                    model.edit(id)
                case 12:
                    guard random.chance(0.4), let id = ids.isEmpty ? nil : random.pick(ids) else { break }
                    step("\(day).\(minute) delete \(id)")
                    try f.box.delete(id: id)
                    model.settle()
                    model.delete(id)
                case 13:
                    if model.level.count < 60 {
                        step("\(day).\(minute) add c\(next)")
                        try add()
                    }
                default:
                    // Stopped — closed or killed — with a hand change meanwhile half the time.
                    let kill = random.chance(0.5)
                    step("\(day).\(minute) \(kill ? "kill" : "close")")
                    if kill { f.kill() } else { f.close() }
                    if random.chance(0.5), let id = ids.isEmpty ? nil : random.pick(ids) {
                        steps.append("stopped, by hand: " + handChange(f, &model, &random, id, &next))
                        counted.closedMoves += 1
                    }
                    try f.reopen()
                }
                model.now = f.clock.now()
                try check()
            }
            if failed { break }
            // To noon the next day.
            f.clock.advance(minutes: 24 * 60 - 23 * 15)
            model.today = model.today.next
        } } catch {
            CrashPoint.disarm()
            Issue.record("seed \(seed), after \(steps.suffix(5)): \(error)")
            return
        }
        guard !failed else { return }
        #expect(counted.sent > 150 && counted.again > 15 && counted.cut > 4 && counted.late > 10 && counted.gone > 0
                && counted.moved > 20 && counted.closedMoves > 20, "\(counted)")
    }

    /// A hand change of card `id` (`mv` to another level, `rm -r`, or a card made by hand), told
    /// to the model at the time the box takes it in: the next request's, at the model's `now`.
    /// - Returns: what was done.
    private func handChange(_ f: BoxFixture, _ model: inout LeitnerModel, _ random: inout Learner, _ id: String,
                            _ next: inout Int) -> String {
        guard let from = model.level[id] else { return "nothing" }
        switch random.below(6) {
        case 0:
            f.dir.removeTree("\(from.name)/\(id)")
            model.delete(id)
            return "rm -r \(from.name)/\(id)"
        case 1:
            let made = "h\(next)"
            next += 1
            let level = random.pick(Level.levels)
            f.dir.writeCard(made, level: level.name)
            model.add(made, at: level)
            return "made \(level.name)/\(made)"
        default:
            let to = random.pick(Level.levels.filter { $0 != from })
            f.dir.move("\(from.name)/\(id)", "\(to.name)/\(id)")
            model.handMove(id, to: to)
            return "mv \(from.name)/\(id) \(to.name)/\(id)"
        }
    }
}
