import LeitnerSystem

/// A Leitner box: the store on disk, its schedule and its daily test. The one owner of a store
/// (R19); not thread-safe: the daemon calls it from one actor.
///
/// Every request first takes in hand changes (R13) and applies R6 (`begin`), so that the day
/// rolls over lazily with no timer.
public final class Box {
    /// The canonical path of the store.
    public var storePath: String { store.root }

    /// The name of the box's own directory inside the store (docs/store-format.md).
    public static var stateDirectoryName: String { Store.stateDirectoryName }

    /// This device's id (docs/sync.md).
    public var device: String { store.device }

    /// The write-ahead journal's path, for messages.
    public var journalPath: String { store.statePath + "/" + Journal.fileName }

    let store: Store
    let options: BoxOptions
    /// The day record of the box: every device's, merged (`DayRecord.union`, docs/sync.md). Its
    /// length is the cycle position.
    var days: DayRecord
    /// This device's own day record, the one it writes (`dayFile`).
    var ownDays: DayRecord
    let dayFile: DayRecordFile
    /// The daily test: the test of the current position or the one completed today, and its files.
    var daily: DailyTestState
    /// The test held, to read (tests and statistics); changed only through `daily`.
    var test: DailyTest? { daily.test }
    /// Text of a front → the card's id, built on the first duplicate check.
    var frontIndex: [String: String]?
    /// The card `Next` answered last, to answer the `Grade` that usually follows without reading it again.
    var lastShown: Card?
    /// The card graded last and the card it reverses (nil: none), so that `Next` keeps its
    /// siblings apart (R11) without reading it again; read again when it is not the last grade.
    var lastGraded: (id: String, reverseOf: String?, note: String?)?
    /// The running totals and graded days that `Stats` and `Calendar` keep up to date.
    var statistics = StatisticsCache()
    /// The cards to settle after a sync, those in transit, and how far the peers' logs were read.
    var sync = SyncState()
    /// What the log says about `new/` and `suspended/`: arrivals, admissions, where suspended
    /// cards came from, leech counts (R23, R24); read from the log on first use.
    var places = PlacesLedger()
    /// The least ids of `new/`, kept from the open on while the box paces a few cards a day
    /// (R23, `LeastWaiting`); nil otherwise, or when lost until the next opening walks `new/`.
    var leastWaiting: LeastWaiting?
    /// How far the log was read when the ledger's file was last written or read (0: never);
    /// nil until the file was looked for, at the ledger's first use.
    var placesKept: Int?
    /// The ledger's files read and decoded at the open beside the scan (`PlacesRead`), until
    /// the ledger's first use takes them.
    var placesRead: PlacesRead?
    /// The cards' folded text for `Search`, built by the first search.
    var searchIndex: SearchIndex?
    /// Every card's tags, built by the first request that needs them (`TagTable`).
    var tagTable: TagTable?
    /// What a listing without text shows of each card, learned as listings reach the cards
    /// (`OutlineTable`).
    var outlineTable: OutlineTable?
    /// Reverse and cloze cards → what each names, built by the first request that needs it
    /// (`LinkIndex`).
    var linkIndex: LinkIndex?
    /// The notes in `notes/` and their numbers (R30), built by the first request (`NoteIndex`).
    var noteIndex: NoteIndex?
    /// What the daemon's last close recorded of the notes, for the first look (`NoteRecord`);
    /// read at open, before anything is logged, and dropped by the first look.
    var noteRecord: NoteRecord?
    /// The notes' first look, under way on its thread from the open until the first request
    /// takes it (`NoteLook`); nil once taken, or when it could not be started.
    var noteLook: NoteLook?
    /// Notes whose new cards could not be added (`followNotes`): tried again at the next request.
    var retryNotes = Set<String>()
    /// Notes come into `notes/` of a synced store, whose missing cards wait for the store to be
    /// quiet (`followNotes`).
    var waitingNotes = Set<String>()
    /// Notes renamed by hand whose cards' `cloze-of` could not be rewritten yet: the old id, the new.
    var retryRenames: [(from: String, to: String)] = []
    /// The search index's and the tag table's builds under way off the turn, while there is none
    /// (`BoxOptions.buildsIndexesApart`).
    var searchBuild: IndexBuild?
    /// The voice's maker (R33); nil without a program.
    let voice: VoiceMaker?
    var tagBuild: IndexBuild?
    /// The tag table's build whose thread still adds the watches of the cards it read unwatched.
    var tagWatching: IndexBuild?
    /// The build the call that just failed waits for (`takeAwaitedBuild`).
    var awaitedBuild: IndexBuild?
    /// When the call being made first asked for the box, before any build it waited for: set
    /// by the daemon for each call, so that the call that waited for the search index's build
    /// does not ask again the stamps the build asked after it began. Nil: asked again.
    public var callBegan: MonotonicTime?
    /// Stem of a made-up id → the next number to try.
    var idCounters: [String: Int] = [:]
    /// Each medium a batch wrote (`addMany`) → the card holding it, so that a card of a later
    /// batch showing a medium of that name links that card's file rather than writing the same
    /// bytes again: an import's batches share their pictures. A hint only — the file is compared
    /// with the new bytes before it is linked — forgotten past `mediaHoldersLimit` names.
    var mediaHolders: [String: String] = [:]
    static let mediaHoldersLimit = 100_000
    /// Damage found in `.leitner/` while opening, and what was done about it: `doctor` reports
    /// it, the daemon logs it at start-up.
    public internal(set) var openingProblems: [StoreProblem] = []
    /// The box's first logical date (`.leitner/created`): the calendar's days before it are `none`.
    var firstDate: LogicalDate

