import Glibc
import Testing
@testable import LeitnerCore
import LeitnerSystem
import LeitnerTestSupport

/// The notes' first look after open (R30) from what the last close recorded (`NoteRecord`): a
/// note whose text is as recorded is not read again, and the cards of other names that held its
/// numbers are not looked for in every card directory; what changed while the daemon was down is
/// found as before, and a record the daemon did not leave at its close is not trusted. And a
/// cloze card's note kept between reads (`NoteReads`) is read again after any change of it (R13).
@Suite struct NoteRecordTests {
    /// Five notes of two numbers each, their cards named otherwise than `NOTE.cN` (as an import
    /// or a person names them), and the texts' times let past the kernel clock's tick.
    static func notesWithCardsNamedOtherwise(_ dir: TemporaryDirectory) {
        for note in 0..<5 {
            dir.write("notes/n\(note)/text.md", "Satz {{c1::eins \(note)}} und {{c2::zwei \(note)}}.")
            for number in 1...2 { dir.write("1/k-\(note)-\(number)/cloze-of", "n\(note)\nc\(number)\n") }
        }
        WatchLimitTests.letStampsSettle()
    }

    /// Those notes looked at by a first request, the box closed, opened and asked again: the
    /// first look of this open took them from the record.
    static func reopenedWithARecord() throws -> BoxFixture {
        let f = try BoxFixture("2026-05-04")
        notesWithCardsNamedOtherwise(f.dir)
        _ = try f.box.status()
        try f.reopen()
        _ = try f.box.status()
        return f
    }

    static func adds(_ box: Box) throws -> [String] {
        try box.log(since: nil, limit: nil).filter { $0.event == .add }.compactMap(\.id)
    }

    @Test func theFirstLookAfterACleanCloseLooksIntoNoCardDirectory() throws {
        let f = try BoxFixture("2026-05-04")
        Self.notesWithCardsNamedOtherwise(f.dir)
        // The first open ever: every note read, their cards found in every card directory.
        #expect(try f.box.status().counts[.one] == 10)
        #expect(f.box.linkIndex != nil)
        try f.reopen()
        #expect(try f.box.status().counts[.one] == 10)
        #expect(f.box.linkIndex == nil, "the link index was built at the first look after a clean close")
        #expect(f.box.noteIndex?.numbersOf == Dictionary(uniqueKeysWithValues: (0..<5).map { ("n\($0)", [1, 2]) }))
        #expect(try Self.adds(f.box).count == 10)
        #expect(try f.box.show(id: "k-3-2").front.text == "Satz eins 3 und **[…]**.")
        #expect(try f.box.doctor().isEmpty)
    }

    @Test func whatChangedWhileTheDaemonWasDownIsFoundWithARecord() throws {
        let f = try Self.reopenedWithARecord()
        f.close()
        // Down: a note gains a number, a card that held one is deleted, a note is made.
        f.dir.write("notes/n1/text.md", "Satz {{c1::eins}} und {{c2::zwei}} und {{c3::drei}}.")
        precondition(system("rm -r '\(f.dir.path)/1/k-2-1'") == 0)
        f.dir.write("notes/neu/text.md", "{{c1::neu}}")
        try f.reopen()
        _ = try f.box.status()
        // Added where a new card goes (R23: level 1 while today's admissions allow).
        #expect(try Self.adds(f.box).suffix(3).sorted() == ["n1.c3", "n2.c1", "neu.c1"])
        #expect(try ["n1.c3", "n2.c1", "neu.c1"].map { try f.box.show(id: $0).clozeOf?.number } == [3, 1, 1])
        #expect(try f.box.status().counts[.one] == 12)
        #expect(try f.box.doctor().isEmpty)
    }

    /// A daemon killed after it changed the store leaves the record of an earlier close: the
    /// log's lines since then name the cards it changed, which are not trusted as holders.
    @Test func aHolderTheDaemonChangedBeforeItWasKilledIsLookedForAgain() throws {
        let f = try Self.reopenedWithARecord()
        // Renamed by request, the daemon killed, the note's directory put back by hand: its text
        // is the file the record stamped, but its cards name `m0` now. The note renamed while the
        // daemon was down is recognised (R30), and its cards follow it back.
        _ = try f.box.rename(id: "n0", to: "m0")
        f.kill()
        f.dir.move("notes/m0", "notes/n0")
        try f.reopen()
        _ = try f.box.status()
        #expect(f.dir.read("1/k-0-1/cloze-of") == "n0\nc1\n" && f.dir.read("1/k-0-2/cloze-of") == "n0\nc2\n")
        #expect(!f.dir.exists("new/n0.c1") && !f.dir.exists("new/n0.c2"))
        #expect(try f.box.show(id: "k-0-1").back.text == "Satz **[eins 0]** und zwei 0.")
        #expect(try f.box.doctor().isEmpty)
    }

