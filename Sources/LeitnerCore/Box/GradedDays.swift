/// Distinct cards graded on each day, undone grades left out: the past days of `Calendar`.
/// Read from the review log once, then brought up to date from where the reading stopped, so
/// that asking for this week (`leitnerctl status` does) never reads a year of log again.
///
/// Only the last day with grades is kept card by card: an undo takes back a grade of its own
/// day (R15), so the days before it are final and kept as counts. A grade dated before that
/// day, which only a clock set back can write, counts on its own day as one more card.
struct GradedDays {
    /// The log offset read up to: the end of the last whole line read.
    private(set) var logOffset = 0
    private var finalCounts: [LogicalDate: Int] = [:]
    private var lastDay: LogicalDate?
    /// The cards graded on `lastDay`, each an entry number by the bytes of its id: a year's log
    /// is a million grades, each looked up where its id lies in the line, with no string made.
    /// Ids are told apart as strings are (`LogLine.withIDBytes`). Nothing is removed, so
    /// the numbers stand until the day changes.
    private var lastDayIDs = CardIndex()
    /// Entry number → the card's grades on `lastDay` not undone.
    private var lastDayCounts: [Int32] = []
    /// The cards with a grade on `lastDay` not undone.
    private var lastDayCards = 0
    /// The grades of `lastDay` not undone, in order, as entry numbers: what an undo takes back.
    /// A grade that names no card is `namesNoCard`, so that an undo after it takes back that
    /// grade, not another card's before it.
    private var lastDayGrades: [UInt32] = []
    private static let namesNoCard = UInt32.max
    /// How the file writes `namesNoCard` among the ids: no card's id holds a `/` (R20).
    private static let namesNoCardInFile = "/"
    /// Grades come a day at a time: one day's bounds date every grade in it.
    private var day: (start: Int64, end: Int64, date: LogicalDate)?

    /// Takes in the log's next line from `logOffset` on, which ends at `end`.
    mutating func read(_ line: LogLine.Fields, end: Int, dayClock: DayClock) {
        logOffset = end
        switch line.event {
        case .grade:
            guard let id = line.id else { return }
            let date = date(of: line.time, dayClock: dayClock)
            LogLine.withIDBytes(id, composed: true) { bytes in
                // An id longer than any card's (R20) is a hand-written or damaged line's: it names
                // no card, and the index of the day's cards keeps no longer id.
                guard bytes.count <= CardID.maxLength else {
                    if lastDay != nil { lastDayGrades.append(Self.namesNoCard) }
                    return
                }
                add(bytes, on: date)
            }
        case .undo:
            guard let number = lastDayGrades.popLast(), number != Self.namesNoCard else { return }
            lastDayCounts[Int(number)] -= 1
            if lastDayCounts[Int(number)] == 0 { lastDayCards -= 1 }
        default:
            return
        }
    }

    /// Distinct cards graded on `date`.
    func count(on date: LogicalDate) -> Int {
        date == lastDay ? lastDayCards : finalCounts[date] ?? 0
    }

    private mutating func add(_ id: UnsafeBufferPointer<UInt8>, on date: LogicalDate) {
        if let lastDay, date < lastDay {
            finalCounts[date, default: 0] += 1
            return
        }
        if date != lastDay {
            if let lastDay, lastDayCards > 0 { finalCounts[lastDay] = lastDayCards }
            lastDay = date
            lastDayIDs = CardIndex(minimumCapacity: lastDayCounts.count)
            lastDayCounts.removeAll(keepingCapacity: true)
            lastDayCards = 0
            lastDayGrades.removeAll(keepingCapacity: true)
        }
        let number = lastDayIDs.intern(bytes: id)
        if Int(number) == lastDayCounts.count { lastDayCounts.append(0) }
        lastDayCounts[Int(number)] += 1
        if lastDayCounts[Int(number)] == 1 { lastDayCards += 1 }
        lastDayGrades.append(number)
    }

    private mutating func date(of time: Int64, dayClock: DayClock) -> LogicalDate {
        if let day, time >= day.start, time < day.end { return day.date }
        let date = dayClock.logicalDate(at: time)
        day = (dayClock.start(of: date), dayClock.start(of: date.next), date)
        return date
    }
}

extension GradedDays {
    /// The file in `.leitner/local.DEVICE/` that keeps a device's graded days across restarts
    /// (docs/store-format.md): without it, the first `Status` after a start read every device's
    /// whole log again for the week's row — a second machine's year of history, a million
    /// lines, took seconds.
    static func fileName(of device: String) -> String { "graded-days." + device }

    /// Written when the log was read this far past the last save: a restart reads at most that
    /// much again, and a session of grades writes nothing.
    static let saveEvery = 1 << 20

    /// What the counts hold, for the file: the offset and the check of the 64 bytes before it
    /// (`PeerReadMarks.check`), the day clock the dates were reckoned by, the last day's grades
    /// in order, and the final counts.
    func encoded(check: UInt32, clock: String) -> String {
        var text = "\(logOffset)\t\(String(check, radix: 16))\t\(clock)\t\(lastDay?.description ?? "-")\n"
        text += lastDayGrades.map { $0 == Self.namesNoCard ? Self.namesNoCardInFile : lastDayIDs.id(ofEntry: $0) }
            .joined(separator: "\t") + "\n"
        for date in finalCounts.keys.sorted() { text += "\(date)\t\(finalCounts[date]!)\n" }
        return text
    }

    /// The counts a file holds, with its offset's check; nil when it is not one this build
    /// wrote or its dates were reckoned by another day clock.
    init?(decoding text: String, clock: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2 else { return nil }
        let head = lines[0].split(separator: "\t", omittingEmptySubsequences: false)
        guard head.count == 4, let offset = Int(head[0]), offset > 0, UInt32(head[1], radix: 16) != nil,
              head[2] == clock else { return nil }
        self.init()
        logOffset = offset
        if head[3] != "-" {
            guard let date = LogicalDate(head[3]) else { return nil }
            lastDay = date
        }
        let grades = lines[1].isEmpty ? [] : lines[1].split(separator: "\t")
        guard lastDay != nil || grades.isEmpty else { return nil }
        if let lastDay {
            for id in grades {
                if id == Self.namesNoCardInFile { lastDayGrades.append(Self.namesNoCard); continue }
                LogLine.withIDBytes(Array(id.utf8)[...], composed: true) { add($0, on: lastDay) }
            }
        }
        for line in lines.dropFirst(2) where !line.isEmpty {
            let fields = line.split(separator: "\t")
            guard fields.count == 2, let date = LogicalDate(fields[0]), let count = Int(fields[1]), count > 0 else { return nil }
            finalCounts[date] = count
        }
    }

    /// The check a file's head holds.
    static func check(inFile text: String) -> UInt32? {
        let head = text.prefix { $0 != "\n" }.split(separator: "\t", omittingEmptySubsequences: false)
        return head.count == 4 ? UInt32(head[1], radix: 16) : nil
    }
}
