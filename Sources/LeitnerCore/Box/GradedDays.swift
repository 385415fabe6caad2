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
    /// Card → its grades on `lastDay` not undone.
    private var lastDayCards: [String: Int] = [:]
    /// The grades of `lastDay` not undone, in order: what an undo takes back.
    private var lastDayGrades: [String] = []
    /// Grades come a day at a time: one day's bounds date every grade in it.
    private var day: (start: Int64, end: Int64, date: LogicalDate)?

    /// Takes in the log's next entry from `logOffset` on, which ends at `end`.
    mutating func read(_ entry: LogEntry, end: Int, dayClock: DayClock) {
        logOffset = end
        switch entry.event {
        case .grade:
            guard let id = entry.id else { return }
            add(id, on: date(of: entry.time, dayClock: dayClock))
        case .undo:
            guard let id = lastDayGrades.popLast(), let count = lastDayCards[id] else { return }
            lastDayCards[id] = count > 1 ? count - 1 : nil
        default:
            return
        }
    }

    /// Distinct cards graded on `date`.
    func count(on date: LogicalDate) -> Int {
        date == lastDay ? lastDayCards.count : finalCounts[date] ?? 0
    }

    private mutating func add(_ id: String, on date: LogicalDate) {
        if let lastDay, date < lastDay {
            finalCounts[date, default: 0] += 1
            return
        }
        if date != lastDay {
            if let lastDay, !lastDayCards.isEmpty { finalCounts[lastDay] = lastDayCards.count }
            lastDay = date
            lastDayCards = [:]
            lastDayGrades = []
        }
        lastDayCards[id, default: 0] += 1
        lastDayGrades.append(id)
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
        text += lastDayGrades.joined(separator: "\t") + "\n"
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
        lastDayGrades = lines[1].isEmpty ? [] : lines[1].split(separator: "\t").map(String.init)
        guard lastDay != nil || lastDayGrades.isEmpty else { return nil }
        for id in lastDayGrades { lastDayCards[id, default: 0] += 1 }
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
