import Testing
@testable import LeitnerCore
import LeitnerTestSupport
@testable import LeitnerSystem

/// R1, R23, R24: new cards wait in `new/` and are admitted a few a day; suspended cards and
/// leeches. Each admission and suspension is a logged move, so a restart or a kill keeps it.
@Suite struct BoxPlacesTests {
    /// The ids of the `move` lines the box logged with `origin=admit`, in order.
    func admitted(_ f: BoxFixture) -> [String] {
        f.dir.logLines.filter { $0[1] == "move" && $0.contains("origin=admit") }.map { $0[2] }
    }

    @Test func r1CardsWaitInNewAndAreAdmittedInTheOrderAdded() throws {
        let f = try BoxFixture(places: PlacesSettings(newPerDay: 3))
        // Added in an order that is not the ids' order.
        for id in ["e", "b", "d", "a", "c"] { try f.box.addText(id, id, id: id) }
        #expect(f.dir.levelOnDisk("e") == ["new"])
        #expect(try f.box.status().arrivals?.cards == 3)
        #expect(try f.box.status().arrivals?.date == f.box.options.dayClock.logicalDate(at: f.clock.now()))
        let test = try f.box.prepare().test
        #expect(test.remaining == 3)
        #expect(Set(f.box.queueNow) == ["e", "b", "d"])
        #expect(admitted(f) == ["e", "b", "d"])
        #expect(f.dir.levelOnDisk("a") == ["new"])
        // Once a date: another Prepare or a restart admits nothing more.
        try f.reopen()
        _ = try f.box.prepare()
        #expect(admitted(f).count == 3)
        // The next day, the rest.
        f.clock.advance(days: 1)
        _ = try f.box.prepare()
        #expect(admitted(f) == ["e", "b", "d", "a", "c"])
    }

    @Test func r23ACardAddedLaterThatDayGoesStraightToLevelOneWhileRoomIsLeft() throws {
        let f = try BoxFixture(places: PlacesSettings(newPerDay: 3))
        try f.box.addText("a", "a", id: "a")
        _ = try f.box.prepare()
        #expect(f.dir.levelOnDisk("a") == ["1"])
        // One admitted today: two more go straight in, and join the open test.
        try f.box.addText("b", "b", id: "b")
        try f.box.addText("c", "c", id: "c")
        #expect(f.dir.levelOnDisk("c") == ["1"])
        #expect(Set(f.box.queueNow) == ["a", "b", "c"])
        // The day's room is spent, also across a restart (counted from the log).
        try f.reopen()
        try f.box.addText("d", "d", id: "d")
        #expect(f.dir.levelOnDisk("d") == ["new"])
        #expect(try f.box.status().arrivals?.cards == 1)
        // A named level skips new/.
        try f.box.addText("e", "e", id: "e", level: "1")
        #expect(f.dir.levelOnDisk("e") == ["1"])
    }

    /// The day's admissions are made once, when its test opens, also when the daemon restarts
    /// that day: a card put in `new/` by hand after the opening waits for the next date, even when
    /// fewer than `NewPerDay=` were admitted.
    @Test func r23ARestartTheSameDayAdmitsNothingMore() throws {
        let f = try BoxFixture(places: PlacesSettings(newPerDay: 3))
        try f.box.addText("a", "a", id: "a", level: "1")
        _ = try f.box.prepare()
        #expect(admitted(f).isEmpty)
        try f.reopen()
        f.dir.writeCard("late", level: "new")
        _ = try f.box.prepare()
        _ = try f.box.next()
        #expect(f.dir.levelOnDisk("late") == ["new"])
        #expect(admitted(f).isEmpty)
        f.clock.advance(days: 1)
        _ = try f.box.prepare()
        #expect(f.dir.levelOnDisk("late") == ["1"])
    }

    @Test func r23HandPlacedCardsComeAfterTheLoggedOnesById() throws {
        let f = try BoxFixture(places: PlacesSettings(newPerDay: 3))
        try f.box.addText("z", "z", id: "z")
        f.dir.writeCard("m", level: "new")
        f.dir.writeCard("k", level: "new")
        _ = try f.box.status()
        try f.box.addText("y", "y", id: "y")
        _ = try f.box.prepare()
        #expect(admitted(f) == ["z", "y", "k"])
    }

