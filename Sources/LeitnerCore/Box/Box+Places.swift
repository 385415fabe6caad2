import LeitnerSystem

/// The places beside the levels (R23, R24): admitting new cards, suspending and unsuspending,
/// and leeches. What the log says about them is `places` (`PlacesLedger`), caught up before each
/// use with the lines appended since, and kept across restarts in its file.
extension Box {
    /// Reads the review log's lines appended since the ledger last read it; the first time, from
    /// where the ledger kept in its file was read to (`PlacesLedger.fileName`).
    /// - Throws: `storeFailure` naming the log when it cannot be read.
    func catchUpPlaces() throws(BoxError) {
        takeKeptPlaces()
        guard places.logOffset < store.log.size else { return }
        let dayClock = options.dayClock
        // The week's row reads the same lines when it is as far (after a start with neither file
        // kept, both from the start of a year's log): one reading serves both, not two.
        let alsoGraded = gradedDaysReadUpTo() == places.logOffset
        try store.log.forEachLine(from: places.logOffset) { line, end in
            places.take(line, dayClock: dayClock)
            places.logOffset = end
            if alsoGraded { statistics.gradedDays.read(line, end: end, dayClock: dayClock) }
        }
        keepPlaces()
        if alsoGraded { keepGradedDays(statistics.gradedDays, of: store.device) }
    }

    /// At the ledger's first use after a start: the ledger its file keeps, when it holds.
    private func takeKeptPlaces() {
        guard placesKept == nil else { return }
        placesKept = 0
        if places.logOffset == 0, let kept = keptPlaces() {
            places = kept
            placesKept = kept.logOffset
        }
    }

    /// What else takes the open's reading of the whole log (a store without `logged-levels`,
    /// `Store.changesWhileClosed`): the ledger and this device's graded days, each when no kept
    /// file of it holds and it would read the log from its start at the first request. A store
    /// copied without its local state, or never opened, then reads its year of log once, not at
    /// the open and again at the first request. Nil when both have their files.
    func wholeLogReaderAtOpen() -> ((LogLine.Fields, Int) -> Void)? {
        takeKeptPlaces()
        let ledger = places.logOffset == 0
        let graded = gradedDaysReadUpTo() == 0
        guard ledger || graded else { return nil }
        let dayClock = options.dayClock
        return { line, end in
            if ledger {
                self.places.take(line, dayClock: dayClock)
                self.places.logOffset = end
            }
            if graded { self.statistics.gradedDays.read(line, end: end, dayClock: dayClock) }
        }
    }

    /// Keeps in their files what the open's reading gave the ledger and the graded days
    /// (`wholeLogReaderAtOpen`), as their own readings do; nothing when it gave them nothing.
    func keepWholeLogReadAtOpen() {
        keepPlaces()
        keepGradedDays(statistics.gradedDays, of: store.device)
    }

    /// The ledger as its file keeps it, when this device's log still holds the bytes it was read
    /// up to (`PeerReadMarks.check`); without it, the ledger this device published beside its log
    /// (`PublishedHistory`); else nil, and the log is read from its start. The files as the open
    /// read them (`PlacesRead`), judged now; one it did not read, read now.
    private func keptPlaces() -> PlacesLedger? {
        let read = placesRead?.take()
        placesRead = nil
        let local = read.map { $0.local } ?? (try? FileSystem.readFile(PlacesLedger.fileName, in: store.stateFD, limit: PlacesLedger.fileLimit))
            .flatMap { PlacesLedger.decoded($0, clock: keptDatesClock) }
        if let local, holds(local) { return local.ledger }
        if let published = read?.published { return taken(published) }
        return publishedPlaces()
    }

    /// The ledger this device published beside its log, when it holds.
    private func publishedPlaces() -> PlacesLedger? {
        taken(PublishedHistory.read(PublishedHistory.places, of: store.device, in: store.devicesFD, limit: PlacesLedger.fileLimit)
            .flatMap { PlacesLedger.decoded($0, clock: keptDatesClock) })
    }

