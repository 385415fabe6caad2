import Testing
@testable import LeitnerClient

@Suite struct DirectoryPairsTests {
    @Test func pairsAndLoneHalves() {
        let names = ["cat-front.png", "cat-back.md", "dog-front.txt", "owl-back.mp3", "notes.txt", ".hidden-front.txt",
                     "bad id-front.txt", "bad id-back.txt"]
        let (records, problems) = DirectoryPairs.pair(fileNames: names, directory: "/d")
        #expect(records == [ImportRecord(location: .file("/d/cat-back.md"), id: "cat",
                                         front: .file(path: "/d/cat-front.png"), back: .file(path: "/d/cat-back.md"))])
        #expect(problems.map(\.reason) == [
            "invalid card id 'bad id': contains a space",
            "no back for 'dog' (a lone front)",
            "no front for 'owl' (a lone back)",
        ])
    }
}
