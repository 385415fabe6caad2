import Testing
import LeitnerClient

/// The progress bar of a long import: count, rate and time left, fitted to the terminal.
@Suite struct ProgressBarTests {
    @Test func showsCountRateAndTimeLeft() {
        let bar = ProgressBar(done: 25_000, total: 100_000, elapsed: 2.5)
        #expect(bar.rate == 10_000)
        #expect(bar.secondsLeft == 8)
        // 37 columns of text, the bar 39 wide inside its brackets, a quarter of it filled.
        let expected = "[" + String(repeating: "=", count: 9) + ">" + String(repeating: " ", count: 29) + "] "
            + "25000/100000 cards  10000/s  8 s left"
        #expect(bar.line(width: 80) == expected)
        #expect(expected.count == 79)
    }

    @Test func fitsTheWidthAndDropsTheBarWhenNarrow() {
        let bar = ProgressBar(done: 1, total: 3, elapsed: 1)
        #expect(bar.line(width: 40).count <= 40)
        #expect(bar.line(width: 30) == "1/3 cards  1/s  2 s left")
        #expect(ProgressBar(done: 3, total: 3, elapsed: 1).line(width: 60).hasPrefix("[" + String(repeating: "=", count: 32) + "]"))
    }

    @Test func nothingDoneYetHasNoTimeLeft() {
        #expect(ProgressBar(done: 0, total: 10, elapsed: 1.2).secondsLeft == nil)
        #expect(ProgressBar(done: 0, total: 10, elapsed: 1.2).line(width: 20) == "0/10 cards  0/s")
    }
}
