import Testing
@testable import LeitnerCore

/// docs/sync.md, "Settling a card after a sync": the decision for a card a sync left in two
/// levels, or deleted on one device and moved on another, from every device's log alone.
@Suite struct SettlePlannerTests {
    /// A device's log being written: each line at the next offset (one line is 80 bytes here).
    struct Log {
        var device: String
        var events: [DeviceEvent] = []
        init(_ device: String) { self.device = device }

        mutating func append(_ time: Int64, _ event: LogEntry.Event, _ id: String = "x", from: Level? = nil, to: Level? = nil,
                             hand: Bool = false, copy: Bool = false, renamedTo: String? = nil) {
            let entry = LogEntry(time: time, event: event, id: id, from: from, to: to,
                                 origin: copy ? "copy" : hand ? "hand" : nil, renamedTo: renamedTo)
            events.append(DeviceEvent(device: device, offset: events.count * 80, entry: entry))
        }
    }

    static let t1: Int64 = 1_000, t2: Int64 = 2_000, t3: Int64 = 3_000, t4: Int64 = 4_000

    /// Card `x` added on A at level 1 and graded up to 3 on A and B, the logs in step: the history
    /// both devices share before the sync this suite is about.
    static func history() -> (a: Log, b: Log) {
        var a = Log("A"), b = Log("B")
        a.append(100, .add, to: .one)
        a.append(200, .grade, from: .one, to: .two)
        b.append(300, .grade, from: .two, to: .three)
        return (a, b)
    }

    static func decide(_ copies: Set<Level>, _ logs: Log..., id: String = "x") -> SettleDecision {
        SettlePlanner.decide(id: id, copies: copies, events: logs.flatMap(\.events))
    }

    static func isWait(_ decision: SettleDecision) -> Bool {
        if case .wait = decision { return true }
        return false
    }

    // MARK: A card in two levels

    @Test func ofTwoGradesTheNewerIsKept() {
        var (a, b) = Self.history()
        a.append(Self.t1, .grade, from: .three, to: .four)
        b.append(Self.t2, .grade, from: .three, to: .one)
        #expect(Self.decide([.one, .four], a, b) == .keep(.one))

        (a, b) = Self.history()
        a.append(Self.t2, .grade, from: .three, to: .four)
        b.append(Self.t1, .grade, from: .three, to: .one)
        #expect(Self.decide([.one, .four], a, b) == .keep(.four))
    }

    /// At the same millisecond the device's name decides, compared byte by byte: the greater wins.
    @Test func equalTimesAreBrokenByTheDeviceName() {
        var a = Log("A"), b = Log("B")
        a.append(Self.t1, .grade, from: .three, to: .four)
        b.append(Self.t1, .grade, from: .three, to: .one)
        #expect(Self.decide([.one, .four], a, b) == .keep(.one))

        var laptop = Log("laptop"), desktop = Log("desktop")
        laptop.append(Self.t1, .grade, from: .three, to: .four)
        desktop.append(Self.t1, .grade, from: .three, to: .one)
        #expect(Self.decide([.one, .four], laptop, desktop) == .keep(.four))

        // Bytes, not a locale's order: "Zeta" (0x5A) sorts before "alpha" (0x61).
        var upper = Log("Zeta"), lower = Log("alpha")
        upper.append(Self.t1, .grade, from: .three, to: .four)
        lower.append(Self.t1, .grade, from: .three, to: .one)
        #expect(Self.decide([.one, .four], upper, lower) == .keep(.one))
    }

    /// After the sync each daemon sees the other's copy arrive beside its own and logs a
    /// `move origin=copy` to it: those lines repeat the other device's grade, and change nothing, whichever of them the
    /// logs hold.
    @Test func handLinesEchoingTheOtherDeviceDoNotChangeTheAnswer() {
        for (timeA, timeB, kept) in [(Self.t1, Self.t2, Level.one), (Self.t2, Self.t1, Level.four)] {
            var (a, b) = Self.history()
            a.append(timeA, .grade, from: .three, to: .four)
            b.append(timeB, .grade, from: .three, to: .one)
            let before = Self.decide([.one, .four], a, b)
            #expect(before == .keep(kept))
            var echoedOnA = a
            echoedOnA.append(Self.t3, .move, from: .four, to: .one, copy: true)
            var echoedOnB = b
            echoedOnB.append(Self.t4, .move, from: .one, to: .four, copy: true)
            #expect(Self.decide([.one, .four], echoedOnA, b) == before)
            #expect(Self.decide([.one, .four], a, echoedOnB) == before)
            // Device A's view and device B's view: the same lines, read in another order.
            #expect(Self.decide([.one, .four], echoedOnA, echoedOnB) == before)
            #expect(Self.decide([.one, .four], echoedOnB, echoedOnA) == before)
        }
    }

