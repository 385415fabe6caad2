/// The text of a progress bar for a long job on a terminal (`leitnerctl import`):
/// `[=======>        ] 45000/100000 cards  9800/s  6 s left`, fitted to the terminal's width.
public struct ProgressBar: Sendable, Equatable {
    public var done: Int
    public var total: Int
    /// Seconds since the job began.
    public var elapsed: Double

    public init(done: Int, total: Int, elapsed: Double) {
        self.done = done
        self.total = total
        self.elapsed = elapsed
    }

    /// Items a second so far.
    public var rate: Int { elapsed > 0 ? Int(Double(done) / elapsed) : 0 }

    /// Seconds left at the rate so far, rounded up; nil before anything is done.
    public var secondsLeft: Int? {
        guard done > 0, elapsed > 0 else { return nil }
        return Int((Double(max(0, total - done)) * elapsed / Double(done)).rounded(.up))
    }

    /// The line in at most `width` columns: the bar is left out when it would be shorter than 10.
    public func line(width: Int, unit: String = "cards") -> String {
        let text = "\(done)/\(total) \(unit)  \(rate)/s" + (secondsLeft.map { "  \($0) s left" } ?? "")
        let barWidth = min(40, width - text.count - 4)
        guard barWidth >= 10, total > 0 else { return text }
        let filled = barWidth * min(done, total) / total
        let bar = String(repeating: "=", count: filled) + (filled < barWidth ? ">" : "")
            + String(repeating: " ", count: max(0, barWidth - filled - 1))
        return "[\(bar)] " + text
    }
}
