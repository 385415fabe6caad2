/// Durations as the programs' logs write them.
extension Duration {
    /// For the log: `30 s`, `1.5 s`, `250 ms`.
    package var logDescription: String {
        let milliseconds = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(milliseconds / 1000).\(milliseconds % 1000 / 100) s"
    }
}
