import Testing
@testable import LeitnerCore

/// Damage in `.leitner/` is reported as FILE:LINE with the reason (`doctor`), what can be kept is
/// kept, and nothing in the log is ever carried out (docs/store-format.md).
@Suite struct StateDamageTests {
    func fixtureWithGrades() throws -> BoxFixture {
        let f = try BoxFixture()
        for id in ["a", "b", "c", "d", "e"] { try f.box.addText(id, id.uppercased(), id: id) }
        _ = try f.box.prepare()
        _ = try f.box.grade(id: "a", correct: true, answerMs: 1)
        _ = try f.box.grade(id: "b", correct: false, answerMs: 1)
        _ = try f.box.grade(id: "c", correct: true, answerMs: 1)
        return f
    }

    func damageReports(_ f: BoxFixture) throws -> [StoreProblem] {
        try f.box.doctor().filter { $0.kind == .damagedState }
    }

    @Test func garbageAppendedToTheLogIsReportedWithItsLine() throws {
        let f = try fixtureWithGrades()
        let lines = f.dir.logLines.count
        f.close()
        f.dir.write(".leitner/devices/here/log", f.dir.read(".leitner/devices/here/log") + "garbage, not a log line\n")
        try f.reopen()
        let reports = try damageReports(f)
        #expect(reports.map(\.path) == [f.dir.path + "/.leitner/devices/here/log:\(lines + 1)"], "\(reports)")
        #expect(reports.first?.reason.contains("garbage, not a log line") == true)
        #expect(try f.box.status().test.passed == 2, "the grades before it are kept")
    }

    @Test func aDamagedMiddleLineIsReportedAndTheRestKept() throws {
        let f = try fixtureWithGrades()
        f.close()
        var lines = f.dir.read(".leitner/devices/here/log").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = lines.firstIndex { $0.contains("\tgrade\tb\t") }!
        lines[index] = "2026-03-02T1?? mangled by a bad sector"
        f.dir.write(".leitner/devices/here/log", lines.joined(separator: "\n"))
        try f.reopen()
        let reports = try damageReports(f)
        #expect(reports.map(\.path) == [f.dir.path + "/.leitner/devices/here/log:\(index + 1)"], "\(reports) \(f.dir.read(".leitner/devices/here/log"))")
        let test = try f.box.status().test
        #expect(test.passed == 2, "\(test)")
    }

    /// The open test's file overwritten with garbage: kept aside, reported, and the test rebuilt
    /// from the log with its passed and failed cards (not silently started again).
    @Test func aDamagedTestFileIsRebuiltFromTheLog() throws {
        let f = try fixtureWithGrades()
        let before = try f.box.status().test
        f.close()
        f.dir.write(".leitner/local.here/test", "garbage\u{1}\u{2}")
        try f.reopen()
        let test = try f.box.status().test
        #expect(test.passed == before.passed && test.failed == before.failed, "\(test) vs \(before)")
        #expect(test.remaining == before.remaining)
        #expect(f.dir.read(".leitner/local.here/test.damaged") == "garbage\u{1}\u{2}")
        let reports = try damageReports(f)
        #expect(reports.contains { $0.path.hasSuffix("/.leitner/local.here/test") && $0.reason.contains("rebuilt") }, "\(reports)")
        #expect(f.box.openingProblems.count == 1)
        // The rebuilt test is a test like any other: it goes on, and survives a restart.
        _ = try f.box.grade(id: "d", correct: true, answerMs: 1)
        try f.reopen()
        #expect(try f.box.status().test.passed == before.passed + 1)
    }
}
