import LeitnerSystem

/// Grades a browser kept while it could not reach the box, sent when it can (R35, docs/sync.md,
/// "A browser that reviews offline"). The browser is a device of its own: its grade goes into its
/// own log with the time it was given, and the card is settled with every other device's changes
/// by `SettlePlanner`, as if the browser were a machine whose log a sync tool just delivered.
extension Box {
    /// Takes a kept grade once. This device's log gets a `move origin=kept` line (journaled, as
    /// every change: R17) that names the grade (`kept=DEVICE:SEQ`), moves the card when the
    /// grade is the newest event about it, and counts in the open test when the grade belongs to
    /// it (its CORRECT column then set, which the test's replay reads); then the browser's log
    /// gets its `grade` line. A grade whose number either log holds is not taken again; a
    /// browser line lost between the two writes is written when the grade is sent again.
    /// - Throws: `invalidCardId`, `invalidParameter` (device, sequence, level), `keptGradeRefused`
    ///   (a device that never kept a test, a time the grade cannot have been given at),
    ///   `storeFailure`.
    public func takeKeptGrade(_ grade: KeptGrade) throws(BoxError) -> KeptGradeReceipt {
        try CardID.validate(grade.id)
        try checkBrowserName(grade.device)
        guard grade.sequence >= 1 else { throw .invalidParameter(name: "sequence", reason: "a sequence number is 1 or more") }
        guard grade.from.inRotation else {
            throw .invalidParameter(name: "level", reason: "a card is graded in level 1 to 7, not in \(grade.from.name)")
        }
        // Only a browser that kept a test has grades to send: any other name would have this
        // daemon write a log no browser owns — or another machine's, which only that machine writes.
        guard store.isBrowser(grade.device) else {
            throw .keptGradeRefused(device: grade.device, reason: "it never kept a test (KeepTest): only a browser device of the "
                                    + "box sends kept grades")
        }
        let moment = try begin()
        let taken = try keptTaken(by: grade.device)
        // A grade is given no later than now, and its log stays in time order.
        let time = min(max(grade.time, taken.lastTime ?? grade.time), moment.now)
        let to = grade.correct ? grade.from.promoted : grade.from.demoted(options.onFail)
        var line = LogEntry(time: time, event: .grade, id: grade.id, from: grade.from, to: to, correct: grade.correct,
                            answerMs: grade.answerMs.map { min(max(0, $0), Box.maxAnswerMs) })
        line.kept = KeptMark(device: grade.device, sequence: grade.sequence)
        if grade.sequence <= max(taken.own, taken.browser) {
            // Taken before: the reply was lost. The daemon may have stopped between the two logs.
            if grade.sequence > taken.browser { try writeBrowserLine(line, taken) }
            return KeptGradeReceipt(taken: false, level: store.level(of: grade.id), test: summary(moment))
        }
        try checkKeptTime(grade, moment)
        guard let level = store.level(of: grade.id) else {
            // Deleted or renamed meanwhile: nothing to move, but the grade is history (R16).
            try writeBrowserLine(line, taken)
            return KeptGradeReceipt(taken: true, level: nil, test: summary(moment))
        }
        var settled = level
        // When what the logs now say of the card was decided: the grade's time when it wins.
        var decided = time
        if !store.isDamaged(grade.id) {
            var events = try keptEvents(for: grade.id)
            let offset = store.browserLogSize(grade.device) + LogLine.format(line).utf8.count
            events.append(DeviceEvent(device: grade.device, offset: offset, entry: line))
            if case .move(let winner) = SettlePlanner.decide(id: grade.id, copies: [level], events: events) { settled = winner }
            decided = SettlePlanner.newest(id: grade.id, copies: [level], events: events) ?? time
        }
        let counts = countsInOpenTest(grade, moment)
        var journal = [LogEntry(time: moment.now, event: .move, id: grade.id, from: level, to: settled,
                                correct: counts ? grade.correct : nil, origin: .kept)]
        journal[0].kept = line.kept
        // Ranked as of the newest event about the card (docs/sync.md): the grade's time when it
        // won, the newer event's when it lost. As of the grade's time, a lost grade's line would
        // stand as this device's last word older than the event that beat it, and the browser's
        // next grade, given before that event, would outrank it.
        journal[0].made = decided < moment.now ? decided : nil
        // R10: the grade that empties the queue completes the test, on the date it was given.
        let completion = counts && grade.correct && daily.remaining == 1 ? completionDate(of: time, moment) : nil
        if let completion { journal.append(LogEntry(time: moment.now, event: .complete, date: completion)) }
        if settled == level {
            try store.appendToLog(journal, durable: true)
        } else {
            try moveServedCard(grade.id, from: level, to: settled, journal: journal)
        }
        if lastShown?.id == grade.id { lastShown = nil }
        sync.keptTaken[grade.device]?.own = grade.sequence
        if counts {
            daily.grade(DailyTest.Grade(id: grade.id, from: level, to: settled, correct: grade.correct, time: moment.now))
        } else if tracksMembership {
            daily.levelChanged(grade.id, to: settled)
        }
        if let completion {
            daily.complete(on: completion)
            try recordDay(DayRecord.Entry(date: completion, outcome: .completed))
        }
        try writeBrowserLine(line, taken)
        return KeptGradeReceipt(taken: true, level: settled, test: summary(moment))
    }