    /// Opens (and creates, when missing) the store, takes its lock and repairs what an
    /// interrupted operation left (R18, R19).
    /// - Throws: `StoreLockedError` when another process holds the store; `BoxError`.
    public init(options: BoxOptions) throws {
        self.options = options
        let now = options.clock.now()
        var look: NoteLook?
        var placesRead: PlacesRead?
        // The notes' first look starts before the store's scan, and takes its watches alongside
        // it; the places' ledger is read beside it too. Both read through the store's
        // descriptors: an open that fails waits for them before it closes those.
        store = try Store(path: options.storePath, device: options.device, now: now, groupCommit: options.groupCommit,
                          watchLimit: options.watchLimit, beforeScan: { store in
                              look = NoteLook.start(store: store)
                              placesRead = PlacesRead.start(store: store, clock: Box.keptDatesClock(options.dayClock))
                              return {
                                  look?.abandon()
                                  _ = placesRead?.take()
                              }
                          })
        self.placesRead = placesRead
        if let settings = options.voice, settings.program != nil {
            voice = VoiceMaker(settings: settings, cache: VoiceCache(sharedStatePath: store.sharedPath), clock: options.clock)
        } else {
            voice = nil
        }
        do {
            // Before the open logs anything (cards moved by hand meanwhile): the log's lines after
            // the record are the daemon's own changes since it was written.
            // The look parsed the record's file on its thread: it is judged here, against the log.
            let parsed = look.map { $0.parsedRecord() } ?? NoteRecord.load(in: store.stateFD)
            noteRecord = NoteRecord.read(store: store, parsed: parsed)
            look?.give(record: noteRecord, cards: store.cardLevels)
            dayFile = try DayRecordFile(directory: store.deviceFD, directoryPath: store.devicePath)
            ownDays = try dayFile.load()
            _ = store.refreshPeerDays()
            days = DayRecord.union([ownDays] + store.peerDayRecords)
            if case .storeFailure(let path, let reason, _, _)? = store.checkpointFailure {
                openingProblems.append(StoreProblem(kind: .damagedState, path: path,
                                                    reason: "no checkpoint could be made at start-up: \(reason)",
                                                    advice: "free some space; the journal keeps every change meanwhile"))
            }
            firstDate = try Box.loadFirstDate(store: store, days: days, dayClock: options.dayClock,
                                              today: options.dayClock.logicalDate(at: now))
            daily = DailyTestState(directory: store.stateFD, directoryPath: store.statePath, notesJoins: voice != nil)
            sync.savedMarks = PeerReadMarks.load(in: store.stateFD)
            daily.load(try loadTest())
            try reconcileDayRecord()
            // Hand changes made while no daemon ran (R13), every one — whether or not it touches
            // the open test — taken in as one made while it runs is: logged (R16), so that the
            // next open's replay keeps the test's order (R11) and settling knows where this device
            // last saw the card (a browser's kept grade, a sync: docs/sync.md), and joining or
            // leaving the test by R8. Found against where the log left each card
            // (`LoggedLevels`), without reading the whole log.
            let found = try store.changesWhileClosed(publishEvery: options.publishEvery, alongside: { wholeLogReaderAtOpen() })
            // Where the log alone left every card, at its end before this open logs anything: only
            // when this open read the log for it (no local state). An open with its local state
            // reads neither the published file nor the log to publish; its stop does.
            if let placed = found.placed { store.publishLoggedLevels(placed: placed, every: options.publishEvery) }
            let moment = Moment(now: now, today: options.dayClock.logicalDate(at: now))
            for change in found.changes { try takeIn(change, moment, atOpen: true) }
            // Read from the whole log: kept now, so that a daemon that is never stopped cleanly
            // does not read it at every start.
            if found.readWholeLog { store.saveLoggedLevels(also: sync.inTransit.mapValues { $0.level }, stamped: false) }
            keepWholeLogReadAtOpen()
            if found.readWholeLog { publishPlacesAndGradedDays() }
            for change in try store.adoptAllLoosePairs(now: now) { try apply(change, now: now, log: false) }
            // R23: the walk of `new/` that a day's opening needs is made here, once, beside the
            // scan that read its names, and kept current from then on (`LeastWaiting`).
            if let perDay = options.newPerDay, (1...LeastWaiting.capacity).contains(perDay) {
                leastWaiting = LeastWaiting(store: store)
            }
            // Opening a large store leaves megabytes of freed buffers (directory listings, the
            // test file); give them back rather than keep them resident for the daemon's life.
            MemoryTrim.releaseFreedMemory()
        } catch {
            look?.stop(store: store)
            _ = placesRead?.take()
            store.close()
            throw error
        }
        noteLook = look
    }