    /// The published ledger `published`, when it holds (its offset noted).
    private func taken(_ published: PlacesRead.Decoded?) -> PlacesLedger? {
        guard let published, holds(published) else { return nil }
        store.log.publishedOffsets[PublishedHistory.places] = published.ledger.logOffset
        return published.ledger
    }

    /// True when this device's log still holds the bytes before the decoded ledger's offset.
    private func holds(_ decoded: PlacesRead.Decoded) -> Bool {
        PlacesRead.holds(decoded, device: store.device, devicesFD: store.devicesFD, logSize: store.log.size)
    }

    /// Publishes beside this device's log what its lines say of the places and of the graded
    /// days (`PublishedHistory`), each when the log is `BoxOptions.publishEvery` past its
    /// published file: brought up to the log's end first (a few lines at a stop). At a stop, and
    /// at an open that read the whole log. A log replaced under the box is left for the next open.
    func publishPlacesAndGradedDays() {
        let size = store.log.size
        guard size > 0, !store.log.isReplaced() else { return }
        let every = max(options.publishEvery, 1)
        func publishedAt(_ name: String, _ read: () -> Void) -> Int {
            if store.log.publishedOffsets[name] == nil { read() }
            return store.log.publishedOffsets[name] ?? 0
        }
        func publish(_ bytes: (UInt32) -> [UInt8], as name: String, at offset: Int) {
            guard offset > 0, let check = PeerReadMarks.withLog(store.device, in: store.devicesFD, { PeerReadMarks.check($0, before: offset) }),
                  PublishedHistory.write(bytes(check), as: name, in: store.deviceFD) else { return }
            store.log.publishedOffsets[name] = offset
        }
        if size - publishedAt(PublishedHistory.places, { _ = publishedPlaces() }) >= every, (try? catchUpPlaces()) != nil {
            publish({ places.encoded(check: $0, clock: keptDatesClock) }, as: PublishedHistory.places, at: places.logOffset)
        }
        if size - publishedAt(PublishedHistory.gradedDays, { _ = publishedGradedDays(of: store.device) }) >= every,
           (try? updateGradedDays()) != nil {
            publish({ Array(statistics.gradedDays.encoded(check: $0, clock: keptDatesClock).utf8) },
                    as: PublishedHistory.gradedDays, at: statistics.gradedDays.logOffset)
        }
    }

    /// Writes the ledger to its file once the log was read `PlacesLedger.saveEvery` bytes past
    /// the last kept. A failure costs a longer reading after the next start, and is not the
    /// request's.
    private func keepPlaces() {
        guard places.logOffset - (placesKept ?? 0) >= PlacesLedger.saveEvery,
              let check = PeerReadMarks.withLog(store.device, in: store.devicesFD, { PeerReadMarks.check($0, before: places.logOffset) })
        else { return }
        placesKept = places.logOffset
        try? FileSystem.writeAtomically(places.encoded(check: check, clock: keptDatesClock), to: PlacesLedger.fileName, in: store.stateFD)
    }

    /// R23: how many new cards may still enter level 1 on `moment.today` (nil: no limit).
    func admissionRoom(_ moment: Moment) throws(BoxError) -> Int? {
        guard let perDay = options.newPerDay else { return nil }
        try catchUpPlaces()
        return max(0, perDay - places.admitted(on: moment.today))
    }

    /// R23: true once the day opened today — the first `Prepare`, `Next` or answer of the date
    /// that succeeded, whether the test was open or completed: a card added from then on goes
    /// straight to level 1 while the day's admissions are fewer than `NewPerDay=`; before, it
    /// waits in `new/` to be admitted, in order, at the opening. After a restart, a test opened
    /// today, the log's admissions of today or the `day-opened` file say it.
    func dayOpened(_ moment: Moment) throws(BoxError) -> Bool {
        if daily.openedDay == moment.today || daily.test?.opened == moment.today { return true }
        try catchUpPlaces()
        return places.admitted(on: moment.today) > 0
    }