    /// A daemon killed after reviews leaves a record behind the log, still good for every note:
    /// the next first look reads none, and looks into no card directory. A few lines behind, it
    /// is not written again on that first request's turn, and serves the start after it as well.
    @Test func aRecordBehindTheLogSparesTheFirstLookAfterAKill() throws {
        let f = try Self.reopenedWithARecord()
        _ = try f.box.move(id: "k-1-1", level: "3")
        _ = try f.box.move(id: "k-4-2", level: "2")
        f.kill()
        let record = f.dir.read(Self.recordPath(f))
        #expect(record.hasPrefix("leitner notes"))
        try f.reopen()
        #expect(try f.box.status().counts[.one] == 8)
        #expect(f.box.noteIndex?.notesRead == 0)
        #expect(f.box.linkIndex == nil, "the link index was built at the first look after a kill")
        #expect(f.dir.read(Self.recordPath(f)) == record, "the record was written again on the first request's turn")
        #expect(try Self.adds(f.box).count == 10)
        #expect(try f.box.show(id: "k-1-1").back.text == "Satz **[eins 1]** und zwei 1.")
        #expect(try f.box.doctor().isEmpty)
        _ = try f.box.move(id: "k-2-1", level: "2")
        f.kill()
        try f.reopen()
        #expect(try f.box.status().counts[.one] == 7)
        #expect(f.box.noteIndex?.notesRead == 0)
        #expect(f.box.linkIndex == nil, "the link index was built at the second first look after a kill")
        #expect(try f.box.show(id: "k-2-1").back.text == "Satz **[eins 2]** und zwei 2.")
        #expect(try f.box.doctor().isEmpty)
    }

    /// A record whose holder the daemon renamed before it was killed leaves that holder out, and
    /// the first look after the kill finds the note's card in the card directories: it records
    /// what it found, so that the start after the next kill need not look again.
    @Test func aHolderLeftOutAfterAKillIsRecordedAgain() throws {
        let f = try Self.reopenedWithARecord()
        _ = try f.box.rename(id: "k-1-1", to: "k-1-eins")
        f.kill()
        try f.reopen()
        #expect(try f.box.status().counts[.one] == 10)
        #expect(f.box.linkIndex != nil, "the note whose holder was renamed had its cards looked for")
        f.kill()
        try f.reopen()
        #expect(try f.box.status().counts[.one] == 10)
        #expect(f.box.noteIndex?.notesRead == 0)
        #expect(f.box.linkIndex == nil, "the link index was built again at the start after the next kill")
        #expect(try Self.adds(f.box).count == 10)
        #expect(try f.box.show(id: "k-1-eins").back.text == "Satz **[eins 1]** und zwei 1.")
        #expect(try f.box.doctor().isEmpty)
    }