    @Test func r1NewPerDayAllAddsToLevelOneAtOnce() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "a", id: "a")
        #expect(f.dir.levelOnDisk("a") == ["1"])
        // A card put in new/ by request is admitted with all the others at the next opening.
        _ = try f.box.move(id: "a", level: "new")
        f.clock.advance(days: 1)
        _ = try f.box.prepare()
        #expect(f.dir.levelOnDisk("a") == ["1"])
    }

    @Test func r23AddManyKeepsTheFileOrder() throws {
        let f = try BoxFixture(places: PlacesSettings(newPerDay: 2))
        let cards = ["q", "p", "o"].map { NewCard(front: Asset(name: "front.txt", text: $0), back: Asset(name: "back.txt", text: $0), id: $0) }
        let outcome = try f.box.addMany(cards, allowDuplicateFront: true)
        #expect(outcome.added.map(\.level) == [.new, .new, .new])
        _ = try f.box.prepare()
        #expect(admitted(f) == ["q", "p"])
    }

    @Test func r24UnsuspendReturnsToTheLevelSuspendedFrom() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "a", id: "a", level: "4")
        try f.box.addText("b", "b", id: "b")
        _ = try f.box.suspend(ids: ["a"])
        #expect(f.dir.levelOnDisk("a") == ["suspended"])
        // A card put in suspended/ by hand has no level in the log: back to level 1.
        f.dir.move("1/b", "suspended/b")
        try f.reopen()
        let back = try f.box.unsuspend(ids: ["a", "b"])
        #expect(back.map(\.level) == [.four, .one])
        #expect(f.dir.levelOnDisk("a") == ["4"])
    }

    @Test func r24UnsuspendOfACardNotSuspendedChangesNothing() throws {
        let f = try BoxFixture()
        try f.box.addText("a", "a", id: "a", level: "3")
        try f.box.addText("b", "b", id: "b", level: "3")
        _ = try f.box.suspend(ids: ["a"])
        let before = f.dir.snapshot()
        let log = f.dir.logSize
        expectBoxError(.notSuspended(id: "b", level: "3")) { try f.box.unsuspend(ids: ["a", "b"]) }
        #expect(f.dir.snapshot() == before)
        #expect(f.dir.logSize == log)
    }

    @Test func r24SuspendedCardsLeaveTheTestAndAreNeverAdmitted() throws {
        let f = try BoxFixture(places: PlacesSettings(newPerDay: 5))
        try f.box.addText("a", "a", id: "a", level: "1")
        try f.box.addText("b", "b", id: "b", level: "1")
        _ = try f.box.prepare()
        _ = try f.box.suspend(ids: ["a"])
        #expect(f.box.queueNow == ["b"])
        f.clock.advance(days: 1)
        _ = try f.box.prepare()
        #expect(f.dir.levelOnDisk("a") == ["suspended"])
    }

    @Test func r24LeechesCountWrongAnswersSinceTheCardEntered() throws {
        let f = try BoxFixture(cycle: try CycleTable(parsing: "1"), places: PlacesSettings(leechAfter: 3))
        try f.box.addText("a", "a", id: "a")
        try f.box.addText("b", "b", id: "b")
        _ = try f.box.prepare()
        for _ in 0..<3 { _ = try f.box.grade(id: "a", correct: false, answerMs: nil) }
        #expect(try f.box.leeches().map(\.id) == ["a"])
        #expect(try f.box.status().leeches == 1)
        // An undo takes its wrong answer back.
        _ = try f.box.undo()
        #expect(try f.box.leeches().isEmpty)
        _ = try f.box.grade(id: "a", correct: false, answerMs: nil)
        #expect(try f.box.leeches().map(\.failures) == [3])
        // Suspended and back: the count starts again.
        _ = try f.box.suspend(ids: ["a"])
        _ = try f.box.unsuspend(ids: ["a"])
        #expect(try f.box.leeches().isEmpty)
    }

    /// R24: `Status` counts the leeches again only when the log's wrong answers or the cards in
    /// the box changed (`PlacesLedger.leechCount`): a year's history holds tens of thousands, and
    /// a `Status` with nothing new looks at none of them.
    @Test func r24StatusCountsTheLeechesAgainOnlyWhenTheyCanHaveChanged() throws {
        let f = try BoxFixture(cycle: try CycleTable(parsing: "1"), places: PlacesSettings(leechAfter: 2))
        for id in ["a", "b", "c"] { try f.box.addText(id, id, id: id) }
        _ = try f.box.prepare()
        for id in ["a", "a", "b", "b"] { _ = try f.box.grade(id: id, correct: false, answerMs: nil) }
        #expect(try f.box.status().leeches == 2)
        /// The count `Status` keeps, and how many cards a count made now would look up (0: kept).
        func kept() -> (count: Int, looked: Int) {
            var looked = 0
            let count = f.box.places.leechCount(threshold: 2, cards: f.box.store.cardSetVersion) { id in
                looked += 1
                return f.box.store.level(of: id) != nil
            }
            return (count, looked)
        }
        #expect(kept() == (2, 0))
        // A right answer moves a card but changes no leech: still kept.
        _ = try f.box.grade(id: "c", correct: true, answerMs: nil)
        #expect(try f.box.status().leeches == 2)
        #expect(kept() == (2, 0))
        // The undo of a right answer changes no leech either; the undo of a wrong one does.
        _ = try f.box.undo()
        #expect(try f.box.status().leeches == 2)
        #expect(kept() == (2, 0))
        _ = try f.box.undo()
        #expect(try f.box.status().leeches == 1)
        #expect(kept() == (1, 0))
        // A leech removed by hand.
        f.dir.removeTree("1/a")
        #expect(try f.box.status().leeches == 0)
    }

    @Test func r23CalendarAndForecastShowTheArrivalsDayByDay() throws {
        let f = try BoxFixture(places: PlacesSettings(newPerDay: 3))
        for n in 0..<8 { try f.box.addText("n\(n)", "n\(n)", id: "n\(n)") }
        /// Yesterday to four days on.
        func arrivals() throws -> [Int?] {
            let today = f.box.options.dayClock.logicalDate(at: f.clock.now())
            return try f.box.calendar(from: today.adding(days: -1).description, to: today.adding(days: 4).description).map(\.arrivals)
        }
        // Before the day's test opens: 3 today, 3 tomorrow, the last 2 the day after.
        #expect(try arrivals() == [0, 3, 3, 2, 0, 0])
        var forecast = try f.box.statistics(window: nil, leeches: nil).forecast
        #expect(forecast.prefix(4).map(\.arrivals) == [3, 3, 2, 0])
        // Today's test has level 1: its 3 new cards are in it.
        #expect(forecast[0].cards == 3)
        // Opened: today's 3 are admitted (the log's), the forecast moves on a day.
        _ = try f.box.prepare()
        #expect(try arrivals() == [0, 3, 3, 2, 0, 0])
        forecast = try f.box.statistics(window: nil, leeches: nil).forecast
        #expect(forecast.prefix(3).map(\.arrivals) == [0, 3, 2])
        f.clock.advance(days: 1)
        #expect(try arrivals() == [3, 3, 2, 0, 0, 0])
        // NewPerDay=0 admits none: no arrival is forecast. A tag filter forecasts none.
        let none = try BoxFixture(places: PlacesSettings(newPerDay: 0))
        try none.box.addText("a", "a", id: "a")
        #expect(try none.box.statistics(window: nil, leeches: nil).forecast.allSatisfy { $0.arrivals == nil })
        #expect(try f.box.statistics(window: nil, leeches: nil, filter: TagFilter(tags: ["x"])).forecast[0].arrivals == nil)
    }

    /// The admission order the ledger gives without a string per card of `new/` is the one of
    /// its definition — logged arrivals by arrival, then the others by id — through arrivals,
    /// cards put there by hand, moves out and back, renames (back and forth) and deletions.
    @Test func r23TheFewAdmittedAreTheFirstInOrderWithoutSortingAll() {
        var random = SeededGenerator(seed: 23)
        var ledger = PlacesLedger()
        var index = CardIndex()
        // The definition: card in `new/` → its arrival number, nil for one there by hand.
        var model: [String: Int?] = [:]
        var arrival = 0
        let dayClock = DayClock()
        func take(_ entry: LogEntry) { ledger.take(LogLine.Fields(entry), dayClock: dayClock) }
        func expected(_ limit: Int) -> [String] {
            let logged = model.compactMap { id, number in number.map { (number: $0, id: id) } }.sorted { $0.number < $1.number }.map(\.id)
            let unlogged = model.filter { $0.value == nil }.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            return Array((logged + unlogged).prefix(limit))
        }
        for step in 0..<6000 {
            let id = "c\(random.next() % 400)"
            switch random.next() % 6 {
            case 0, 1:
                // A request puts it in new/ (again: behind those already there).
                guard index[id] != .new else { break }
                take(LogEntry(time: 0, event: index[id] == nil ? .add : .move, id: id, from: index[id], to: .new))
                index[id] = .new
                model[id] = .some(arrival)
                arrival += 1
            case 2:
                guard index[id] != .new else { break }
                take(LogEntry(time: 0, event: .add, id: id, to: .new, origin: .hand))
                index[id] = .new
                model[id] = .some(nil)
                arrival += 1
            case 3:
                guard let level = index[id] else { break }
                take(LogEntry(time: 0, event: .move, id: id, from: level, to: .one, origin: level == .new ? .admit : nil))
                index[id] = .one
                model[id] = nil
            case 4:
                // A rename keeps the card's place in the order (to a free id, often one it had).
                let newID = "c\(random.next() % 400)"
                guard let level = index[id], index[newID] == nil else { break }
                take(LogEntry(time: 0, event: .rename, id: id, renamedTo: newID))
                index[id] = nil
                index[newID] = level
                if let number = model.removeValue(forKey: id) { model[newID] = number }
            default:
                guard let level = index[id] else { break }
                take(LogEntry(time: 0, event: .delete, id: id, from: level))
                index[id] = nil
                model[id] = nil
            }
            if step % 7 == 0 {
                for limit in [1, 3, 20, 64, 65, 500] {
                    #expect(ledger.admissionOrder(in: index, limit: limit) == expected(limit), "step \(step), limit \(limit)")
                }
            }
        }
    }

    @Test func r23ArrivalForecastCountsDownToAnEmptyNew() {
        let day = LogicalDate("2026-03-02")!
        let forecast = ArrivalForecast(first: day, firstCards: 1, waiting: 10, perDay: 4)
        #expect((-1...4).map { forecast.cards(on: day.adding(days: $0)) } == [0, 1, 4, 4, 1, 0])
        let all = ArrivalForecast(first: day, firstCards: 10, waiting: 10, perDay: nil)
        #expect((0...2).map { all.cards(on: day.adding(days: $0)) } == [10, 0, 0])
        // Years away with a large NewPerDay=: no overflow, nothing left.
        let big = ArrivalForecast(first: day, firstCards: 5, waiting: 5, perDay: Int.max / 2)
        #expect(big.cards(on: day.adding(days: 3000)) == 0)
    }

    @Test func r24StatsListsTheLeechesBesideTheHardestCards() throws {
        let f = try BoxFixture(cycle: try CycleTable(parsing: "1"), places: PlacesSettings(leechAfter: 3))
        for id in ["a", "b", "c"] { try f.box.addText(id, id, id: id) }
        _ = try f.box.prepare()
        for _ in 0..<4 { _ = try f.box.grade(id: "a", correct: false, answerMs: nil) }
        for _ in 0..<3 { _ = try f.box.grade(id: "b", correct: false, answerMs: nil) }
        _ = try f.box.grade(id: "c", correct: false, answerMs: nil)
        var stats = try f.box.statistics(window: nil, leeches: nil)
        #expect(stats.leechAfter == 3)
        #expect(stats.leechCards?.map(\.id) == ["a", "b"])
        #expect(stats.leechCards?.map(\.failures) == [4, 3])
        // The hardest cards stay the window's: c, answered wrong once, is one, and no leech.
        #expect(stats.leeches.map(\.id) == ["a", "b", "c"])
        // A suspended leech is still listed, where it is; back from suspended/ it is none.
        _ = try f.box.suspend(ids: ["b"])
        stats = try f.box.statistics(window: nil, leeches: nil)
        #expect(stats.leechCards?.map(\.level) == [.one, .suspended])
        _ = try f.box.unsuspend(ids: ["b"])
        #expect(try f.box.statistics(window: nil, leeches: nil).leechCards?.map(\.id) == ["a"])
        // A tag filter lists the leeches of the cards it selects only.
        _ = try f.box.tag(id: "c", tags: ["x"])
        #expect(try f.box.statistics(window: nil, leeches: nil, filter: TagFilter(tags: ["x"])).leechCards == [])
    }

    @Test func r24SuspendLeechesSuspendsWithTheWrongAnswerThatMakesALeech() throws {
        let f = try BoxFixture(cycle: try CycleTable(parsing: "1"), places: PlacesSettings(leechAfter: 2, suspendLeeches: true))
        try f.box.addText("a", "a", id: "a")
        try f.box.addText("b", "b", id: "b")
        _ = try f.box.prepare()
        _ = try f.box.grade(id: "a", correct: false, answerMs: nil)
        #expect(f.dir.levelOnDisk("a") == ["1"])
        let graded = try f.box.grade(id: "a", correct: false, answerMs: nil)
        #expect(graded.card.level == .suspended)
        #expect(f.dir.levelOnDisk("a") == ["suspended"])
        #expect(f.box.queueNow == ["b"])
        // One logged line: the grade, its move to suspended/.
        #expect(f.dir.logLines.last?.contains("origin=leech") == true)
        // Undo (R15) takes the grade back, and the suspension with it.
        _ = try f.box.undo()
        #expect(f.dir.levelOnDisk("a") == ["1"])
        #expect(f.box.queueNow.first == "a")
        // A restart replays the same queue.
        _ = try f.box.grade(id: "a", correct: false, answerMs: nil)
        try f.reopen()
        #expect(f.box.queueNow == ["b"])
    }

    /// Kill -9 after every step of an admission, a suspension and an unsuspension: each card is
    /// whole in one place, and what the log says was done is what the store holds.
    @Test func crashAfterEveryStepOfAMoveIntoAndOutOfThePlaces() throws {
        var step = 1
        while step < 200 {
            let f = try BoxFixture(places: PlacesSettings(newPerDay: 2))
            try f.box.addText("a", "a", id: "a")
            try f.box.addText("b", "b", id: "b", level: "3")
            CrashPoint.arm(after: step)
            do {
                _ = try f.box.prepare()
                _ = try f.box.suspend(ids: ["a", "b"])
                _ = try f.box.unsuspend(ids: ["b"])
            } catch {}
            let crashed = CrashPoint.hasCrashed
            f.kill()
            CrashPoint.disarm()
            try f.reopen()
            for id in ["a", "b"] { #expect(f.dir.levelOnDisk(id).count == 1, "\(id) after \(step) steps") }
            // The log's last word on each card is where it is.
            for id in ["a", "b"] {
                let last = f.dir.logLines.last { $0.count > 4 && $0[2] == id }
                #expect(last?[4] == f.dir.levelOnDisk(id).first, "\(id) after \(step) steps: \(String(describing: last))")
            }
            if !crashed { break }
            step += 1
        }
        #expect(step > 3 && step < 200)
    }
}

