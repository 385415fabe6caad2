import Glibc
import Testing
@testable import LeitnerCore
@testable import LeitnerSystem
import LeitnerTestSupport

/// Grades a browser kept offline and sent later (R35, `Box.takeKeptGrade`): the browser is the
/// device `phone`, whose log is `.leitner/devices/phone/log`; it kept a test (`Box.keepTest`)
/// before it graded, as a page does.
@Suite struct BoxKeptGradeTests {
    static let phone = "phone"
    static let phoneLog = ".leitner/devices/phone/log"

    static func kept(_ sequence: Int, _ id: String, _ correct: Bool, at time: Int64, from: Level,
                     position: Int?) -> KeptGrade {
        KeptGrade(device: phone, sequence: sequence, id: id, correct: correct, time: time, answerMs: 900,
                  from: from, position: position)
    }

    static func lines(_ dir: TemporaryDirectory, _ relative: String) -> [[String]] {
        guard dir.exists(relative) else { return [] }
        return dir.read(relative).split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    /// Every card in exactly one level (R18), by its directories on disk.
    static func places(_ dir: TemporaryDirectory, _ ids: [String]) -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: ids.map { ($0, dir.levelOnDisk($0)) })
    }

    /// Ten cards in level 1 graded offline — right, wrong and wrong again, then right — leave
    /// the store as the same answers given online do, the test completed on the date they were
    /// given, and the phone's log holds each grade with its time.
    @Test func keptGradesLeaveTheStoreAsOnlineGradesDo() throws {
        let ids = (0..<10).map { "c\($0)" }
        var answers: [(String, Bool)] = []
        for (index, id) in ids.enumerated() {
            if index % 3 == 1 { answers.append((id, false)) }
            if index == 4 { answers.append((id, false)) }
            answers.append((id, true))
        }
        let online = try BoxFixture(seed: 7)
        let offline = try BoxFixture(seed: 7)
        for f in [online, offline] {
            for id in ids { try f.box.addText("front \(id)", "back \(id)", id: id, level: "1") }
        }
        _ = try online.box.prepare()
        let test = try offline.box.prepare().test
        _ = try offline.box.keepTest(device: Self.phone)
        for (id, correct) in answers { _ = try online.box.grade(id: id, correct: correct, answerMs: 900) }
        // The phone keeps the test at noon and grades it on the train; it reaches the box the
        // next morning.
        let given = offline.clock.now()
        var level: [String: Level] = Dictionary(uniqueKeysWithValues: ids.map { ($0, Level.one) })
        offline.clock.advance(hours: 20)
        for (sequence, (id, correct)) in answers.enumerated() {
            let receipt = try offline.box.takeKeptGrade(Self.kept(sequence + 1, id, correct, at: given + Int64(sequence) * 1000,
                                                                  from: level[id]!, position: test.position))
            #expect(receipt.taken)
            level[id] = receipt.level
        }
        #expect(Self.places(offline.dir, ids) == Self.places(online.dir, ids))
        #expect(offline.dir.read(TestBox.days).hasPrefix("2026-03-02 completed"))
        let phoneLines = Self.lines(offline.dir, Self.phoneLog)
        #expect(phoneLines.count == answers.count)
        #expect(phoneLines.map { $0[1] } == Array(repeating: "grade", count: answers.count))
        #expect(phoneLines.first?[0] == DayClock.rfc3339Milliseconds(given))
        #expect(phoneLines.last?.last == "kept=phone:\(answers.count)")
        // The same day record as online: the test completed on the day the grades were given, so
        // the day they arrived has the next test.
        #expect(offline.dir.read(TestBox.days) == online.dir.read(TestBox.days))
        #expect(try offline.box.status().test.position == test.position + 1)
        // The box's Log shows the phone's grades as its own device's lines.
        let logged = try offline.box.log(since: nil, limit: nil).filter { $0.device == Self.phone }
        #expect(logged.count == answers.count)
    }

    /// A grade sent twice — a reply lost — is taken once, also after a restart.
    @Test func aGradeSentTwiceIsTakenOnce() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "b", id: "x", level: "1")
        try f.box.addText("c", "d", id: "y", level: "1")
        let test = try f.box.prepare().test
        _ = try f.box.keepTest(device: Self.phone)
        let grade = Self.kept(1, "x", true, at: f.clock.now(), from: .one, position: test.position)
        #expect(try f.box.takeKeptGrade(grade).taken)
        #expect(try f.box.takeKeptGrade(grade).taken == false)
        try f.reopen()
        let again = try f.box.takeKeptGrade(grade)
        #expect(!again.taken)
        #expect(again.level == .two)
        #expect(f.dir.levelOnDisk("x") == ["2"])
        #expect(Self.lines(f.dir, Self.phoneLog).count == 1)
        #expect(f.dir.logLines.filter { $0.contains("origin=kept") }.count == 1)
        #expect(try f.box.status().test.passed == 1)
    }

    /// Killed at each step of taking a grade, the box reopened and the grade sent again: the card
    /// is in one level, the one the grade names, and each log holds the grade once (R17, R18).
    @Test func aKillAtEachStepLosesNothingAndCountsNothingTwice() throws {
        var step = 1
        while true {
            let f = try BoxFixture()
            try f.box.addText("a", "b", id: "x", level: "1")
            try f.box.addText("c", "d", id: "y", level: "1")
            let test = try f.box.prepare().test
        _ = try f.box.keepTest(device: Self.phone)
            let grade = Self.kept(1, "x", true, at: f.clock.now(), from: .one, position: test.position)
            CrashPoint.arm(after: step)
            let reply = try? f.box.takeKeptGrade(grade)
            let crashed = CrashPoint.hasCrashed
            CrashPoint.disarm()
            f.kill()
            try f.reopen()
            #expect(f.dir.levelOnDisk("x").count == 1, "step \(step)")
            if reply != nil {
                #expect(!crashed || f.dir.levelOnDisk("x") == ["2"], "step \(step): acknowledged, then lost")
            }
            let resent = try f.box.takeKeptGrade(grade)
            #expect(resent.level == .two, "step \(step)")
            #expect(f.dir.levelOnDisk("x") == ["2"], "step \(step)")
            #expect(Self.lines(f.dir, Self.phoneLog).count == 1, "step \(step)")
            #expect(f.dir.logLines.filter { $0.contains("origin=kept") }.count == 1, "step \(step)")
            #expect(try f.box.status().test.passed == 1, "step \(step)")
            try f.reopen()
            #expect(try f.box.status().test.passed == 1, "step \(step) after a restart")
            if !crashed { break }
            step += 1
        }
        #expect(step > 3)
    }

    /// The laptop graded the card after the phone did: the laptop's grade is the newer event and
    /// the card stays where it put it; both grades are in the history. It stays the newer when the
    /// phone's second grade of the card, given before it too, arrives after the first was taken —
    /// as two synced machines settle it (docs/sync.md): the laptop's `kept` line for the first
    /// stands for the laptop's grade, not for the phone's older one. And two grades of a card on
    /// the phone, each the newest event, each move it.
    @Test func aNewerGradeOnTheLaptopWins() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "b", id: "x", level: "1")
        try f.box.addText("c", "d", id: "y", level: "1")
        let test = try f.box.prepare().test
        _ = try f.box.keepTest(device: Self.phone)
        let phoneTime = f.clock.now()
        f.clock.advance(hours: 1)
        _ = try f.box.grade(id: "x", correct: false, answerMs: 100)
        let receipt = try f.box.takeKeptGrade(Self.kept(1, "x", true, at: phoneTime, from: .one, position: test.position))
        #expect(receipt.level == .one)
        #expect(f.dir.levelOnDisk("x") == ["1"])
        #expect(Self.lines(f.dir, Self.phoneLog).first?[4] == "2")
        #expect(f.dir.logLines.contains { $0[1] == "grade" && $0[2] == "x" })
        f.clock.advance(hours: 1)
        #expect(try f.box.takeKeptGrade(Self.kept(2, "x", true, at: phoneTime + 60_000, from: .two, position: test.position)).level == .one)
        #expect(f.dir.levelOnDisk("x") == ["1"])
        let events = try f.box.settleEvents(for: ["x"])["x"] ?? []
        #expect(SettlePlanner.decide(id: "x", copies: [.one], events: events) == .nothing)
        #expect(SettlePlanner.decide(id: "x", copies: [.one, .three], events: events) == .keep(.one))
        #expect(try f.box.takeKeptGrade(Self.kept(3, "y", true, at: f.clock.now(), from: .one, position: nil)).level == .two)
        f.clock.advance(hours: 1)
        #expect(try f.box.takeKeptGrade(Self.kept(4, "y", true, at: f.clock.now(), from: .two, position: nil)).level == .three)
        #expect(f.dir.levelOnDisk("y") == ["3"])
    }

    /// The phone graded the card after the laptop moved it by hand: the phone's grade is the
    /// newer event and moves the card from where it is to where the grade put it, as two synced
    /// machines settle it (docs/sync.md, "A card in one level that a newer event put elsewhere").
    @Test func aNewerKeptGradeMovesTheCardTheLaptopMoved() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "b", id: "x", level: "1")
        try f.box.addText("c", "d", id: "y", level: "1")
        let test = try f.box.prepare().test
        _ = try f.box.keepTest(device: Self.phone)
        _ = try f.box.move(id: "x", level: "5")
        f.clock.advance(hours: 1)
        let receipt = try f.box.takeKeptGrade(Self.kept(1, "x", false, at: f.clock.now(), from: .one, position: test.position))
        #expect(receipt.level == .one)
        #expect(f.dir.levelOnDisk("x") == ["1"])
        // And SettlePlanner, reading the same logs, keeps it there.
        let events = try f.box.settleEvents(for: ["x"])["x"] ?? []
        #expect(SettlePlanner.decide(id: "x", copies: [.one], events: events) == .nothing)
    }

    /// A second kept grade reads only the lines appended since the first (docs/sync.md): the
    /// lines of the open test's cards, read once by the first, are not read again. A line of
    /// this device's log from before, rewritten since to put `y` in level 5 (read, it would leave
    /// no line explaining `y` in level 1, and the card would wait there), is not read.
    @Test func aSecondKeptGradeReadsOnlyWhatIsNew() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "b", id: "x", level: "1")
        try f.box.addText("c", "d", id: "y", level: "1")
        for pad in 0..<10 { try f.box.addText("p", "q", id: "pad\(pad)", level: "6") }
        let test = try f.box.prepare().test
        _ = try f.box.keepTest(device: Self.phone)
        f.clock.advance(hours: 1)
        #expect(try f.box.takeKeptGrade(Self.kept(1, "x", true, at: f.clock.now(), from: .one, position: test.position)).level == .two)
        let log = f.dir.read(TestBox.log)
        let rewritten = log.replacingFirst("\ty\t-\t1", with: "\ty\t-\t5")
        #expect(rewritten != log)
        f.dir.write(TestBox.log, rewritten)
        #expect(try f.box.takeKeptGrade(Self.kept(2, "y", true, at: f.clock.now(), from: .one, position: test.position)).level == .two)
        #expect(f.dir.levelOnDisk("y") == ["2"])
    }

    /// An edit on the laptop after the phone's grade: the card keeps its place there with its
    /// edit, and the grade stays in the phone's log.
    @Test func aNewerEditKeepsTheCardWhereItIs() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "b", id: "x", level: "3")
        _ = try f.box.keepTest(device: Self.phone)
        let phoneTime = f.clock.now()
        f.clock.advance(hours: 1)
        _ = try f.box.edit(id: "x", front: Asset(name: "front.txt", text: "A"), back: nil)
        let receipt = try f.box.takeKeptGrade(Self.kept(1, "x", true, at: phoneTime, from: .three, position: nil))
        #expect(receipt.level == .three)
        #expect(f.dir.read("3/x/front.txt") == "A")
        #expect(Self.lines(f.dir, Self.phoneLog).count == 1)
    }

    /// A grade for a card deleted meanwhile is logged in the phone's log and reported (no level),
    /// never dropped; sent again it is not logged twice.
    @Test func aGradeForACardGoneIsLoggedAndReported() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "b", id: "x", level: "1")
        try f.box.addText("c", "d", id: "y", level: "1")
        let test = try f.box.prepare().test
        _ = try f.box.keepTest(device: Self.phone)
        let phoneTime = f.clock.now()
        _ = try f.box.delete(id: "x")
        let grade = Self.kept(1, "x", true, at: phoneTime, from: .one, position: test.position)
        let receipt = try f.box.takeKeptGrade(grade)
        #expect(receipt.taken && receipt.level == nil)
        #expect(try f.box.takeKeptGrade(grade).taken == false)
        #expect(Self.lines(f.dir, Self.phoneLog).count == 1)
        #expect(f.dir.levelOnDisk("x") == [])
    }

    /// A grade kept from yesterday's test, arriving after the laptop completed that test and
    /// opened today's: it belongs to the old test — logged, the card settled, not counted in
    /// today's test.
    @Test func aGradeOfAnOldTestDoesNotCountInTodays() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "b", id: "x", level: "1")
        let old = try f.box.prepare().test
        _ = try f.box.keepTest(device: Self.phone)
        let phoneTime = f.clock.now()
        try f.box.passAll()
        f.clock.advance(days: 1)
        _ = try f.box.move(id: "x", level: "1")
        let today = try f.box.prepare().test
        #expect(today.position != old.position)
        let receipt = try f.box.takeKeptGrade(Self.kept(1, "x", false, at: phoneTime, from: .one, position: old.position))
        #expect(receipt.taken)
        #expect(receipt.test.failed == 0)
        #expect(f.dir.levelOnDisk("x") == ["1"])
    }

    /// Bad input is refused naming the parameter, and changes nothing.
    @Test func badInputIsRefused() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "b", id: "x", level: "1")
        let now = f.clock.now()
        expectBoxError({ try f.box.takeKeptGrade(KeptGrade(device: "a b", sequence: 1, id: "x", correct: true, time: now,
                                                           answerMs: nil, from: .one, position: nil)) }) {
            if case .invalidParameter(let name, _) = $0 { return name == "device" }
            return false
        }
        expectBoxError({ try f.box.takeKeptGrade(KeptGrade(device: TestBox.device, sequence: 1, id: "x", correct: true, time: now,
                                                           answerMs: nil, from: .one, position: nil)) }) {
            if case .invalidParameter(let name, _) = $0 { return name == "device" }
            return false
        }
        expectBoxError({ try f.box.takeKeptGrade(Self.kept(1, "x", true, at: now, from: .finished, position: nil)) }) {
            if case .invalidParameter(let name, _) = $0 { return name == "level" }
            return false
        }
        #expect(!f.dir.exists(Self.phoneLog))
        #expect(f.dir.levelOnDisk("x") == ["1"])
    }

    /// A browser device's log is no sign of a sync tool (docs/sync.md, "A browser is no sync
    /// peer"): with only a browser beside this machine, a card removed by hand is deleted at once
    /// and the reverse card it leaves dangling is damaged; with another machine's log too, the
    /// same removal is a sync tool's delivery under way, the card in transit until it is quiet.
    @Test(arguments: [false, true])
    func aBrowserDeviceIsNoSyncPeer(withMachine: Bool) throws {
        let dir = TemporaryDirectory()
        if withMachine {
            dir.write(".leitner/devices/desktop/log", SyncDevicesTests.line("2026-03-01T09:00:00Z", "add", "p", "-", "5"))
        }
        let clock = ManualClock("2026-03-02")
        let box = try SyncDevicesTests.open(dir, clock: clock, settleAfter: 600_000)
        defer { dir.remove(); box.close() }
        try box.addText("a", "b", id: "x", level: "1")
        _ = try box.add(front: Asset(name: "front.txt", text: "dog"), back: Asset(name: "back.txt", text: "Hund"), id: "hund",
                        level: "1", allowDuplicateFront: true, withReverse: true)
        let test = try box.prepare().test
        _ = try box.keepTest(device: Self.phone)
        #expect(try box.takeKeptGrade(Self.kept(1, "x", true, at: clock.now(), from: .one, position: test.position)).level == .two)
        #expect(dir.exists(Self.phoneLog))
        dir.removeTree("1/hund")
        let problems = try box.doctor()
        let deleted = try box.log(since: nil, limit: nil).filter { $0.event == .delete }.map { "\($0.id ?? "") \($0.origin ?? "")" }
        let reverse = problems.first { $0.path == dir.path + "/1/hund.rev" }
        if withMachine {
            #expect(deleted.isEmpty)
            #expect(problems.contains { $0.kind == .syncConflict && $0.reason.hasPrefix("in transit: card 'hund'") })
        } else {
            #expect(deleted == ["hund hand"])
            #expect(reverse?.kind == .damagedCard && reverse?.reason.contains("dangling") == true, "\(problems)")
            #expect(!problems.contains { $0.kind == .syncConflict }, "\(problems)")
        }
    }

    /// Only a browser that kept a test sends kept grades: a name that never kept one, or another
    /// machine's device that syncs the store, is refused with the reason, and nothing is written
    /// — above all not into the other machine's log, which only that machine writes.
    @Test func onlyABrowserThatKeptATestSendsGrades() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "b", id: "x", level: "1")
        let desktopLog = ".leitner/devices/desktop/log"
        let desktopLine = SyncDevicesTests.line("2026-03-01T09:00:00Z", "add", "p", "-", "5")
        f.dir.write(desktopLog, desktopLine)
        let test = try f.box.prepare().test
        func refused(_ device: String, _ reason: String, _ body: () throws -> Void) {
            expectBoxError(body) {
                if case .keptGradeRefused(let named, let why) = $0 { return named == device && why.contains(reason) }
                return false
            }
        }
        for device in [Self.phone, "desktop"] {
            refused(device, "never kept a test") {
                _ = try f.box.takeKeptGrade(KeptGrade(device: device, sequence: 1, id: "x", correct: true, time: f.clock.now(),
                                                      answerMs: nil, from: .one, position: test.position))
            }
        }
        refused("desktop", "another machine") { _ = try f.box.keepTest(device: "desktop") }
        #expect(!f.dir.exists(Self.phoneLog) && !f.dir.exists(".leitner/devices/phone"))
        #expect(f.dir.read(desktopLog) == desktopLine && !f.dir.exists(".leitner/devices/desktop/browser"))
        #expect(f.dir.levelOnDisk("x") == ["1"])
        // Once it kept a test, the phone sends; its mark says when it first did.
        _ = try f.box.keepTest(device: Self.phone)
        #expect(f.dir.read(".leitner/devices/phone/browser") == DayClock.rfc3339Milliseconds(f.clock.now()) + "\n")
        #expect(try f.box.takeKeptGrade(Self.kept(1, "x", true, at: f.clock.now(), from: .one, position: test.position)).taken)
    }

    /// A kept grade's time is one it can have been given at (R35): not before the browser first
    /// kept a test, nor before the day of the test it names, nor after now, each give or take
    /// `Box.keptClockSkew`. 1969 and next year are refused with the bound they broke, and change
    /// nothing; a clock a few minutes off is taken.
    @Test func aGradeGivenAtATimeItCannotHaveIsRefused() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "b", id: "x", level: "1")
        try f.box.addText("c", "d", id: "y", level: "1")
        try f.box.addText("e", "f", id: "z", level: "1")
        // The phone first kept a test the day before (at noon): its mark is older than today's test.
        _ = try f.box.keepTest(device: Self.phone)
        f.clock.advance(hours: 30)
        let test = try f.box.prepare().test
        let now = f.clock.now()
        let skew = Box.keptClockSkew
        let before = (f.dir.snapshot(), f.dir.read(TestBox.log))
        let mark = now - 30 * 3_600_000
        let opened = DayClock().start(of: test.date)
        // Each names the bound it broke and that bound's time; the grade's sequence number, which
        // reads like a level on the phone that shows the reason, is not said.
        let cases: [(Int64, Int?, String, Int64)] = [
            (-86_400_000, nil, "before the device first kept a test", mark),
            (now + 365 * 86_400_000, test.position, "ahead of the box's clock", now),
            (now + skew + 1, nil, "ahead of the box's clock", now),
            (mark - skew - 1, nil, "before the device first kept a test", mark),
            // After the phone's mark, but on the day before today's test opened.
            (now - 20 * 3_600_000, test.position, "before the day of its test began", opened),
        ]
        for (time, position, reason, bound) in cases {
            expectBoxError({ try f.box.takeKeptGrade(Self.kept(1, "x", true, at: time, from: .one, position: position)) }) {
                if case .keptGradeRefused(let device, let why) = $0 {
                    return device == Self.phone && why == "its time is more than 10 minutes \(reason) "
                        + "(\(DayClock.rfc3339Milliseconds(bound))): the device's clock is wrong"
                }
                return false
            }
        }
        #expect(f.dir.snapshot() == before.0 && f.dir.read(TestBox.log) == before.1 && !f.dir.exists(Self.phoneLog))
        // A phone a few minutes ahead, or behind its mark: taken, at most at now.
        #expect(try f.box.takeKeptGrade(Self.kept(1, "x", true, at: now + skew, from: .one, position: test.position)).level == .two)
        #expect(Self.lines(f.dir, Self.phoneLog).first?[0] == DayClock.rfc3339Milliseconds(now))
        #expect(try f.box.takeKeptGrade(Self.kept(2, "y", true, at: now - 30 * 3_600_000 - skew, from: .one, position: nil)).taken)
        // A grade taken before is answered as taken, whatever its time says now.
        f.clock.advance(days: 400)
        #expect(try f.box.takeKeptGrade(Self.kept(1, "x", true, at: now + skew, from: .one, position: test.position)).taken == false)
    }
}