    /// The copy arrived, the line that put it there not yet: the daemon's own copy line is all
    /// that explains it. Keeping by that line would remove the copy the other device keeps.
    @Test func aCopyAheadOfItsLogWaits() {
        var (a, b) = Self.history()
        let shared = a
        a.append(Self.t2, .grade, from: .three, to: .four)
        a.append(Self.t3, .move, from: .four, to: .one, copy: true)
        b.append(Self.t1, .grade, from: .three, to: .one)
        b.append(Self.t4, .move, from: .one, to: .four, copy: true)
        #expect(Self.decide([.one, .four], a, b) == .keep(.four))
        // B without A's grade (A's log as it was before): B's hand line is not an arrival.
        #expect(Self.isWait(Self.decide([.one, .four], shared, b)))
        // A without B's last lines.
        #expect(Self.isWait(Self.decide([.one, .four], a, Self.history().b)))
    }

    /// A level the card had on another device long ago neither explains a copy nor makes a hand
    /// line an arrival: only each device's last word counts.
    @Test func anOldLevelExplainsNothing() {
        var a = Log("A"), b = Log("B")
        a.append(100, .add, to: .four)
        a.append(200, .move, from: .four, to: .three)
        b.append(Self.t1, .grade, from: .three, to: .one)
        b.append(Self.t4, .move, from: .one, to: .four, copy: true)
        // A's grade 3 → 4 at t2 has not reached B; A, with it, keeps 4. B must not keep 1.
        #expect(Self.isWait(Self.decide([.one, .four], a, b)))
        var withGrade = a
        withGrade.append(Self.t2, .grade, from: .three, to: .four)
        #expect(Self.decide([.one, .four], withGrade, b) == .keep(.four))

        // A copy in a level only an overtaken line named (x was at 2 before A graded it).
        var (c, _) = Self.history()
        c.append(Self.t1, .grade, from: .two, to: .four)
        #expect(Self.isWait(Self.decide([.two, .four], c)))
    }