    /// Makes every change durable and releases the lock; a build under way off the turn gives up.
    public func close() {
        searchBuild?.stop()
        // The cards read again since the index's file was written are read again from it at the
        // next start: written now, they are not (a daemon killed keeps the older file, which
        // costs only those reads).
        if let searchIndex, searchIndex.readSinceSaved > 0 { try? SearchIndexFile.save(searchIndex, in: store.stateFD) }
        tagBuild?.stop()
        tagWatching?.stop()
        sync.settleRead?.stop()
        for look in sync.peerLooks.values { look.stop() }
        voice?.stop()
        noteLook?.stop(store: store)
        recordNotes()
        store.saveLoggedLevels(also: sync.inTransit.mapValues { $0.level }, stamped: true)
        publishPlacesAndGradedDays()
        store.publishLoggedLevels(placed: nil, every: options.publishEvery)
        _ = placesRead?.take()
        placesRead = nil
        store.close()
    }

    /// With `BoxOptions.groupCommit`: the journal record a reply made now must wait for before it
    /// is sent (`CommitPoint.file.flush()`, from any thread); nil when every change is on disk.
    /// Read it after each request, while still holding the box.
    public var commitPoint: CommitPoint? { store.log.commitPoint }

    // MARK: The request prologue

    /// What every request starts from.
    struct Moment {
        var now: Int64
        var today: LogicalDate
    }

    /// Takes in hand changes (R13) and skipped days (R6); returns the current time and date.
    func begin() throws(BoxError) -> Moment {
        let now = options.clock.now()
        let moment = Moment(now: now, today: options.dayClock.logicalDate(at: now))
        try followReplacedFiles()
        for change in try store.refresh(now: now) { try takeIn(change, moment) }
        followNewCards()
        try finishTransit(moment)
        try takeInMendedCards(now: now)
        followNotes(moment)
        try settle(moment)
        if daily.isDone, daily.test?.position == days.position { try complete(moment) }
        try skipEmptyDays(moment)
        return moment
    }

    /// A review log or day record replaced under the daemon — a sync tool writes a newer copy
    /// and renames it over the old one — is opened or read again before anything is appended to
    /// it (docs/sync.md). What is kept by log offset is good up to the bytes the new log shares
    /// with the old one; past that, the running totals are read again and the open test's file is
    /// written again anchored at the new log's end (its queue the cards still to ask).
    func followReplacedFiles() throws(BoxError) {
        var daysChanged = store.refreshPeerDays()
        if dayFile.isReplaced() {
            ownDays = try dayFile.load()
            daysChanged = true
        }
        if daysChanged { days = DayRecord.union([ownDays] + store.peerDayRecords) }
        try store.followReplacedLog()
        guard let kept = store.log.takeReplacement() else { return }
        statistics.forget(past: kept)
        places.forget(past: kept)
        if let saved = placesKept, saved > kept { placesKept = 0 }
        guard var anchored = daily.test, anchored.logOffset > kept else { return }
        anchored.logOffset = store.log.size
        try daily.save(anchored)
    }