extension BoxPlacesTests {
    /// R23: a day's admissions are one journaled change: kill -9 after any step of the opening
    /// leaves every one of them made, or none, and the log says the same as the store.
    @Test func aCrashLeavesADaysAdmissionsAllMadeOrNone() throws {
        let ids = ["a", "b", "c", "d"]
        var step = 1
        var seen: Set<String> = []
        while step < 300 {
            let f = try BoxFixture(places: PlacesSettings(newPerDay: 3))
            for id in ids { try f.box.addText(id, id, id: id) }
            CrashPoint.arm(after: step)
            do { _ = try f.box.prepare() } catch {}
            let crashed = CrashPoint.hasCrashed
            f.kill()
            CrashPoint.disarm()
            try f.reopen()
            let places = ids.map { f.dir.levelOnDisk($0) }
            #expect(places.allSatisfy { $0.count == 1 }, "after \(step) steps: \(places)")
            let admitted = ids.filter { f.dir.levelOnDisk($0) == ["1"] }
            #expect(admitted.isEmpty || admitted == ["a", "b", "c"], "after \(step) steps: \(admitted)")
            seen.insert(admitted.joined())
            for id in ids {
                let last = f.dir.logLines.last { $0.count > 4 && $0[2] == id }
                #expect(last?[4] == f.dir.levelOnDisk(id).first, "\(id) after \(step) steps")
            }
            if !crashed { break }
            step += 1
        }
        // Crashes fell both before and after the admissions were made durable.
        #expect(seen == ["", "abc"])
        #expect(step > 3 && step < 300)
    }
}

