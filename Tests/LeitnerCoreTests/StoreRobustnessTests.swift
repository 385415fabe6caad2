import Glibc
import Testing
@testable import LeitnerCore
@testable import LeitnerSystem
import LeitnerTestSupport

/// R17 durability, R18 atomicity and repair, R19 the lock, R21 damaged cards, R22 links.
@Suite struct StoreRobustnessTests {
    /// Every card's id and level as the box lists them.
    func levels(_ box: Box) throws -> [String: Level] {
        Dictionary(uniqueKeysWithValues: try box.list(level: nil, withText: false).map { ($0.id, $0.level) })
    }

    // MARK: R17

    /// R17: when a request returns, its change is on disk — a copy of the store taken at that
    /// instant (what `kill -9` leaves) opens to the same cards, test, queue order and day record.
    @Test func r17TheReplyMeansItIsOnDisk() throws {
        let f = try BoxFixture()
        for id in ["a", "b", "c", "d", "e"] { try f.box.addText(id, id, id: id) }
        _ = try f.box.prepare()
        let order = f.box.queueNow
        var steps: [() throws -> Void] = [
            { _ = try f.box.grade(id: order[0], correct: true, answerMs: 1) },
            { _ = try f.box.grade(id: order[1], correct: false, answerMs: 1) },
            { _ = try f.box.move(id: order[2], level: "6") },
            { try f.box.addText("late", "late", id: "late") },
            { _ = try f.box.undo() },
            { try f.box.delete(id: order[3]) },
        ]
        steps.append { try f.box.passAll() }
        for (index, step) in steps.enumerated() {
            try step()
            let copy = f.dir.copy()
            defer { copy.remove() }
            let other = try Box.open(copy, clock: f.clock)
            defer { other.close() }
            #expect(try levels(other) == levels(f.box), "step \(index)")
            #expect(other.queueNow == f.box.queueNow, "step \(index)")
            #expect(try other.status().test == f.box.status().test, "step \(index)")
            #expect(copy.dayLines == f.dir.dayLines, "step \(index)")
        }
        #expect(f.dir.dayLines == ["2026-03-02 completed"])
    }

    // MARK: R18

    /// R18: a card found in two levels is indexed once and reported; neither copy is touched.
    @Test func r18CardInTwoLevelsIsReportedNotTouched() throws {
        let f = try BoxFixture()
        f.close()
        f.dir.writeCard("dup", level: "2", front: "one")
        f.dir.writeCard("dup", level: "5", front: "two")
        let before = f.dir.snapshot()
        try f.reopen()
        #expect(try f.box.status().counts.values.reduce(0, +) == 1)
        let problems = try f.box.doctor()
        #expect(problems.contains { $0.kind == .duplicateCard && $0.path.hasSuffix("/dup") })
        #expect(f.dir.snapshot() == before)
    }

