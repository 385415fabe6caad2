/// The state of a test (`io.leitner.Box` type `Test.state`).
public enum TestState: String, Sendable {
    case open, completed, empty
}
