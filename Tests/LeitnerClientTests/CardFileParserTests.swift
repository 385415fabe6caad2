import Testing
@testable import LeitnerClient
@testable import LeitnerCore

@Suite struct CardFileParserTests {
    @Test func tsvWithoutHeader() {
        let (records, problems) = CardFileParser(format: .tsv).parse("hola\thello\nadiós\tgoodbye\n")
        #expect(problems.isEmpty)
        #expect(records == [
            ImportRecord(location: .line(1), front: .text("hola"), back: .text("hello")),
            ImportRecord(location: .line(2), front: .text("adiós"), back: .text("goodbye")),
        ])
    }

    /// A spreadsheet saved with ';' read as CSV: each line one field. The reason names the
    /// separator the line holds and the header line that imports it; the file's own separator,
    /// quoted inside a field, is never the hint.
    @Test func aLineOfOneFieldNamesTheSeparatorItHolds() {
        let (records, problems) = CardFileParser(format: .csv).parse("Hund;dog\n\"a, b\"\nBaum\n")
        #expect(records.isEmpty)
        #expect(problems.map(\.reason) == [
            "expected 2 fields (front, back), found 1; the line holds ';': for a file separated by semicolons, make its first line #separator:semicolon",
            "expected 2 fields (front, back), found 1",
            "expected 2 fields (front, back), found 1",
        ])
        let tsv = CardFileParser(format: .tsv).parse("Hund,dog\n").problems
        #expect(tsv.map(\.reason) == ["expected 2 fields (front, back), found 1; the line holds ',': for a file separated by commas, make its first line #separator:comma"])
        let imported = CardFileParser(format: .anki).parse("#separator:semicolon\nHund;dog\n")
        #expect(imported.problems.isEmpty && imported.records.count == 1)
    }

    @Test func headerNamesColumns() {
        let (records, problems) = CardFileParser(format: .csv).parse("Level,Back,Front,ID\n3,dog,perro,es-perro\n,cat,gato,\n")
        #expect(problems.isEmpty)
        #expect(records == [
            ImportRecord(location: .line(2), id: "es-perro", level: "3", front: .text("perro"), back: .text("dog")),
            ImportRecord(location: .line(3), front: .text("gato"), back: .text("cat")),
        ])
    }

    @Test func badLinesAreReportedWithTheirNumbers() {
        let text = "id,front,back,level\na,1,one,\nb,2,,\n-c,3,three,\nd,4,four,9\na,5,five,\ne,6\nf,\"7\",seven,1\n"
        let (records, problems) = CardFileParser(format: .csv).parse(text)
        #expect(records.map(\.id) == ["a", "f"])
        #expect(problems.map(\.location) == [.line(3), .line(4), .line(5), .line(6), .line(7)])
        #expect(problems[0].reason == "the back is empty")
        #expect(problems[1].reason.hasPrefix("invalid card id '-c'"))
        #expect(problems[2].reason.hasPrefix("invalid level '9'"))
        #expect(problems[3].reason == "card id 'a' is also on line 2")
    }

    /// What `export` writes of typed answers, reverse and cloze cards comes back as it was
    /// (R28, R30, R32); a cell that says nothing clear is a bad line.
    @Test func typeAnswerReverseAndClozeColumns() {
        let text = "id\tfront\tback\ttype-answer\treverse-of\tcloze-of\tcloze\n"
            + "ka\tか\tka\tyes\t\t\t\n"
            + "ka.rev\tka\tか\t\tka\t\t\n"
            + "satz.c2\tDie {{c2::Katze}}\t\tyes\t\tsatz\t2\n"
            + "x\ta\tb\tmaybe\t\t\t\n"
            + "y\ta\tb\t\tka\tsatz\t1\n"
            + "\ta\tb\t\tka\t\t\n"
            + "z\ta\tb\t\t\tsatz\tc100\n"
        let (records, problems) = CardFileParser(format: .tsv).parse(text)
        #expect(records == [
            ImportRecord(location: .line(2), id: "ka", front: .text("か"), back: .text("ka"), typeAnswer: true),
            ImportRecord(location: .line(3), id: "ka.rev", front: .text("ka"), back: .text("か"), kind: .reverse(of: "ka")),
            ImportRecord(location: .line(4), id: "satz.c2", front: .text("Die {{c2::Katze}}"), back: .text(""),
                         kind: .cloze(ClozeOf(note: "satz", number: 2)), typeAnswer: true),
        ])
        #expect(problems.map(\.location) == [.line(5), .line(6), .line(7), .line(8)])
        #expect(problems[0].reason == "type-answer 'maybe': expected yes or no")
        #expect(problems[1].reason == "both a reverse-of and a cloze-of")
        #expect(problems[2].reason == "a reverse or cloze card needs its id")
        #expect(problems[3].reason.hasPrefix("cloze-of 'satz', cloze 'c100'"))
    }

    @Test func tooManyFieldsWithoutHeader() {
        let (records, problems) = CardFileParser(format: .tsv).parse("a\tb\tc\n")
        #expect(records.isEmpty)
        #expect(problems.count == 1 && problems[0].location == .line(1))
    }

    @Test func ankiHeadersSeparatorHTMLAndColumns() {
        let text = "#separator:Semicolon\n#html:true\n#guid column:1\n#tags column:4\n" +
            "g1;<b>perro</b>;\"dog<br>a pet &amp; friend\";animals\n" +
            "g2;\"gato; cat\";\"&#x732B;\";\n"
        #expect(ImportFormat.detect(fileName: "x.txt", text: text[...]) == .anki)
        let (records, problems) = CardFileParser(format: .anki).parse(text)
        #expect(problems.isEmpty)
        #expect(records == [
            ImportRecord(location: .line(5), front: .text("perro"), back: .text("dog\na pet & friend"), tags: ["animals"]),
            ImportRecord(location: .line(6), front: .text("gato; cat"), back: .text("猫")),
        ])
    }

    @Test func formatDetection() {
        #expect(ImportFormat.detect(fileName: "a.csv", text: "x,y") == .csv)
        #expect(ImportFormat.detect(fileName: "a.tsv", text: "x\ty") == .tsv)
        #expect(ImportFormat.detect(fileName: "a.txt", text: "#html:false\nx\ty") == .anki)
    }
}