    /// R18: leftovers of interrupted operations are repaired at open: an add staged but never
    /// journaled is dropped; a journaled move whose rename a crash cut off is carried out.
    @Test func r18LeftoversAreRepairedAtOpen() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a")
        CrashPoint.arm(after: 3) // the journal's write and sync go through; the rename does not
        #expect(throws: BoxError.self) { try f.box.move(id: "a", level: "4") }
        f.kill()
        CrashPoint.disarm()
        f.dir.write(".leitner/local.here/tmp/add-ghost/front.txt", "boo")
        f.dir.write(".leitner/local.here/tmp/add-ghost/back.txt", "boo")
        #expect(f.dir.levelOnDisk("a") == ["1"])
        try f.reopen()
        #expect(f.dir.levelOnDisk("a") == ["4"])
        #expect(f.dir.levelOnDisk("ghost").isEmpty)
        #expect(!f.dir.exists(".leitner/local.here/tmp/add-ghost"))
        expectBoxError(.noSuchCard(id: "ghost")) { try f.box.show(id: "ghost") }
        #expect(try f.box.show(id: "a").level == .four)
    }

    /// R16, R18: an add line written into the log by hand, with a staged card beside it, is not
    /// an instruction: only the journal's own records are redone, and the staged card is dropped.
    @Test func r18AHandWrittenAddLineIsNotCarriedOut() throws {
        let f = try BoxFixture()
        f.close()
        f.dir.write(".leitner/local.here/tmp/add-half/front.txt", "half")
        f.dir.write(".leitner/local.here/tmp/add-half/back.txt", "way")
        f.dir.write(".leitner/devices/here/log", f.dir.read(".leitner/devices/here/log") + "\(DayClock.rfc3339(f.clock.now()))\tadd\thalf\t-\t3\t-\t-\n")
        try f.reopen()
        expectBoxError(.noSuchCard(id: "half")) { try f.box.show(id: "half") }
        #expect(f.dir.levelOnDisk("half").isEmpty)
        #expect(!f.dir.exists(".leitner/local.here/tmp/add-half"))
    }

    /// R18: a line a crash cut short at the end of the review log or the day record is dropped;
    /// what follows is written on a line of its own.
    @Test func r18TornTailsAreCut() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a")
        try f.box.passAll()
        f.close()
        f.dir.write(".leitner/devices/here/log", f.dir.read(".leitner/devices/here/log") + "2026-03-02T13:00:00+0")
        f.dir.write(".leitner/devices/here/days", f.dir.read(".leitner/devices/here/days") + "2026-03-0")
        f.clock.advance(days: 1)
        try f.reopen()
        #expect(f.dir.dayLines == ["2026-03-02 completed"])
        try f.box.addText("b", "B", id: "b")
        #expect(f.dir.read(".leitner/devices/here/log").hasSuffix("\n"))
        #expect(f.dir.logLines.allSatisfy { LogLine.parse(Substring($0.joined(separator: "\t"))) != nil })
        #expect(f.dir.logLines.last?[1] == "add")
    }

    // MARK: R19

    /// R19: a second opener of the same store fails at once, naming the store and the holder's
    /// pid, and changes nothing; once the first closes, it can open.
    @Test func r19SecondOpenerIsRefused() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a")
        let before = f.dir.snapshot()
        let log = f.dir.read(".leitner/devices/here/log")
        do {
            let second = try Box.open(f.dir, clock: f.clock)
            second.close()
            Issue.record("a second box opened the store")
        } catch let error as StoreLockedError {
            #expect(error.storePath == f.box.storePath)
            #expect(error.pid == getpid())
            #expect(error.description.contains("'\(f.box.storePath)'"))
            #expect(error.description.contains("\(getpid())"))
        }
        #expect(f.dir.snapshot() == before)
        #expect(f.dir.read(".leitner/devices/here/log") == log)
        #expect(try f.box.show(id: "a").level == .one, "the first box goes on")
        f.close()
        let second = try Box.open(f.dir, clock: f.clock)
        second.close()
    }

    // MARK: R21

    enum Damage: String, CaseIterable {
        case twoFronts, frontIsADirectory, frontIsAFIFO, danglingLink, noBack
    }

    func damage(_ kind: Damage, _ dir: TemporaryDirectory) {
        dir.makeDirectory("1/bad")
        dir.write("1/bad/back.txt", "back")
        switch kind {
        case .twoFronts:
            dir.write("1/bad/front.txt", "one")
            dir.write("1/bad/front.md", "two")
        case .frontIsADirectory:
            dir.makeDirectory("1/bad/front.txt")
        case .frontIsAFIFO:
            #expect(mkfifo(dir.path + "/1/bad/front.txt", 0o644) == 0)
        case .danglingLink:
            dir.symlink("/nonexistent-leitner-target", at: "1/bad/front.txt")
        case .noBack:
            dir.write("1/bad/front.txt", "front")
            dir.removeFile("1/bad/back.txt")
        }
    }

    /// R21: a damaged card is reported, kept out of the test and the counts, and its files are
    /// never touched. Our reading of the rules: the store is not looked into card by card at open (that is
    /// the fast path); a card is checked when it is shown, queued (`Next`) or by `doctor`.
    @Test(arguments: Damage.allCases)
    func r21DamagedCardIsReportedKeptOutAndUntouched(_ kind: Damage) throws {
        let f = try BoxFixture()
        try f.box.addText("ok", "fine", id: "ok")
        f.close()
        damage(kind, f.dir)
        let badFiles = { f.dir.snapshot().filter { $0.hasPrefix("/1/bad") } }
        let before = badFiles()
        try f.reopen()
        // Next never shows it, and the test goes on without it.
        #expect(try f.box.next().card?.id == "ok")
        let problems = try f.box.doctor()
        let problem = try #require(problems.first { $0.path == f.box.storePath + "/1/bad" })
        #expect(problem.kind == .damagedCard)
        // Said in words, without the rule's number, which means nothing to the person reading it.
        #expect(!problem.reason.isEmpty && !problem.reason.contains("(R"))
        let status = try f.box.status()
        #expect(status.counts[.one] == 1, "counts leave it out")
        #expect(status.problems >= 1)
        #expect(status.test.remaining == 1)
        #expect(f.box.queueNow == ["ok"])
        #expect(try f.box.list(level: "1", withText: true).map(\.id) == ["ok"])
        expectBoxError({ try f.box.show(id: "bad") }) {
            if case .storeFailure(let path, _, _, _) = $0 { path.hasSuffix("/1/bad") } else { false }
        }
        expectBoxError(.notInTest(id: "bad")) { try f.box.grade(id: "bad", correct: true, answerMs: nil) }
        try f.box.passAll()
        #expect(f.dir.dayLines == ["2026-03-02 completed"])
        f.clock.advance(days: 1)
        try f.reopen()
        _ = try f.box.prepare()
        #expect(try f.box.doctor().contains { $0.path.hasSuffix("/1/bad") })
        #expect(badFiles() == before, "never modified")
    }

    /// R21: a card damaged while the test is open leaves the queue when it is found; mended, it
    /// is counted again.
    @Test func r21DamageFoundDuringTheTestAndMended() throws {
        let f = try BoxFixture()
        for id in ["a", "b"] { try f.box.addText(id, id, id: id) }
        _ = try f.box.prepare()
        let order = f.box.queueNow
        f.dir.write("1/\(order[0])/front.md", "second front")
        #expect(try f.box.next().card?.id == order[1])
        #expect(f.box.queueNow == [order[1]])
        #expect(try f.box.status().counts[.one] == 1)
        f.dir.removeFile("1/\(order[0])/front.md")
        #expect(try f.box.status().counts[.one] == 2)
        #expect(try f.box.show(id: order[0]).front.text == order[0])
    }

    // MARK: R22

    /// R22: a link to /etc put in a level as if it were a card is refused: not indexed, not
    /// followed, reported, left in place — found at open and while running.
    @Test func r22LinkToEtcAsACard() throws {
        let f = try BoxFixture()
        f.close()
        f.dir.symlink("/etc", at: "3/etc")
        try f.reopen()
        f.dir.symlink("/etc", at: "4/etc2")
        expectBoxError(.noSuchCard(id: "etc")) { try f.box.show(id: "etc") }
        expectBoxError(.noSuchCard(id: "etc2")) { try f.box.show(id: "etc2") }
        #expect(try f.box.status().counts.values.reduce(0, +) == 0)
        #expect(try f.box.list(level: nil, withText: false).isEmpty)
        let problems = try f.box.doctor()
        for name in ["3/etc", "4/etc2"] {
            let problem = problems.first { $0.path == f.box.storePath + "/" + name }
            #expect(problem?.kind == .outsideLink, "\(name)")
        }
        #expect(f.dir.snapshot().contains("/3/etc -> /etc"))
        #expect(f.dir.snapshot().contains("/4/etc2 -> /etc"))
    }

    /// R22: an asset that is a link out of the store is never read: the card is damaged.
    @Test func r22AssetLinkingOutIsRefused() throws {
        let f = try BoxFixture()
        f.dir.writeCard("leak", level: "1")
        f.dir.removeFile("1/leak/front.txt")
        f.dir.symlink("/etc/passwd", at: "1/leak/front.txt")
        expectBoxError({ try f.box.show(id: "leak") }) {
            if case .storeFailure(_, let reason, _, _) = $0 { reason.contains("a link leading out of the store") } else { false }
        }
        expectBoxError({ try f.box.readAsset(id: "leak", side: .front) }) {
            if case .storeFailure = $0 { true } else { false }
        }
        #expect(try f.box.doctor().contains { $0.kind == .damagedCard && $0.path.hasSuffix("/1/leak") })
        #expect(try f.box.next().card == nil)
    }

    /// R22: a link that stays inside the store is followed.
    @Test func r22AssetLinkInsideTheStoreIsFollowed() throws {
        let f = try BoxFixture()
        f.dir.makeDirectory("media")
        f.dir.write("media/shared.txt", "shared text")
        f.dir.writeCard("inside", level: "2")
        f.dir.removeFile("2/inside/front.txt")
        f.dir.symlink("../../media/shared.txt", at: "2/inside/front.txt")
        #expect(try f.box.show(id: "inside").front.text == "shared text")
        #expect(try f.box.readAsset(id: "inside", side: .front).data == Array("shared text".utf8))
    }

    /// R22: a level directory that is a link is refused at open, naming it.
    @Test func r22LevelDirectoryLinkIsRefused() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.symlink("/etc", at: "3")
        do {
            let box = try Box.open(dir, clock: ManualClock("2026-03-02"))
            box.close()
            Issue.record("opened a store whose level 3 is a link to /etc")
        } catch let error as BoxError {
            guard case .storeFailure(let path, _, _, _) = error else { Issue.record("\(error)"); return }
            #expect(path.hasSuffix("/3"))
        }
        #expect(dir.snapshot().contains("/3 -> /etc"))
    }

    /// R22: assets arrive as content; a name that looks like a path only gives the extension.
    @Test func r22AssetNamesAreNeverOpened() throws {
        let f = try BoxFixture()
        let card = try f.box.add(front: Asset(name: "/etc/hostname.txt", text: "mine"),
                                 back: Asset(name: "../../etc/passwd.txt", text: "also mine"), id: "x", level: nil)
        #expect(card.front.text == "mine" && card.back.text == "also mine")
        #expect(f.dir.snapshot().filter { $0.hasPrefix("/1/x") } == ["/1/x/", "/1/x/back.txt = also mine", "/1/x/front.txt = mine"])
    }
}

