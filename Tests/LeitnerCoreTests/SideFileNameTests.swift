import Testing
import LeitnerCore

/// The one naming rule for a side kept as a file: loose pairs (R14), import and export directories.
@Suite struct SideFileNameTests {
    @Test func takesANameApart() {
        #expect(SideFileName(fileName: "猫-front.txt") == SideFileName(cardName: "猫", side: .front, fileExtension: "txt"))
        #expect(SideFileName(fileName: "a-front.b-back.png") == SideFileName(cardName: "a-front.b", side: .back, fileExtension: "png"))
        #expect(SideFileName(fileName: "x-back.md")?.fileName == "x-back.md")
    }

    @Test(arguments: ["-front.txt", "a-front", "a-front.", "front.txt", "a-side.txt", ".a-front", "a-fronts.txt"])
    func refusesOtherNames(name: String) {
        #expect(SideFileName(fileName: name) == nil)
    }
}