    /// R21, R13: a card found damaged and mended by hand since (its missing side put back) is
    /// sound again, and joins the open test as a card that arrived would (R8). Every request
    /// looks, whichever it is, so that `doctor` or `show` as the first call after a repair
    /// takes it in as `status` does (#25). Damaged cards are few; each is one directory read.
    func takeInMendedCards(now: Int64) throws(BoxError) {
        for id in Array(store.damagedCards.keys) where store.damage(of: id) == nil {
            guard let level = store.level(of: id) else { continue }
            try apply(.appeared(id: id, level: level), now: now, log: false)
        }
    }

    /// R13, R8: a change made by hand joins or leaves the open test, and is logged (R16).
    /// - Parameters:
    ///   - origin: how the change came about, for the log: `hand` (found in the store), `copy`
    ///     (found beside the card's other copy), `sync` (settling a card a sync left in two levels).
    ///   - time: the time logged, when not `now` (a hand move's own, `handTime`).
    ///   - made: when the change was made, if earlier than the time logged (`handTime`).
    func apply(_ change: HandChange, now: Int64, log: Bool, origin: LogOrigin = .hand, time: Int64? = nil,
               made: Int64? = nil) throws(BoxError) {
        let now = time ?? now
        if lastShown?.id == change.id { lastShown = nil }
        // A card that came or moved by hand may be a sync tool's delivery: look at it once quiet.
        switch change {
        case .appeared, .moved: if origin != .sync { sync.settlePending.insert(change.id) }
        case .disappeared, .adopted: break
        }
        // An adopted pair was logged by the store as it adopted it.
        let entry: LogEntry?
        let level: Level?
        switch change {
        case .appeared(let id, let to):
            entry = LogEntry(time: now, event: .add, id: id, to: to, origin: origin)
            level = to
        case .moved(let id, let from, let to):
            entry = LogEntry(time: now, event: .move, id: id, from: from, to: to, origin: origin)
            level = to
        case .disappeared(let id, let from):
            entry = LogEntry(time: now, event: .delete, id: id, from: from, origin: origin)
            level = nil
        case .adopted(_, let to):
            entry = nil
            level = to
        }
        if log, var entry {
            entry.made = made.flatMap { $0 < now ? $0 : nil }
            try store.appendToLog([entry], durable: false)
        }
        // A move changes no front; a card that comes or goes changes the fronts in the box.
        if case .moved = change {} else { frontIndex = nil }
        // R21: a card that arrives by hand is looked at now (one card, not the whole store), so
        // that a damaged one stays out of the counts and the test from the start.
        // A part of a card while a sync tool is at work is a partial delivery, not a damaged
        // card: it keeps its place in the test until the store is quiet (docs/sync.md).
        let sound = level == nil || store.damage(of: change.id) == nil || (isSynced && !storeIsQuiet([change.id]))
        if tracksMembership { daily.levelChanged(change.id, to: sound ? level : nil) }
    }

    /// R6: while the open test has no card to show, each past date after the last recorded one
    /// is recorded as skipped. Nothing is skipped while the day record is empty.
    func skipEmptyDays(_ moment: Moment) throws(BoxError) {
        while let last = days.last, last.date.next < moment.today {
            if remaining(atPosition: days.position) > 0 { return }
            let date = last.date.next
            try store.appendToLog([LogEntry(time: moment.now, event: .skip, date: date)], durable: false)
            try recordDay(DayRecord.Entry(date: date, outcome: .skipped))
        }
    }

    /// True while the loaded test's queue follows the cards' levels (R8): the open test, and the
    /// test completed today, which an undo can open again (R15) with the queue R8 defines.
    var tracksMembership: Bool {
        guard let test = daily.test else { return false }
        return test.position == days.position || (test.position == days.position - 1 && test.completed != nil)
    }