    /// Where a card added without a level goes (R1, R23), and the origin its `add` line gets:
    /// level 1 at once without pacing; level 1 as an admission when the day's test has opened
    /// and `room` (the admissions left today, counted down by the caller) allows; else `new/`.
    func newCardTarget(_ moment: Moment, room: inout Int?) throws(BoxError) -> (level: Level, origin: LogOrigin?) {
        guard options.newPerDay != nil else { return (.one, nil) }
        guard let left = room, left > 0, try dayOpened(moment) else { return (.new, nil) }
        room = left - 1
        return (.one, .admit)
    }

    /// `newCardTarget` for a new card and its reverse (R28), which go in together, beside each
    /// other: into level 1, each an admission, only when today's room takes both; else both
    /// wait in `new/`, to be admitted as any two cards are.
    func newPairTarget(_ moment: Moment, room: inout Int?) throws(BoxError) -> (level: Level, origin: LogOrigin?) {
        let before = room
        let first = try newCardTarget(moment, room: &room)
        guard first.origin == .admit else { return first }
        if try newCardTarget(moment, room: &room).origin == .admit { return first }
        room = before
        return (.new, nil)
    }

    /// The admissions journaled together: their log lines and renames hold each id twice, so
    /// 64 cards of the longest ids (128 bytes) make a record of about 22 KiB, a third of the
    /// journal (`Journal.capacity`); of ids of 20 bytes, about 8 KiB.
    static let admissionsPerRecord = 64

    /// R23: the cards the day's opening admits from `new/`, in the order they arrived: up to
    /// `NewPerDay=` (fewer the more were admitted today already), none once the day opened.
    func admissionPlan(_ moment: Moment) throws(BoxError) -> [String] {
        let waiting = store.counts()[.new] ?? 0
        guard waiting > 0, try !dayOpened(moment) else { return [] }
        let room = try admissionRoom(moment) ?? waiting
        guard room > 0 else { return [] }
        return places.admissionOrder(in: store.cardLevels, limit: room) { leastWaitingIDs($0) }.filter { !store.isDamaged($0) }
    }

    /// R23: the `limit` least ids of `new/`, in byte order: from the view kept since the open
    /// (`LeastWaiting`), walked again only when it lost track or ran short; a larger limit than
    /// it keeps walks `new/` itself.
    func leastWaitingIDs(_ limit: Int) -> [String] {
        guard limit <= LeastWaiting.capacity else {
            let index = store.cardLevels
            return index.leastEntries(limit, at: .new).map { index.id(ofEntry: $0) }
        }
        followNewCards()
        if let least = leastWaiting?.first(limit) { return Array(least) }
        if let old = leastWaiting { store.closeCursor(old.cursor) }
        let walked = LeastWaiting(store: store)
        leastWaiting = walked
        return Array(walked.first(limit) ?? [])
    }

    /// Brings the kept least ids of `new/` up to the store's changes (every request, `begin`):
    /// dropped when the feed lost changes, to be walked again at the next opening that needs it.
    func followNewCards() {
        // In place: a copy held across `follow` would copy the ids kept.
        guard leastWaiting?.follow(store: store) == false, let lost = leastWaiting else { return }
        store.closeCursor(lost.cursor)
        leastWaiting = nil
    }