    /// The record's file read from its bytes in place: empty lines passed over, a note without
    /// numbers, empty numbers between commas passed over, holders; a line that does not read
    /// (a stamp that is no hexadecimal or too short, a number that is none, a holder without its
    /// card, a wrong first line) makes no record at all.
    @Test func theRecordsLinesAreReadFromTheirBytes() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let state = try FileDescriptor.openDirectory(dir.path)
        defer { state.close() }
        // A stamp's hash (8 bytes) and its names, `text.md/`, in hexadecimal.
        let stamp = "0102030405060708" + "746578742e6d642f"
        func load(_ lines: String) -> (record: NoteRecord, check: UInt32)? {
            dir.write(NoteRecord.fileName, lines)
            return NoteRecord.load(in: state)
        }
        let loaded = try #require(load("leitner notes 2\t120\tff\n\nn1\t\(stamp)\t1,2\nn2\t\(stamp)\t\n\nn3\t\(stamp)\t3,,4,\t3\tk-3\t4\tk-4\n"))
        #expect(loaded.check == 0xff)
        #expect(loaded.record.logSize == 120)
        #expect(loaded.record.entries.keys.sorted() == ["n1", "n2", "n3"])
        #expect(loaded.record.entries["n1"]?.numbers == [1, 2] && loaded.record.entries["n1"]?.holders == [:])
        #expect(loaded.record.entries["n2"]?.numbers == [])
        #expect(loaded.record.entries["n3"]?.numbers == [3, 4] && loaded.record.entries["n3"]?.holders == [3: "k-3", 4: "k-4"])
        for bad in ["n4\tzz\t1", "n4\t0102\t1", "n4\t\(stamp)\t1,x", "n4\t\(stamp)\t1\t2", "n4\t\(stamp)\t1\tx\tk", "n4\t\(stamp)"] {
            #expect(load("leitner notes 2\t120\tff\nn1\t\(stamp)\t1\n\(bad)\n") == nil, "\(bad)")
        }
        #expect(load("leitner notes 1\t120\tff\nn1\t\(stamp)\t1\n") == nil)
        #expect(load("leitner notes 2\t120\nn1\t\(stamp)\t1\n") == nil)
    }

    /// The record's file, relative to the store.
    static func recordPath(_ f: BoxFixture) -> String {
        String(f.box.store.statePath.dropFirst(f.dir.path.count + 1)) + "/" + NoteRecord.fileName
    }

    /// A first look that had to read the notes records them, so a daemon that is never stopped
    /// cleanly reads them once, not at every start.
    @Test func aFirstLookThatReadTheNotesRecordsThem() throws {
        let f = try BoxFixture("2026-05-04")
        Self.notesWithCardsNamedOtherwise(f.dir)
        _ = try f.box.status()
        #expect(f.box.noteIndex?.notesRead == 5)
        f.kill()
        try f.reopen()
        _ = try f.box.status()
        #expect(f.box.noteIndex?.notesRead == 0)
        #expect(f.box.linkIndex == nil)
        // Changed by hand while the daemon was down, after the record: read again, recorded again.
        f.kill()
        f.dir.write("notes/n3/text.md", "Satz {{c1::eins}} und {{c2::zwei}} und {{c3::drei}}.")
        WatchLimitTests.letStampsSettle()
        try f.reopen()
        _ = try f.box.status()
        #expect(f.box.noteIndex?.notesRead == 1)
        #expect(try Self.adds(f.box).suffix(1) == ["n3.c3"])
        f.kill()
        try f.reopen()
        _ = try f.box.status()
        #expect(f.box.noteIndex?.notesRead == 0)
        #expect(f.box.linkIndex == nil)
        #expect(try f.box.status().counts[.one] == 11)
        #expect(try f.box.doctor().isEmpty)
    }

    /// R13: a note kept for its cards is read again after anything of it changed by hand — its
    /// text written in place or renamed over, its extra, a link, the note moved away and back.
    @Test func aKeptNoteIsReadAgainAfterEveryChange() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-05-04"))
        defer { box.close() }
        dir.write("notes/katze/text.md", "Die {{c1::Katze}} schläft.")
        dir.write("1/katze.c1/cloze-of", "katze\nc1\n")
        #expect(try box.show(id: "katze.c1").front.text == "Die **[…]** schläft.")
        #expect(try box.show(id: "katze.c1").front.text == "Die **[…]** schläft.")
        dir.write("notes/katze/text.md", "Die {{c1::Katze}} schnurrt.")
        #expect(try box.show(id: "katze.c1").back.text == "Die **[Katze]** schnurrt.")
        dir.write("notes/katze/neu.md", "Der {{c1::Kater}} schnurrt.")
        dir.move("notes/katze/neu.md", "notes/katze/text.md")
        #expect(try box.show(id: "katze.c1").back.text == "Der **[Kater]** schnurrt.")
        dir.write("notes/katze/extra.md", "Kater: tomcat")
        #expect(try box.show(id: "katze.c1").back.text == "Der **[Kater]** schnurrt.\n\nKater: tomcat")
        // A text that is a link inside the store: its target changes with no event of the note.
        dir.write("notes/ziel.md", "Die {{c1::Maus}} schläft.")
        precondition(unlink(dir.path + "/notes/katze/text.md") == 0 && symlink("../ziel.md", dir.path + "/notes/katze/text.md") == 0)
        #expect(try box.show(id: "katze.c1").front.text == "Die **[…]** schläft.")
        dir.write("notes/ziel.md", "Die {{c1::Maus}} tanzt.")
        #expect(try box.show(id: "katze.c1").back.text == "Die **[Maus]** tanzt.\n\nKater: tomcat")
        dir.move("notes/katze", "katze-weg")
        #expect(throws: BoxError.self) { try box.show(id: "katze.c1") }
        dir.move("katze-weg", "notes/katze")
        #expect(try box.show(id: "katze.c1").back.text == "Die **[Maus]** tanzt.\n\nKater: tomcat")
    }

    /// R31: a cloze card kept as shown (`NoteRead.shown`) shows a medium put into its note's
    /// directory, or taken out, at the next `Show`.
    @Test func aKeptCardShowsItsNotesMediaAsTheyComeAndGo() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let box = try Box.open(dir, clock: ManualClock("2026-05-04"))
        defer { box.close() }
        dir.write("notes/bild/text.md", "Das {{c1::Bild}} ![ein Bild](b.png)")
        dir.write("1/bild.c1/cloze-of", "bild\nc1\n")
        for _ in 0..<2 { #expect(try box.show(id: "bild.c1").front.media.isEmpty) }
        dir.write("notes/bild/b.png", "png")
        for _ in 0..<2 { #expect(try box.show(id: "bild.c1").back.media.map(\.name) == ["b.png"]) }
        precondition(unlink(dir.path + "/notes/bild/b.png") == 0)
        #expect(try box.show(id: "bild.c1").front.media.isEmpty)
    }
}