    @Test func aCopyNoLogExplainsWaits() {
        var (a, b) = Self.history()
        a.append(Self.t1, .grade, from: .three, to: .four)
        let decision = Self.decide([.four, .six], a, b)
        #expect(Self.isWait(decision))
        if case .wait(let reason) = decision { #expect(reason.contains("level 6")) }
        // One copy where no log put it, though a device deleted the card: not removed.
        var deleted = Self.history().a
        deleted.append(Self.t2, .delete, from: .three)
        #expect(Self.isWait(Self.decide([.six], deleted)))
    }

    /// A third device's newer change whose copy is not here yet, or that deleted the card: wait.
    @Test func aWinnerWithoutItsCopyWaits() {
        var (a, b) = Self.history()
        a.append(Self.t1, .grade, from: .three, to: .four)
        b.append(Self.t2, .grade, from: .three, to: .one)
        var c = Log("C")
        c.append(Self.t3, .grade, from: .three, to: .five)
        #expect(Self.isWait(Self.decide([.one, .four], a, b, c)))
        c = Log("C")
        c.append(Self.t3, .delete, from: .three)
        #expect(Self.isWait(Self.decide([.one, .four], a, b, c)))
    }

    @Test func undoPlacesTheCardWhereItReturns() {
        var (a, b) = Self.history()
        a.append(Self.t1, .grade, from: .three, to: .four)
        a.append(Self.t3, .undo, from: .four, to: .three)
        b.append(Self.t2, .grade, from: .three, to: .one)
        #expect(Self.decide([.one, .three], a, b) == .keep(.three))
        #expect(Self.isWait(Self.decide([.one, .four], a, b)))
    }

    @Test func anEditPlacesTheCardInItsLevel() {
        var (a, b) = Self.history()
        a.append(Self.t1, .grade, from: .three, to: .four)
        b.append(Self.t2, .edit, from: .three, to: .three)
        #expect(Self.decide([.three, .four], a, b) == .keep(.three))
        var c = Log("C")
        c.append(Self.t3, .edit, from: .four)
        #expect(Self.decide([.three, .four], a, b, c) == .keep(.four))
    }

    // MARK: Deleted on one device, moved on the other

    @Test func aDeleteAfterTheLastMoveRemovesTheCard() {
        var (a, b) = Self.history()
        a.append(Self.t2, .delete, from: .three)
        b.append(Self.t1, .move, from: .three, to: .five)
        #expect(Self.decide([.five], a, b) == .remove)
        // A's daemon sees B's copy arrive and logs it as added by hand: an arrival.
        a.append(Self.t3, .add, to: .five, hand: true)
        #expect(Self.decide([.five], a, b) == .remove)
        #expect(Self.decide([.five], b, a) == .remove)
        // Before B's move has reached A, that hand line is A's newest word: nothing yet.
        #expect(Self.decide([.five], a, Self.history().b) == .nothing)
    }

    @Test func aMoveAfterTheDeleteKeepsTheCard() {
        var (a, b) = Self.history()
        a.append(Self.t1, .delete, from: .three)
        b.append(Self.t2, .move, from: .three, to: .five)
        #expect(Self.decide([.five], a, b) == .nothing)
        a.append(Self.t3, .add, to: .five, hand: true)
        #expect(Self.decide([.five], a, b) == .nothing)
    }

    /// One copy, put where it is by an older event (the sync tool delivered an older move after a
    /// newer grade elsewhere left the card in place): it goes where the newest own event put it.
    /// A hand line never moves it: that may be a person's move this device has not seen yet.
    @Test func aLoneCopyGoesWhereTheNewestOwnEventPutIt() {
        var (a, b) = Self.history()
        a.append(Self.t1, .grade, from: .three, to: .four)
        b.append(Self.t2, .grade, from: .three, to: .one)
        #expect(Self.decide([.four], a, b) == .move(.one))
        #expect(Self.decide([.one], a, b) == .nothing)
        var byHand = Self.history().b
        byHand.append(Self.t2, .move, from: .three, to: .one, hand: true)
        #expect(Self.decide([.four], a, byHand) == .nothing)
    }

    /// A sync tool took the card out of its level before putting it into another (the daemon
    /// logged a delete, then an add, both by hand): the overtaken delete removes nothing.
    @Test func aDeleteOvertakenOnItsOwnDeviceRemovesNothing() {
        var (a, b) = Self.history()
        b.append(Self.t1, .move, from: .three, to: .five)
        a.append(Self.t2, .delete, from: .three, hand: true)
        a.append(Self.t3, .add, to: .five, hand: true)
        #expect(Self.decide([.five], a, b) == .nothing)
    }

    // MARK: A person's hand

    /// B's person moved the card by hand, and A's daemon saw the sync deliver it in the same
    /// second: the two hand lines cannot both be echoes, or an older line would win and move the
    /// card back on A alone.
    @Test func twoHandLinesAlikeInOneSecondDoNotCancelOut() {
        var a = Log("A"), b = Log("B")
        a.append(Self.t1, .add, to: .three, hand: true)
        b.append(Self.t1, .add, to: .three)
        a.append(Self.t2, .move, from: .three, to: .two, hand: true)
        b.append(Self.t2, .move, from: .three, to: .two, hand: true)
        #expect(Self.decide([.two], a, b) == .nothing)
        #expect(Self.decide([.two], Log("A"), b) == .nothing)
    }

    /// A graded the card into level 2 long ago; a sync has moved it on since. B's person now moves
    /// it back to 2 by hand: that is no echo of A's old grade, and it stands on both devices.
    @Test func aPersonsMoveIsNoEchoOfAnOverriddenOwnLine() {
        var a = Log("A"), b = Log("B")
        a.append(Self.t1, .grade, from: .one, to: .two)
        a.append(Self.t1 + 500, .move, from: .two, to: .five, copy: true)
        b.append(Self.t2, .edit, from: .five, to: .five)
        b.append(Self.t3, .move, from: .five, to: .two, hand: true)
        #expect(Self.decide([.two], a, b) == .nothing)
        var echoed = a
        echoed.append(Self.t4, .move, from: .five, to: .two, hand: true)
        #expect(Self.decide([.two], echoed, b) == .nothing)
    }

    /// A move by hand that no other device made ranks by its time like any other change.
    @Test func aPersonsMoveByHandRanksByItsTime() {
        var (a, b) = Self.history()
        a.append(Self.t2, .delete, from: .three)
        var later = b, earlier = b
        later.append(Self.t3, .move, from: .three, to: .two, hand: true)
        earlier.append(Self.t1, .move, from: .three, to: .two, hand: true)
        #expect(Self.decide([.two], a, later) == .nothing)
        #expect(Self.decide([.two], a, earlier) == .remove)
        // A delete by hand on A after it ranks too.
        var removedByHand = Self.history().a
        removedByHand.append(Self.t4, .delete, from: .three, hand: true)
        #expect(Self.decide([.two], removedByHand, later) == .remove)
    }

    /// A person's `mv` of the card's only copy on B (a move leaves one copy, so it is logged
    /// `origin=hand`, not `copy`) ranks by its time against A's grade once both copies meet.
    @Test func aPersonsMoveMeetingAnotherDevicesGradeRanksByItsTime() {
        var (a, b) = Self.history()
        a.append(Self.t1, .grade, from: .three, to: .four)
        b.append(Self.t2, .grade, from: .three, to: .one)
        b.append(Self.t3, .move, from: .one, to: .two, hand: true)
        #expect(Self.decide([.two, .four], a, b) == .keep(.two))
        // A later grade on A outranks the hand line (the copy at 4 it overtook is no longer explained).
        a.append(Self.t4, .grade, from: .four, to: .five)
        #expect(Self.isWait(Self.decide([.two, .four], a, b)))
        #expect(Self.decide([.two, .five], a, b) == .keep(.five))
    }

    // MARK: Renames

    @Test func aRenameRemovesTheOldIDAndPlacesTheNewOne() {
        var (a, b) = Self.history()
        a.append(Self.t2, .rename, from: .three, to: .three, renamedTo: "y")
        b.append(Self.t1, .grade, from: .three, to: .four)
        // B's copy of x at 4 (graded before the rename) goes; y, at 3, stays.
        #expect(Self.decide([.four], a, b, id: "x") == .remove)
        #expect(Self.decide([.three], a, b, id: "y") == .nothing)
        // Graded on B after the rename: x is kept beside y.
        var laterB = Self.history().b
        laterB.append(Self.t3, .grade, from: .three, to: .four)
        #expect(Self.decide([.four], a, laterB, id: "x") == .nothing)
        // y then graded on B and in two levels: the grade after the rename wins.
        var gradedY = Self.history().b
        gradedY.append(Self.t3, .grade, "y", from: .three, to: .four)
        #expect(Self.decide([.three, .four], a, gradedY, id: "y") == .keep(.four))
        // y renamed on to z on A, while B still has y at 3 (its daemon logged y's arrival): y goes.
        var renamedOn = a
        renamedOn.append(Self.t4, .rename, "y", from: .three, to: .three, renamedTo: "z")
        var arrived = Self.history().b
        arrived.append(Self.t3, .add, "y", to: .three, hand: true)
        #expect(Self.decide([.three], renamedOn, arrived, id: "y") == .remove)
        #expect(Self.decide([.three], renamedOn, arrived, id: "z") == .nothing)
        // Without B's line, A's last word on y is that it is gone: nothing explains a y at 3.
        #expect(Self.isWait(Self.decide([.three], renamedOn, id: "y")))
    }

    // MARK: Edges

    @Test func otherCardsAndDaysArePassedOver() {
        var (a, b) = Self.history()
        a.append(Self.t1, .grade, from: .three, to: .four)
        b.append(Self.t2, .grade, from: .three, to: .one)
        let expected = Self.decide([.one, .four], a, b)
        var noisy = Log("C")
        noisy.append(Self.t3, .grade, "other", from: .one, to: .two)
        noisy.append(Self.t3, .delete, "other", from: .two)
        noisy.events.append(DeviceEvent(device: "C", offset: 999, entry: LogEntry(time: Self.t4, event: .skip)))
        noisy.events.append(DeviceEvent(device: "C", offset: 1999, entry: LogEntry(time: Self.t4, event: .complete)))
        #expect(Self.decide([.one, .four], a, b, noisy) == expected)
    }

    @Test func withoutEventsOneCopyStaysAndTwoWait() {
        #expect(SettlePlanner.decide(id: "x", copies: [.three], events: []) == .nothing)
        #expect(Self.isWait(SettlePlanner.decide(id: "x", copies: [.three, .four], events: [])))
        #expect(SettlePlanner.decide(id: "x", copies: [], events: Self.history().a.events) == .nothing)
    }

    /// The same clock value the device's log order overtook: the device's later line (by offset)
    /// is its word, whatever its clock said.
    @Test func aDevicesLastWordIsItsLastLine() {
        var a = Log("A")
        a.append(Self.t3, .grade, from: .three, to: .four)
        a.append(Self.t2, .grade, from: .four, to: .five)   // the clock was set back
        var b = Log("B")
        b.append(Self.t1, .grade, from: .three, to: .one)
        #expect(Self.decide([.one, .five], a, b) == .keep(.five))
        #expect(Self.isWait(Self.decide([.one, .four], a, b)))
    }

    // MARK: Determinism

    /// Random logs of three devices: the answer never depends on the order the lines come in, a
    /// kept level is always a copy, and only a lone copy is removed. Every kind of answer occurs.
    @Test func theAnswerDependsOnTheLinesNotTheirOrder() {
        var random = SeededGenerator(seed: 0x5E77_1E)
        let devices = ["A", "B", "laptop"]
        let events: [LogEntry.Event] = [.add, .grade, .move, .undo, .edit, .delete, .rename, .skip]
        var kinds: Set<String> = []
        for _ in 0..<500 {
            var logs = devices.map { Log($0) }
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let device = Int.random(in: 0..<logs.count, using: &random)
                let event = events.randomElement(using: &random)!
                // Few distinct times, so that ties between devices occur.
                let time = Int64.random(in: 1...6, using: &random) * 1_000
                let to = Level.allCases.randomElement(using: &random)!
                let hand = Int.random(in: 0..<3, using: &random) == 0
                switch event {
                case .rename where Bool.random(using: &random):
                    logs[device].append(time, .rename, "w", from: to, to: to, hand: hand, renamedTo: "x")
                case .rename:
                    logs[device].append(time, .rename, from: to, to: to, hand: hand, renamedTo: "w")
                case .delete:
                    logs[device].append(time, .delete, hand: hand)
                case .skip:
                    logs[device].events.append(DeviceEvent(device: devices[device], offset: logs[device].events.count * 80,
                                                           entry: LogEntry(time: time, event: .skip)))
                default:
                    logs[device].append(time, event, to: to, hand: hand)
                }
            }
            var all = logs.flatMap(\.events)
            // Now and then a (device, offset) given twice with another line: still one answer.
            if Int.random(in: 0..<10, using: &random) == 0, var twice = all.randomElement(using: &random) {
                twice.entry.to = Level.allCases.randomElement(using: &random)!
                twice.entry.event = [.grade, .move, .delete].randomElement(using: &random)!
                all.append(twice)
            }
            // Copies mostly where the lines put the card, so that keep and remove occur.
            var copies = Set(all.compactMap { SettlePlacement(of: $0.entry, for: "x")?.level }.shuffled(using: &random)
                .prefix(Int.random(in: 1...3, using: &random)))
            if Int.random(in: 0..<5, using: &random) == 0 { copies.insert(Level.allCases.randomElement(using: &random)!) }
            let decision = SettlePlanner.decide(id: "x", copies: copies, events: all)
            for _ in 0..<5 {
                #expect(SettlePlanner.decide(id: "x", copies: copies, events: all.shuffled(using: &random)) == decision)
            }
            switch decision {
            case .keep(let level):
                #expect(copies.contains(level) && copies.count >= 2)
                kinds.insert("keep")
            case .remove:
                #expect(copies.count == 1)
                kinds.insert("remove")
            case .move(let level):
                #expect(copies.count == 1 && !copies.contains(level))
                kinds.insert("move")
            case .nothing:
                #expect(copies.count <= 1)
                kinds.insert("nothing")
            case .wait:
                kinds.insert("wait")
            }
        }
        #expect(kinds == ["keep", "remove", "move", "nothing", "wait"])
    }
}