    /// R23: opens the day — the first `Prepare`, `Next` or answer of a logical date that
    /// succeeds (the callers check first what would fail, R16) — admitting `admissionPlan`'s
    /// cards into level 1, each a logged move (origin `admit`), so that they are in the test that
    /// opens (or joins, R8). Once a date, also across restarts (`dayOpened`). The last record's
    /// renames are still being made when it returns: the index has the cards in level 1 already,
    /// and `finishOpeningDay` waits for them (the test's queue is built meanwhile).
    /// - Returns: nil when the day was open.
    func beginOpeningDay(_ moment: Moment) throws(BoxError) -> DayOpening? {
        guard try !dayOpened(moment) else { return nil }
        let admitted = try admissionPlan(moment)
        // A few records of many moves each, one sync a record, rather than a sync per card
        // (docs/performance.md, "Admissions"); each record well within the journal.
        var start = 0
        var last: CardMoves?
        while start < admitted.count {
            if let last { try finishAdmitting(last) }
            let ids = Array(admitted[start..<min(admitted.count, start + Box.admissionsPerRecord)])
            try makeRoom(for: ids, in: .one, servedFrom: .new)
            last = try store.beginMovingCards(ids, from: .new, to: .one, journal: ids.map {
                LogEntry(time: moment.now, event: .move, id: $0, from: .new, to: .one, origin: .admit)
            })
            start += ids.count
        }
        return DayOpening(moment: moment, admitted: !admitted.isEmpty, last: last)
    }

    /// The day's opening begun by `beginOpeningDay`, its last moves not yet finished.
    struct DayOpening {
        let moment: Moment
        let admitted: Bool
        let last: CardMoves?
    }

    /// Ends the day's opening: waits for its last admissions (should they fail, they are undone,
    /// the day is not opened and the error thrown), then marks the day opened.
    func finishOpeningDay(_ opening: DayOpening?) throws(BoxError) {
        guard let opening else { return }
        if let last = opening.last { try finishAdmitting(last) }
        let moment = opening.moment
        // The log's admissions say the day opened; so does the test file when a test opens now.
        // Else (none admitted, a test carried over or completed) its own file says it.
        let opensTest = !completedToday(moment) && daily.test?.position != days.position
        try daily.markDayOpened(moment.today, durably: !opening.admitted && !opensTest)
    }

    /// Waits for admissions' renames and logs them, then tells the test of them (R8).
    private func finishAdmitting(_ moves: CardMoves) throws(BoxError) {
        try store.finishMoving(moves)
        for id in moves.ids {
            if lastShown?.id == id { lastShown = nil }
            if tracksMembership { daily.levelChanged(id, to: .one) }
        }
    }

    /// The cards the next admissions will bring and their logical date (R23): today's, while the
    /// day's test has not opened, else the next date's; nil without pacing or with none waiting.
    func nextArrivals(_ moment: Moment) throws(BoxError) -> (date: LogicalDate, cards: Int)? {
        let waiting = store.counts()[.new] ?? 0
        guard waiting > 0 else { return nil }
        guard let perDay = options.newPerDay else {
            return (try dayOpened(moment) ? moment.today.next : moment.today, waiting)
        }
        if try dayOpened(moment) {
            // Today's admissions are made; what is left of today's room is taken by cards added
            // today, not by those waiting.
            return perDay > 0 ? (moment.today.next, min(perDay, waiting)) : nil
        }
        let room = max(0, perDay - places.admitted(on: moment.today))
        return room > 0 ? (moment.today, min(room, waiting)) : (perDay > 0 ? (moment.today.next, min(perDay, waiting)) : nil)
    }

    /// The forecast of the cards that `new/` brings into level 1 day by day (R23): the next
    /// admissions, then `NewPerDay=` a day until `new/` is empty; nil when none waits, or none
    /// will be admitted (`NewPerDay=0`).
    func arrivalForecast(_ moment: Moment) throws(BoxError) -> ArrivalForecast? {
        try catchUpPlaces()
        guard let next = try nextArrivals(moment) else { return nil }
        return ArrivalForecast(first: next.date, firstCards: next.cards, waiting: store.counts()[.new] ?? 0,
                               perDay: options.newPerDay)
    }

    /// R24: moves cards to `suspended/` (`Suspend`): each leaves the test, and `unsuspend`
    /// brings it back to the level it left. A card already suspended is left as it is.
    /// Every id is checked before any card moves: an unknown or damaged one changes nothing.
    /// - Throws: `noSuchCard`, `invalidCardId`, `storeFailure` (R21: a damaged card).
    public func suspend(ids: [String]) throws(BoxError) -> [Card] {
        try moveAll(ids) { (_, _) throws(BoxError) in .suspended }
    }

