import Testing
@testable import LeitnerCore

@Suite struct SuggestionTests {
    let commands = ["status", "review", "prepare", "add", "import", "export", "list", "show", "move", "delete",
                    "undo", "calendar", "log", "doctor", "next", "grade", "help"]

    @Test func editDistance() {
        #expect(Suggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(Suggestion.editDistance(Array("mvoe"), Array("move")) == 1) // a swap is one edit
        #expect(Suggestion.editDistance(Array(""), Array("abc")) == 3)
        #expect(Suggestion.editDistance(Array("same"), Array("same")) == 0)
    }

    @Test func nearestCommands() {
        #expect(Suggestion.nearest(to: "stauts", among: commands) == "status")
        #expect(Suggestion.nearest(to: "reveiw", among: commands) == "review")
        #expect(Suggestion.nearest(to: "cal", among: commands) == "calendar")
        #expect(Suggestion.nearest(to: "imprt", among: commands) == "import")
        #expect(Suggestion.nearest(to: "frobnicate", among: commands) == nil)
        #expect(Suggestion.nearest(to: "x", among: commands) == nil)
    }
}