    /// R10, R4: records the completion of the open test today. The review log gets it first
    /// (R16), as for a completing grade: it is the journal `reconcileDayRecord` trusts on open.
    func complete(_ moment: Moment) throws(BoxError) {
        guard daily.test?.position == days.position, days.last?.date != moment.today else { return }
        try store.appendToLog([LogEntry(time: moment.now, event: .complete, date: moment.today)], durable: true)
        daily.complete(on: moment.today)
        try recordDay(DayRecord.Entry(date: moment.today, outcome: .completed))
    }

    // MARK: The current test

    /// True when today's test has been completed (R10: it is shown until the next logical date).
    func completedToday(_ moment: Moment) -> Bool {
        guard let last = days.last else { return false }
        return last.date == moment.today && last.outcome == .completed
    }

    /// Cards in the queue of the test at `position`, opened or not.
    func remaining(atPosition position: Int) -> Int {
        if let test = daily.test(at: position) { return test.remaining }
        let counts = store.counts()
        return options.cycle.levels(at: position).reduce(0) { $0 + (counts[$1] ?? 0) }
    }

    /// The test as `Status`, `Prepare` and the others describe it.
    func summary(_ moment: Moment) -> TestSummary {
        if completedToday(moment) {
            let position = days.position - 1
            let completed = daily.test(at: position)
            return TestSummary(date: moment.today, position: position, levels: options.cycle.levels(at: position),
                               state: .completed, remaining: 0, passed: completed?.passed.count ?? 0,
                               failed: completed?.failedCount ?? 0)
        }
        let position = days.position
        let levels = options.cycle.levels(at: position)
        if let test = daily.test(at: position) {
            return TestSummary(date: moment.today, position: position, levels: levels,
                               state: test.remaining > 0 ? .open : .empty, remaining: test.remaining,
                               passed: test.passed.count, failed: test.failedCount, repeating: test.repeatingCount,
                               syncing: sync.inTransit.count)
        }
        let count = remaining(atPosition: position)
        return TestSummary(date: moment.today, position: position, levels: levels,
                           state: count > 0 ? .open : .empty, remaining: count, passed: 0, failed: 0, syncing: sync.inTransit.count)
    }

    /// R11: opens the test of the current position when it is not open yet: its queue is the
    /// cards in its levels, shuffled once from a seed kept with the test.
    func openTest(_ moment: Moment) throws(BoxError) {
        // R23: the day's new cards first, so that they are in the test it opens (or joins). Their
        // renames are made while the queue is shuffled, with them in it; should they fail, the
        // queue is dropped.
        let opening = try beginOpeningDay(moment)
        let position = days.position
        if completedToday(moment) || daily.test?.position == position { return try finishOpeningDay(opening) }
        let levels = options.cycle.levels(at: position)
        let seed = options.seedSource()
        let index = store.cardLevels
        let queue = DailyTestState.shuffledQueue(of: index, damaged: store.damagedCards, seed: seed, at: levels)
        try finishOpeningDay(opening)
        try daily.save(DailyTest(position: position, levels: levels, opened: moment.today, seed: seed,
                                 logOffset: store.log.size, queue: queue, of: index))
        speakAhead(queue: queue, of: index, opening: true)
        MemoryTrim.releaseFreedMemory()
    }

    // MARK: Loading

    /// Reads `.leitner/test` and replays the review log after it. A damaged file is kept aside
    /// as `test.damaged`, reported, and the test rebuilt from the log (`rebuildTest`).
    private func loadTest() throws(BoxError) -> DailyTest? {
        guard FileSystem.exists(TestFile.name, in: store.stateFD) else { return nil }
        guard var loaded = daily.readFile(numberingBy: store.cardLevels), loaded.logOffset <= store.log.size else { return try rebuildTest() }
        for (entry, _) in try store.log.entries(from: loaded.logOffset) {
            DailyTest.replay(entry, into: &loaded, dayClock: options.dayClock)
        }
        return loaded
    }