    /// Every device's log lines that can still settle card `id` (`SettlePlanner.standing`): those
    /// the kept grades read before, with the lines appended to each log since (a device's log that
    /// came since, from its start). The logs are read whole only for a card not read yet — with
    /// it, the open test's cards that a browser keeps, so that its other grades need not — or
    /// when a log was replaced by another history.
    func keptEvents(for id: String) throws(BoxError) -> [DeviceEvent] {
        let readers = try logReaders()
        func check(_ device: String, _ end: Int) -> UInt32? {
            PeerReadMarks.withLog(device, in: store.devicesFD) { PeerReadMarks.check($0, before: end) }
        }
        if var known = sync.keptLines, known.ids.contains(id),
           readers.allSatisfy({ log in
               known.logs[log.device].map { $0.end <= log.reader.end && ($0.end == 0 || check(log.device, $0.end) == $0.check) } ?? true
           }) {
            // A device whose log came is read from its start; one whose log went says nothing now.
            for device in known.logs.keys where !readers.contains(where: { $0.device == device }) { known.forget(device) }
            for log in readers {
                let end = known.logs[log.device]?.end ?? 0
                guard end < log.reader.end else { continue }
                let reader = log.device == store.device ? try store.log.reader(from: end) : try peerLogReader(log.device, from: end)
                guard let reader else { continue }
                var found: [String: [DeviceEvent]] = [:]
                while try SettleRead.take(log.device, reader, known.ids, into: &found) > 0 {}
                known.add(found)
                known.logs[log.device] = (reader.end, check(log.device, reader.end))
            }
            sync.keptLines = known
            return known.lines[id] ?? []
        }
        var ids = sync.keptLines?.ids ?? []
        ids.insert(id)
        if tracksMembership, let test = daily.test { ids.formUnion(test.queue.prefix(Box.keptCardLimit)) }
        var known = SettleLines(ids: ids)
        known.add(try SettleRead.take(readers, ids))
        for log in readers { known.logs[log.device] = (log.reader.end, check(log.device, log.reader.end)) }
        sync.keptLines = known
        return known.lines[id] ?? []
    }

    /// The most cards a browser keeps: a day's test rarely has more, and the reply stays well
    /// inside a message.
    public static let keptCardLimit = 300

    /// The open test's cards still to ask, in its order, with their text, for browser `device`
    /// to keep and review offline (`KeepTest`). Opens nothing: the page keeps the test it shows.
    /// A card that cannot be read (damaged, in transit) is left out. The first call makes
    /// `device` a browser device of the box (`Store.registerBrowser`), which may then send the
    /// grades it keeps.
    /// - Throws: `invalidParameter` (device), `keptGradeRefused` (another machine's device),
    ///   `storeFailure`.
    public func keepTest(device: String) throws(BoxError) -> KeptTest {
        try checkBrowserName(device)
        let moment = try begin()
        try store.registerBrowser(device, now: moment.now)
        let taken = try keptTaken(by: device)
        var cards: [Card] = []
        if tracksMembership, daily.test?.position == days.position, !completedToday(moment) {
            for id in (daily.test?.queue ?? []) where cards.count < Box.keptCardLimit {
                if let card = try? store.card(id, withText: true) { cards.append(card) }
            }
        }
        let opened = daily.test?.opened ?? moment.today
        return KeptTest(test: summary(moment), cards: cards, onFail: options.onFail,
                        dayEnds: options.dayClock.start(of: opened.adding(days: 1)), sequence: max(taken.own, taken.browser))
    }

