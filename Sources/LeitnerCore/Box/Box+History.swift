import LeitnerSystem

/// History and forecast: `Calendar` and `Log` (R16).
extension Box {
    /// The longest range `Calendar` answers, in days.
    public static let maxCalendarDays = 3660

    /// The largest `limit` of `Log` and `Search` (2^31 − 1): a larger one is taken as this — more
    /// entries or lines than a box holds — so that no arithmetic on a client's number can
    /// overflow (docs/protocol.md, "Numbers from clients").
    public static let maxLimit = Int(Int32.max)

    /// Days from `from` to `to`, both included: past days from the day record (completed,
    /// skipped, or missed) with the distinct cards graded that day; today; and upcoming days
    /// projected from the cycle with the cards now in their levels. Days before the box's first
    /// logical date are `none`: no test was due then. Each day has its `arrivals` from `new/`.
    /// - Throws: `invalidParameter` for a date that is not `YYYY-MM-DD` or a range that is
    ///   reversed or too long.
    public func calendar(from: String, to: String) throws(BoxError) -> [CalendarDay] {
        guard let first = LogicalDate(from) else { throw .invalidParameter(name: "from", reason: "not a date (YYYY-MM-DD): '\(from)'") }
        guard let last = LogicalDate(to) else { throw .invalidParameter(name: "to", reason: "not a date (YYYY-MM-DD): '\(to)'") }
        guard first <= last, last.ordinal - first.ordinal < Box.maxCalendarDays else {
            throw .invalidParameter(name: "to", reason: "the range must run forwards and span at most \(Box.maxCalendarDays) days")
        }
        let moment = try begin()
        let current = summary(moment)
        return try calendarDays(from: first, to: last, moment, current, arrivals: try arrivalForecast(moment))
    }

    /// `calendar`'s days from `first` to `last`, with today's test `current` and the new cards'
    /// `arrivals` (`arrivalForecast`), which `Status` has already.
    func calendarDays(from first: LogicalDate, to last: LogicalDate, _ moment: Moment, _ current: TestSummary,
                      arrivals: ArrivalForecast?) throws(BoxError) -> [CalendarDay] {
        let counts = store.counts()
        func cardsNow(_ levels: [Level]) -> Int { levels.reduce(0) { $0 + (counts[$1] ?? 0) } }
        if first < moment.today {
            try updateGradedDays()
            try updatePeerTotals(tallies: false, graded: true)
        }
        let peerGraded = Array(statistics.peerGradedDays.values)
        var result: [CalendarDay] = []
        var recordIndex = days.entries.firstIndex { $0.date >= first } ?? days.entries.count
        var date = first
        while date <= last {
            if date < firstDate, date < moment.today {
                result.append(CalendarDay(date: date, state: .none, levels: [], cards: 0))
            } else if date < moment.today {
                while recordIndex < days.entries.count, days.entries[recordIndex].date < date { recordIndex += 1 }
                let entry = recordIndex < days.entries.count && days.entries[recordIndex].date == date
                    ? days.entries[recordIndex] : nil
                let state: CalendarDay.State = switch entry?.outcome {
                case .completed: .completed
                case .skipped: .skipped
                case nil: .missed
                }
                // The test open that day: the one at the number of entries before it (R5).
                result.append(CalendarDay(date: date, state: state, levels: options.cycle.levels(at: recordIndex),
                                          cards: peerGraded.reduce(statistics.gradedDays.count(on: date)) { $0 + $1.count(on: date) }))
            } else if date == moment.today {
                result.append(CalendarDay(date: date, state: current.state == .completed ? .completed : .today,
                                          levels: current.levels, cards: cardsNow(current.levels)))
            } else {
                let levels = options.cycle.levels(at: current.position + (date.ordinal - moment.today.ordinal))
                result.append(CalendarDay(date: date, state: .upcoming, levels: levels, cards: cardsNow(levels)))
            }
            // Admissions logged that day (with today's still to come), or forecast.
            result[result.count - 1].arrivals = date > moment.today
                ? arrivals?.cards(on: date) ?? 0
                : places.admitted(on: date) + (date == moment.today ? arrivals?.cards(on: date) ?? 0 : 0)
            date = date.next
        }
        return result
    }

    /// `gradedDays`, brought up to date with the log (read afresh if the log was cut short).
    func updateGradedDays() throws(BoxError) {
        // A piece at a time: the log may hold a million lines.
        let dayClock = options.dayClock
        try store.log.forEachLine(from: gradedDaysReadUpTo()) { line, end in
            statistics.gradedDays.read(line, end: end, dayClock: dayClock)
        }
        keepGradedDays(statistics.gradedDays, of: store.device)
    }