    /// The open test rebuilt after its file was found damaged: the test of the current position,
    /// its queue the cards now in its levels in a new order, and the grades, undos and changes
    /// logged since the last completed or skipped day replayed over it, so that its passed and
    /// failed cards are kept. The damaged file is kept as `test.damaged` for a person to look at.
    private func rebuildTest() throws(BoxError) -> DailyTest? {
        let filePath = daily.filePath
        daily.keepDamagedFile()
        var start = 0
        var since: [LogEntry] = []
        try store.log.forEachEntry(from: 0) { entry, end in
            if entry.event == .complete || entry.event == .skip {
                start = end
                since = []
            } else {
                since.append(entry)
            }
        }
        let today = options.dayClock.logicalDate(at: options.clock.now())
        if let last = days.last, last.date == today, last.outcome == .completed {
            // Today's test is completed: the next one opens tomorrow, from its levels then.
            openingProblems.append(StoreProblem(
                kind: .damagedState, path: filePath,
                reason: "the file of today's completed test was damaged; tomorrow's test opens as usual",
                advice: "the damaged file is kept as '\(filePath).damaged'; remove it once looked at"))
            return nil
        }
        let position = days.position
        let levels = options.cycle.levels(at: position)
        let opened = since.first.map { options.dayClock.logicalDate(at: $0.time) } ?? options.dayClock.logicalDate(at: options.clock.now())
        let graded = Set(since.compactMap { $0.event == .grade ? $0.id : nil })
        let seed = options.seedSource()
        // The cards of its levels, and those graded since, which a grade may have moved out.
        let index = store.cardLevels
        let queue = DailyTestState.shuffledQueue(of: index, damaged: store.damagedCards, seed: seed) { entry, level in
            levels.contains(level) || (!graded.isEmpty && graded.contains(index.id(ofEntry: entry)))
        }
        let base = DailyTest(position: position, levels: levels, opened: opened, seed: seed, logOffset: start, queue: queue, of: index)
        var rebuilt = base
        for entry in since { DailyTest.replay(entry, into: &rebuilt, dayClock: options.dayClock) }
        try daily.write(base)
        openingProblems.append(StoreProblem(
            kind: .damagedState, path: filePath,
            reason: "the open test's file was damaged; the test was rebuilt from the review log "
                + "(\(rebuilt.passed.count) passed, \(rebuilt.failedCount) failed kept; the cards' order is new)",
            advice: "the damaged file is kept as '\(filePath).damaged'; remove it once looked at"))
        return rebuilt
    }

    /// The first logical date from `.leitner/created`; a store without it (made before the file
    /// existed) takes the date of its oldest day-record or log entry, or today for a new store,
    /// and the file is written.
    private static func loadFirstDate(store: Store, days: DayRecord, dayClock: DayClock,
                                      today: LogicalDate) throws(BoxError) -> LogicalDate {
        let name = "created"
        if let bytes = try? FileSystem.readFile(name, in: store.sharedFD, limit: 64),
           let date = LogicalDate(String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "") {
            return date
        }
        var first = today
        if let oldest = days.entries.first?.date, oldest < first { first = oldest }
        if let logged = store.log.firstEntry().map({ dayClock.logicalDate(at: $0.time) }), logged < first { first = logged }
        do {
            try FileSystem.writeAtomically(Array("\(first)\n".utf8), to: name, in: store.sharedFD)
        } catch {
            throw .failing(.write, store.sharedPath + "/" + name, error)
        }
        return first
    }

    /// R18: the review log is the journal of completions; the day record follows it. A completion
    /// logged but not recorded is recorded; one recorded but undone since is withdrawn.
    private func reconcileDayRecord() throws(BoxError) {
        guard let test = daily.test else { return }
        if let date = test.completed, days.position == test.position,
           days.last.map({ $0.date < date }) ?? true {
            try recordDay(DayRecord.Entry(date: date, outcome: .completed))
        } else if test.completed == nil, days.position == test.position + 1, days.last?.outcome == .completed,
                  let last = days.last, last.date >= test.opened {
            try withdrawCompletion(of: last.date)
        }
    }

    /// Adds an entry to this device's day record (R4, R6), and so to the box's.
    func recordDay(_ entry: DayRecord.Entry) throws(BoxError) {
        try dayFile.append(entry, to: &ownDays)
        days = DayRecord.union([ownDays] + store.peerDayRecords)
    }

    /// R15: withdraws this device's completion of `date` (an undone completing grade). Only the
    /// device's own record changes: a completion of that date another device recorded stands.
    func withdrawCompletion(of date: LogicalDate) throws(BoxError) {
        guard let last = ownDays.last, last.date == date, last.outcome == .completed else { return }
        try dayFile.removeLast(from: &ownDays)
        days = DayRecord.union([ownDays] + store.peerDayRecords)
    }
}
