import Testing
import LeitnerClient
import LeitnerCore
@testable import leitnerctl

/// `status`'s week: one column a day, which never run together, whatever the cycle's entries.
@Suite struct WeekViewTests {
    func week(levels: [Level], width: Int = 0) -> [String] {
        var date = LogicalDate("2026-11-23")!
        var days: [CalendarDay] = []
        for _ in 0..<7 {
            days.append(CalendarDay(date: date, state: .upcoming, levels: levels, cards: 0))
            date = date.next
        }
        return Views(style: TextStyle(enabled: false), width: width).week(days)
    }

    /// `Cycle=1,2,3,4,5,6,7`: each day's levels stand apart from the next day's.
    @Test func aLongEntryKeepsItsColumnApart() {
        let all = Level.rotation
        let lines = week(levels: all)
        let entry = "1,2,3,4,5,6,7"
        #expect(lines[2].split(separator: " ").map(String.init) == Array(repeating: entry, count: 7))
        // The dates stand over their days' levels.
        #expect(lines[0].firstRange(of: "Tue 24")?.lowerBound.utf16Offset(in: lines[0])
                == lines[2].ranges(of: entry)[1].lowerBound.utf16Offset(in: lines[2]))
        // A terminal of 80 columns takes the week in two rows rather than wrap a day.
        #expect(week(levels: all, width: 80).allSatisfy { $0.count <= 80 })
    }

    /// The standard table's entries keep the columns nine wide, as before.
    @Test func theStandardEntriesKeepNineColumns() {
        let lines = week(levels: [.four, .two, .one])
        #expect(lines[2] == "  " + Array(repeating: "4,2,1    ", count: 6).joined() + "4,2,1")
    }
}
