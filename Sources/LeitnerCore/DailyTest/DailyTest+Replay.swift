/// Rebuilding a test from the review log (R11: a restart shows the same queue, order, passed and
/// failed cards): each event after the test's opening goes through the method that made it.
extension DailyTest {
    static func replay(_ entry: LogEntry, into test: inout DailyTest, dayClock: DayClock) {
        switch entry.event {
        case .grade:
            guard let id = entry.id, let from = entry.from, let to = entry.to, let correct = entry.correct else { return }
            test.grade(Grade(id: id, from: from, to: to, correct: correct, time: entry.time))
        case .undo:
            test.undo()
        case .complete:
            test.completed = entry.date ?? dayClock.logicalDate(at: entry.time)
        case .move where entry.origin == .kept && entry.correct != nil:
            // A grade a browser kept offline that counted in this test (R35, `Box.takeKeptGrade`).
            guard let id = entry.id, let from = entry.from, let to = entry.to, let correct = entry.correct else { return }
            test.grade(Grade(id: id, from: from, to: to, correct: correct, time: entry.time))
        case .add, .move, .delete:
            // A completed test's queue still follows the levels, for an undo that reopens it (R15).
            guard let id = entry.id else { return }
            test.levelChanged(id, to: entry.event == .delete ? nil : entry.to)
        case .rename:
            guard let id = entry.id, let renamedTo = entry.renamedTo else { return }
            test.rename(id, to: renamedTo)
        case .skip, .edit, .practice:
            // R27: a practice answer is no part of any test.
            return
        }
    }
}
