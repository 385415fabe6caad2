import LeitnerClient
import Testing

/// The values a placeholder stands for, which the shells' completion offers (`ShellCompletion`).
@Suite struct ArgumentValuesTests {
    @Test func placeholdersSayWhatTheyTake() {
        #expect(ArgumentValues(placeholder: "LEVEL") == .oneOf(["1", "2", "3", "4", "5", "6", "7", "finished", "new", "suspended"]))
        #expect(ArgumentValues(placeholder: "FILE|DIR") == .file)
        #expect(ArgumentValues(placeholder: "DIR") == .directory)
        #expect(ArgumentValues(placeholder: "COMMAND") == .command)
        #expect(ArgumentValues(placeholder: "correct|wrong") == .oneOf(["correct", "wrong"]))
        for free in ["ID", "ID...", "TAG", "N", "ADDR:PORT", "FRONT", "Yes|No"] {
            #expect(ArgumentValues(placeholder: free) == .any, "\(free)")
        }
    }

    @Test func anArgumentsValuesComeFromItsNameInTheUsage() {
        let grade = CommandSpec(name: "grade", abstract: "", usage: "ID correct|wrong", arguments: 2...2)
        #expect(grade.argumentValues(at: 0) == .any)
        #expect(grade.argumentValues(at: 1) == .oneOf(["correct", "wrong"]))
        #expect(grade.argumentValues(at: 2) == .any)
        #expect(OptionSpec("--front-file", value: "FILE", help: "").values == .file)
        #expect(OptionSpec("--sort", value: "ORDER", values: .oneOf(["id"]), help: "").values == .oneOf(["id"]))
        #expect(OptionSpec("--yes", help: "").values == .any)
    }
}