/// `NewPerDay=`, `LeechAfter=`, `SuspendLeeches=`: values and `FILE:LINE: message` errors.
@Suite struct PlacesConfigurationTests {
    func parse(_ text: String) throws(ConfigurationError) -> Configuration {
        var configuration = Configuration(defaultsFor: ConfigurationLocator(environment: ["HOME": "/home/u"], uid: 1000, home: "/home/u"))
        try ConfigurationParser(path: "/c.conf", home: "/home/u").parse(text, into: &configuration)
        return configuration
    }

    @Test func theDefaultsAndTheValues() throws {
        let defaults = try parse("")
        #expect(defaults.newPerDay == 20 && defaults.leechAfter == 8 && !defaults.suspendLeeches)
        let set = try parse("[Schedule]\nNewPerDay=all\nLeechAfter=0\nSuspendLeeches=yes\n")
        #expect(set.newPerDay == nil && set.leechAfter == 0 && set.suspendLeeches)
        #expect(try parse("[Schedule]\nNewPerDay=5\n").newPerDay == 5)
    }

    @Test(arguments: ["NewPerDay=-1", "NewPerDay=some", "LeechAfter=x", "LeechAfter=-2", "SuspendLeeches=perhaps"])
    func aBadValueNamesTheFileAndLine(_ line: String) {
        #expect(throws: ConfigurationError.self) { _ = try parse("[Schedule]\n\(line)\n") }
        do { _ = try parse("[Schedule]\n\(line)\n") } catch {
            #expect("\(error)".hasPrefix("/c.conf:2: invalid value"), "\(error)")
        }
    }
}