/// R21 and R18 for changes made while the box runs.
@Suite struct StoreRobustnessWhileRunningTests {
    /// R21, R13: a damaged card put in a level by hand while the box runs is kept out of the
    /// counts and of the open test from the request that sees it.
    @Test func r21DamagedCardArrivingByHand() throws {
        let f = try BoxFixture()
        try f.box.addText("ok", "fine", id: "ok")
        _ = try f.box.prepare()
        f.dir.makeDirectory("1/bad")
        f.dir.write("1/bad/front.txt", "front only")
        let status = try f.box.status()
        #expect(status.counts[.one] == 1)
        #expect(status.test.remaining == 1)
        #expect(f.box.queueNow == ["ok"])
        #expect(try f.box.doctor().contains { $0.kind == .damagedCard && $0.path.hasSuffix("/1/bad") })
        // Mended by hand: it joins.
        f.dir.write("1/bad/back.txt", "back")
        #expect(try f.box.status().counts[.one] == 2)
        #expect(try f.box.show(id: "bad").back.text == "back")
    }

    /// R18: a card copied by hand into a second level is reported, the newer copy served (R13,
    /// "A card in two levels"; here the copy is made older, so the first one stays); once one
    /// copy is removed, the card is where the other is.
    @Test func r18CopyInASecondLevelThenOneRemoved() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a")
        f.dir.writeCard("a", level: "3", front: "copy")
        StoreSyncToolTests.setModified(f.dir.path + "/3/a", seconds: 1_000_000)
        #expect(try f.box.show(id: "a").level == .one)
        #expect(try f.box.doctor().contains { $0.kind == .duplicateCard && $0.path.hasSuffix("/3/a") })
        #expect(try f.box.status().counts.values.reduce(0, +) == 1)
        f.dir.removeTree("1/a")
        let card = try f.box.show(id: "a")
        #expect(card.level == .three && card.front.text == "copy")
        #expect(try f.box.doctor().isEmpty)
    }
}
