import Testing
@testable import LeitnerCore

/// `LogEntry.origin` is a `LogOrigin`; its words in the log file are those written before.
@Suite struct LogOriginTests {
    static let time: Int64 = 1_795_289_467_000

    @Test func theWordsInTheLogAreUnchanged() {
        for (origin, word) in [(LogOrigin.hand, "hand"), (.copy, "copy"), (.sync, "sync"), (.adopt, "adopt"), (.note, "note")] {
            let line = LogLine.format(LogEntry(time: Self.time, event: .move, id: "a", from: .one, to: .two, origin: origin))
            #expect(line.hasSuffix("\torigin=\(word)\n"), "\(line)")
            #expect(LogLine.parse(Substring(line.dropLast()))?.origin == origin)
            #expect(LogOrigin(rawValue: word) == origin && origin.rawValue == word)
        }
    }

    /// A newer program's word is kept as it is, read and written back the same.
    @Test func anUnknownWordIsKept() {
        let line = LogLine.format(LogEntry(time: Self.time, event: .move, id: "a", from: .one, to: .two,
                                           origin: LogOrigin(rawValue: "merge")))
        let entry = LogLine.parse(Substring(line.dropLast()))
        #expect(entry?.origin == .other("merge"))
        #expect(entry.map(LogLine.format) == line)
    }

    @Test func aResolutionIsReadFromItsWord() {
        #expect(ConflictResolution("mine") == .mine)
        #expect(ConflictResolution("theirs") == .theirs)
        #expect(ConflictResolution("back (conflict).txt") == .copy(named: "back (conflict).txt"))
        #expect(ConflictResolution("Mine") == .copy(named: "Mine"), "words are exact, as on the wire")
        #expect([ConflictResolution.mine, .theirs, .copy(named: "x.txt")].map(\.description) == ["mine", "theirs", "x.txt"])
    }
}
