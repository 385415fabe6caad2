import Testing
@testable import LeitnerClient

@Suite struct DelimitedReaderTests {
    let csv = DelimitedReader(separator: ",", quoting: .rfc4180)
    let tsv = DelimitedReader(separator: "\t", quoting: .backslash, skipsComments: true)

    @Test func csvQuoting() {
        let rows = csv.rows("a,b\r\n\"x, y\",\"say \"\"hi\"\"\"\n\"two\nlines\",z\nlast,\n")
        #expect(rows == [
            DelimitedRow(line: 1, fields: ["a", "b"]),
            DelimitedRow(line: 2, fields: ["x, y", "say \"hi\""]),
            DelimitedRow(line: 3, fields: ["two\nlines", "z"]),
            DelimitedRow(line: 5, fields: ["last", ""]),
        ])
    }

    @Test func csvProblemsKeepTheirLineNumbers() {
        let rows = csv.rows("ok,1\nba\"d,2\n\"x\"y,3\nfine,4\n\"open,5\n")
        #expect(rows.map(\.line) == [1, 2, 3, 4, 5])
        #expect(rows[0].problem == nil && rows[3].problem == nil)
        #expect(rows[1].problem != nil)
        #expect(rows[2].problem != nil)
        #expect(rows[4].problem == "quoted field opened on line 5 is not closed")
    }

    @Test func tsvEscapesAndComments() {
        let rows = tsv.rows("\u{FEFF}# comment\nfront\tback\\nline\n\nt\\\\x\t\\ty\n")
        #expect(rows == [
            DelimitedRow(line: 2, fields: ["front", "back\nline"]),
            DelimitedRow(line: 4, fields: ["t\\x", "\ty"]),
        ])
    }
}
