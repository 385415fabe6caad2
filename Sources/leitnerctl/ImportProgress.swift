import Glibc

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
        Console.status("\r\u{1B}[K" + ImportProgress.line(done: done, total: total, elapsed: elapsed,
                                                        width: Console.stderrTerminal.size?.columns ?? 80))
        shown = true
    }

    /// Takes the bar off the screen, before a message or at the end.
    mutating func clear() {
        guard shown else { return }
        Console.status("\r\u{1B}[K")
        shown = false
    }

    /// `[=======>        ] 45000/100000 cards  9800/s  6 s left`, fitted to `width` columns.
    static func line(done: Int, total: Int, elapsed: Double, width: Int) -> String {
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let left = rate > 0 ? Int((Double(total - done) / rate).rounded(.up)) : nil
        let text = " \(done)/\(total) cards  \(Int(rate))/s  " + (left.map { "\($0) s left" } ?? "")
        let barWidth = min(40, width - text.count - 3)
        guard barWidth >= 10, total > 0 else { return String(text.dropFirst()) }
        let filled = barWidth * min(done, total) / total
        let bar = String(repeating: "=", count: filled) + (filled < barWidth ? ">" : "")
            + String(repeating: " ", count: max(0, barWidth - filled - 1))
        return "[\(bar)]" + text
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