    /// R24: moves suspended cards back (`Unsuspend`): each to the level it was suspended from,
    /// as the log says, else to level 1.
    /// Every id is checked before any card moves: one not suspended changes nothing.
    /// - Throws: `notSuspended`, `noSuchCard`, `invalidCardId`, `storeFailure`.
    public func unsuspend(ids: [String]) throws(BoxError) -> [Card] {
        try moveAll(ids) { (id, from) throws(BoxError) in
            guard from == .suspended else { throw .notSuspended(id: id, level: from.name) }
            // The log read after the request took in hand changes (R13): a card moved into
            // `suspended/` by hand just before is back where the hand took it from.
            try catchUpPlaces()
            return places.suspendedFrom[id] ?? .one
        }
    }

    /// Moves each of `ids` where `target` says, each a logged move (R16) as `move` makes it;
    /// every card is looked at (and read, R21) before the first moves.
    private func moveAll(_ ids: [String], target: (String, Level) throws(BoxError) -> Level) throws(BoxError) -> [Card] {
        for id in ids { try CardID.validate(id) }
        let moment = try begin()
        var planned: [(card: Card, from: Level, to: Level)] = []
        var seen = Set<String>()
        for id in ids where seen.insert(id).inserted {
            guard let from = store.level(of: id) else { throw .noSuchCard(id: id) }
            let to = try target(id, from)
            planned.append((try store.card(id, withText: true), from, to))
        }
        for (card, from, to) in planned where from != to {
            try moveServedCard(card.id, from: from, to: to, journal: [
                LogEntry(time: moment.now, event: .move, id: card.id, from: from, to: to),
            ])
            if lastShown?.id == card.id { lastShown = nil }
            if tracksMembership { daily.levelChanged(card.id, to: to) }
        }
        if daily.isDone { try complete(moment) }
        // R17: the reply's paths once every card moved: a reverse's sides are its card's, which
        // may have moved after it in this same request.
        return planned.map { store.relocated($0.card, to: $0.to) }
    }

    /// R24: the cards now in the box answered wrong at least `LeechAfter=` times since they
    /// last entered `1`–`7` from `new/` or `suspended/`, most wrong answers first, then by id;
    /// none when `LeechAfter=0`.
    func leeches() throws(BoxError) -> [Leech] {
        guard options.leechAfter > 0 else { return [] }
        try catchUpPlaces()
        var result: [Leech] = []
        for (id, count) in places.wrongSince where count >= options.leechAfter {
            guard let level = store.level(of: id) else { continue }
            result.append(Leech(id: id, failures: count, level: level))
        }
        return result.sorted { $0.failures != $1.failures ? $0.failures > $1.failures : $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
    }

    /// How many cards `leeches` gives, without making and ordering them: `Status` says only the
    /// number, and a year's history may hold tens of thousands (sorting them by count and id took
    /// four fifths of the first `Status` after a start at 100,000 cards). Kept until the log or
    /// the cards in the box change (`PlacesLedger.leechCount`).
    func leechCount() throws(BoxError) -> Int {
        guard options.leechAfter > 0 else { return 0 }
        try catchUpPlaces()
        return places.leechCount(threshold: options.leechAfter, cards: store.cardSetVersion) { store.level(of: $0) != nil }
    }

    /// R24 with `SuspendLeeches=yes`: true when a wrong answer to `id` now makes it a leech (its
    /// count reaches `LeechAfter=`), so that the grade moves it to `suspended/` instead.
    func wrongAnswerMakesLeech(_ id: String) throws(BoxError) -> Bool {
        guard options.suspendLeeches, options.leechAfter > 0 else { return false }
        try catchUpPlaces()
        return (places.wrongSince[id] ?? 0) + 1 == options.leechAfter
    }
}