    /// How far this device's log was read for `gradedDays`: their file taken first after a
    /// start, and the log read afresh when it was cut short since.
    func gradedDaysReadUpTo() -> Int {
        if statistics.gradedKept[store.device] == nil, statistics.gradedDays.logOffset == 0 {
            statistics.gradedDays = keptGradedDays(of: store.device)
        }
        if statistics.gradedDays.logOffset > store.log.size { statistics.gradedDays = GradedDays() }
        return statistics.gradedDays.logOffset
    }

    /// The day clock's mark on a kept file of dates (graded days, the places' admissions): dates
    /// reckoned by another `DayStartsAt=` or time zone are not taken.
    var keptDatesClock: String { Box.keptDatesClock(options.dayClock) }

    /// `keptDatesClock` for the day clock `clock`.
    static func keptDatesClock(_ clock: DayClock) -> String {
        "\(clock.start(of: LogicalDate(ordinal: 20_454)))/\(clock.start(of: LogicalDate(ordinal: 20_635)))"
    }

    /// `device`'s graded days as its file keeps them, when its log still holds the bytes they
    /// were read up to (`PeerReadMarks.check`); else none, and the log is read from its start.
    func keptGradedDays(of device: String) -> GradedDays {
        statistics.gradedKept[device] = 0
        guard let days = gradedDays(in: try? FileSystem.readFile(GradedDays.fileName(of: device), in: store.stateFD, limit: 8 << 20), of: device)
                ?? publishedGradedDays(of: device) else { return GradedDays() }
        statistics.gradedKept[device] = days.logOffset
        return days
    }

    /// The graded days `device` published beside its log (`PublishedHistory`), when they hold:
    /// a store without its local state reads only the lines after them.
    func publishedGradedDays(of device: String) -> GradedDays? {
        let published = gradedDays(in: PublishedHistory.read(PublishedHistory.gradedDays, of: device, in: store.devicesFD, limit: 8 << 20),
                                   of: device)
        if let published, device == store.device { store.log.publishedOffsets[PublishedHistory.gradedDays] = published.logOffset }
        return published
    }

    /// The graded days a file's `bytes` hold, when they were reckoned by this day clock and
    /// `device`'s log still holds the bytes they were read up to (`PeerReadMarks.check`).
    private func gradedDays(in bytes: [UInt8]?, of device: String) -> GradedDays? {
        guard let bytes else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let days = GradedDays(decoding: text, clock: keptDatesClock), let check = GradedDays.check(inFile: text),
              PeerReadMarks.withLog(device, in: store.devicesFD, { PeerReadMarks.check($0, before: days.logOffset) }) == check
        else { return nil }
        return days
    }

    /// Writes `device`'s graded days to their file once they were read `GradedDays.saveEvery`
    /// bytes past the last kept. A failure costs a longer reading after the next start, and is
    /// not the request's.
    func keepGradedDays(_ days: GradedDays, of device: String) {
        guard days.logOffset - (statistics.gradedKept[device] ?? 0) >= GradedDays.saveEvery,
              let check = PeerReadMarks.withLog(device, in: store.devicesFD, { PeerReadMarks.check($0, before: days.logOffset) })
        else { return }
        statistics.gradedKept[device] = days.logOffset
        try? FileSystem.writeAtomically(Array(days.encoded(check: check, clock: keptDatesClock).utf8),
                                        to: GradedDays.fileName(of: device), in: store.stateFD)
    }

    /// The review log (R16), every device's merged in time order (docs/sync.md): entries since a time (RFC 3339) or a logical date (its start), the
    /// last `limit` of them.
    /// - Throws: `invalidParameter` naming `since` when it is neither.
    public func log(since: String?, limit: Int?) throws(BoxError) -> [LogEntry] {
        let reader = try logReader(since: since, limit: limit)
        var entries: [LogEntry] = []
        while true {
            let next = try reader.next(upTo: 4096)
            if next.isEmpty { return entries }
            entries += next
        }
    }

    /// The review log as `log(since:limit:)` gives it, to be read a piece at a time: the reader
    /// reads the log as it is now, on a descriptor of its own, and needs the box no more (a
    /// streamed `Log`, docs/daemon.md). Hand changes are taken in first (R13), so that they are in it.
    /// A `limit` below 0 is 0, one above `Box.maxLimit` is `Box.maxLimit`.
    /// - Throws: `invalidParameter` naming `since` when it is neither a time nor a date.
    public func logReader(since: String?, limit: Int?) throws(BoxError) -> MergedLogReader {
        let limit = limit.map { min(max(0, $0), Box.maxLimit) }
        var start: Int64?
        if let since {
            if let date = LogicalDate(since) {
                start = options.dayClock.start(of: date)
            } else if let time = DayClock.parseRFC3339(since) {
                start = time
            } else {
                throw .invalidParameter(name: "since", reason: "neither a date (YYYY-MM-DD) nor an RFC 3339 time: '\(since)'")
            }
        }
        // Hand changes since the last request are history too (R13, R16): take them in first.
        _ = try begin()
        return try mergedLogReader(since: start, limit: limit)
    }
}
