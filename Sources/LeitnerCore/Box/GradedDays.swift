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
