import Testing
@testable import LeitnerClient

@Suite struct ScreenFrameTests {
    let plain = TextStyle(enabled: false)

    func frame(columns: Int = 40, rows: Int = 12, body: [ScreenBlock], scroll: Int = 0) -> ScreenFrame {
        ScreenFrame(columns: columns, rows: rows, headerParts: ["3 of 40", "1 to repeat", "test: levels 2, 1", "card: level 1"],
                    body: body, message: "✓ → level 2", keyParts: ["y/→ correct", "n/← wrong", "u undo", "q quit"],
                    scroll: scroll, style: plain)
    }

    let sixty = (1...60).map { ScreenBlock.text("line \($0)") }

    /// Every row fits the width and the screen has exactly its rows: nothing wraps or scrolls
    /// the terminal, the header stays at the top and the keys at the bottom.
    @Test func fillsTheScreenExactly() {
        for (columns, rows) in [(40, 12), (80, 24), (200, 60)] {
            let screen = frame(columns: columns, rows: rows, body: sixty, scroll: 5)
            let lines = screen.textRows
            #expect(lines.count == rows)
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= columns })
            #expect(lines[0].hasPrefix("  3 of 40"))
            #expect(lines.last?.contains("q quit") == true || lines.dropLast().last?.contains("q quit") == true)
        }
    }

    @Test func scrollIsClampedToTheLastLine() {
        let top = frame(body: sixty)
        #expect(top.scroll == 0 && top.linesBelow == 60 - top.bodyHeight)
        #expect(top.textRows.contains { $0.contains("↓ \(60 - top.bodyHeight) more") })
        let bottom = frame(body: sixty, scroll: 1000)
        #expect(bottom.scroll == bottom.maxScroll && bottom.linesBelow == 0)
        #expect(bottom.textRows.contains("  line 60"))
        #expect(bottom.textRows.contains { $0.contains("↑ \(bottom.maxScroll) more") })
        #expect(frame(body: sixty, scroll: -3).scroll == 0)
        #expect(frame(body: [.text("one")], scroll: 4).scroll == 0)
    }

    /// A line wider than the body is broken, not cut: every character stays readable.
    @Test func wideLinesAreBroken() {
        let screen = frame(columns: 40, rows: 12, body: [.text(String(repeating: "x", count: 100))])
        #expect(screen.bodyLineCount == 3)
        #expect(screen.textRows.filter { $0.contains("x") }.map { $0.filter { $0 == "x" }.count }.reduce(0, +) == 100)
    }

    /// An image is drawn at its place when it is wholly on screen; cut by the edge, a note
    /// stands in its place.
    @Test func imagesAreDrawnOnlyWhole() {
        let body: [ScreenBlock] = [.text("before"), .image(rows: 3, drawing: "<IMG>"), .text("after")]
            + (1...10).map { .text("more \($0)") }
        let whole = frame(columns: 40, rows: 12, body: body)
        #expect(whole.output.contains("\u{1B}[5;3H<IMG>"))  // header 2 lines, rule, "before": row 5
        #expect(whole.textRows.contains("  after"))
        let cut = frame(columns: 40, rows: 12, body: body, scroll: 2)
        #expect(!cut.output.contains("<IMG>"))
        #expect(cut.textRows.contains { $0.contains("[image: scroll to see it whole]") })
        let tooTall = frame(columns: 40, rows: 12, body: [.image(rows: 30, drawing: "<IMG>")])
        #expect(!tooTall.output.contains("<IMG>"))
    }
}
