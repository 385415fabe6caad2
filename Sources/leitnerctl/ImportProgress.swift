import Glibc
import LeitnerClient
import LeitnerSystem

/// The progress bar of a long import on standard error (docs/leitnerctl.md, "Importing"): the
/// count, the rate and the time left, drawn once the import has run for a second, and only on a
/// terminal. A message to standard error clears it first (`clear`), and the next update draws it
/// again.
struct ImportProgress {
    /// An import shorter than this shows no bar.
    static let delay = 1.0

    let total: Int
    let enabled: Bool
    private let started = ImportProgress.now()
    private var shown = false

    /// - Parameters: `enabled`: standard error is a terminal and `--quiet` was not given.
    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    /// Draws the bar for `done` cards handled so far, once the import has run for `delay`.
    mutating func update(done: Int) {
        guard enabled else { return }
        let elapsed = ImportProgress.now() - started
        guard elapsed >= ImportProgress.delay else { return }
        let bar = ProgressBar(done: done, total: total, elapsed: elapsed)
        Console.status("\r\u{1B}[K" + bar.line(width: (Console.stderrTerminal.size?.columns ?? 80) - 1))
        shown = true
    }

    /// Takes the bar off the screen, before a message or at the end.
    mutating func clear() {
        guard shown else { return }
        Console.status("\r\u{1B}[K")
        shown = false
    }

    private static func now() -> Double { MonotonicTime.now.seconds }
}