    /// How far a browser's clock may be from this machine's: a kept grade's time is held to
    /// bounds widened by this much either way (docs/rules.md, R35).
    public static let keptClockSkew: Int64 = 10 * 60_000

    /// A browser's device id: one (R16's syntax), and not this machine's own.
    private func checkBrowserName(_ device: String) throws(BoxError) {
        if let problem = DeviceID.problem(device) { throw .invalidParameter(name: "device", reason: problem) }
        guard device != store.device else {
            throw .invalidParameter(name: "device", reason: "'\(device)' is this machine's own device, not a browser's")
        }
    }

    /// R35: a kept grade was given after its browser first kept a test, on or after the day the
    /// test it names opened, and not after now — each give or take `keptClockSkew`. A time
    /// outside (a phone's clock set to 1970, or a year ahead) would rank the grade before or
    /// after every other event and settle cards by a clock, not by what happened: refused, with
    /// the bound it broke, and the page keeps the grade and says so. The reason is read on the
    /// phone, beside the card, the answer and its time: it names the bound and its time, not the
    /// grade's sequence number, which reads like a level there (docs/web.md, "Reviewing offline").
    private func checkKeptTime(_ grade: KeptGrade, _ moment: Moment) throws(BoxError) {
        let minutes = Box.keptClockSkew / 60_000
        func refuse(_ bound: String, _ time: Int64) -> BoxError {
            .keptGradeRefused(device: grade.device, reason: "its time is more than \(minutes) minutes \(bound) "
                              + "(\(DayClock.rfc3339Milliseconds(time))): the device's clock is wrong")
        }
        if grade.time > moment.now + Box.keptClockSkew {
            throw refuse("ahead of the box's clock", moment.now)
        }
        if let since = store.browserSince(grade.device), grade.time < since - Box.keptClockSkew {
            throw refuse("before the device first kept a test", since)
        }
        if let test = daily.test, grade.position == test.position {
            let opened = options.dayClock.start(of: test.opened)
            if grade.time < opened - Box.keptClockSkew {
                throw refuse("before the day of its test began", opened)
            }
        }
    }

    /// Whether a kept grade counts in this device's open test: the page kept that test (its
    /// position, else a grade given since the test opened), the test is not completed, and the
    /// card is in its queue. A grade kept from an older test is history only (R35: what the page
    /// kept belongs to the old test).
    private func countsInOpenTest(_ grade: KeptGrade, _ moment: Moment) -> Bool {
        guard let test = daily.test, test.position == days.position, test.completed == nil,
              daily.contains(grade.id), !store.isDamaged(grade.id) else { return false }
        if let position = grade.position { return position == test.position }
        return options.dayClock.logicalDate(at: grade.time) >= test.opened
    }

    /// The date a test completed by a kept grade is completed on: the date the grade was given,
    /// unless the day record already holds that date or a later one; then today.
    private func completionDate(of time: Int64, _ moment: Moment) -> LogicalDate? {
        let given = options.dayClock.logicalDate(at: time)
        for date in [given, moment.today] where days.last.map({ $0.date < date }) ?? true { return date }
        return nil
    }

    private func writeBrowserLine(_ line: LogEntry, _ taken: KeptTaken) throws(BoxError) {
        guard let mark = line.kept else { return }
        try store.appendToBrowserLog(mark.device, line)
        sync.keptTaken[mark.device] = (own: max(taken.own, sync.keptTaken[mark.device]?.own ?? 0), browser: mark.sequence,
                                       lastTime: line.time)
    }

    typealias KeptTaken = (own: Int, browser: Int, lastTime: Int64?)

    /// The greatest sequence number of browser `device` that this device's log took and that the
    /// browser's log holds, and the time of the browser log's last line; read once after an open.
    private func keptTaken(by device: String) throws(BoxError) -> KeptTaken {
        if let known = sync.keptTaken[device] { return known }
        var known: KeptTaken = (0, 0, nil)
        try store.log.forEachEntry(from: 0) { entry, _ in
            if let mark = entry.kept, mark.device == device { known.own = max(known.own, mark.sequence) }
        }
        if let reader = try peerLogReader(device) {
            while try reader.next(upTo: 4096, { entry, _ in
                if let mark = entry.kept, mark.device == device { known.browser = max(known.browser, mark.sequence) }
                known.lastTime = max(known.lastTime ?? entry.time, entry.time)
            }) > 0 {}
        }
        sync.keptTaken[device] = known
        return known
    }
}
