import Testing
@testable import LeitnerClient

@Suite struct TerminalTextTests {
    let style = TextStyle(enabled: true)

    @Test func clipKeepsWhatFitsAndMarksTheCut() {
        #expect(TerminalText.clip("short", width: 10) == "short")
        #expect(TerminalText.clip("a longer line", width: 6) == "a lon…")
        #expect(DisplayWidth.of(TerminalText.clip("猫猫猫猫", width: 5)) <= 5)
        let styled = TerminalText.clip(style.apply(style.bold, "bold text here"), width: 6)
        #expect(DisplayWidth.of(styled) == 6)
        #expect(styled.hasPrefix(style.bold) && styled.hasSuffix("\u{1B}[0m"))
    }

    @Test func hardWrapBreaksWhereTheWidthRunsOut() {
        #expect(TerminalText.hardWrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(TerminalText.hardWrap("fits", width: 4) == ["fits"])
        #expect(TerminalText.hardWrap("猫猫猫", width: 3) == ["猫", "猫", "猫"])
    }

    /// A style open at a break is closed there and opened again on the next line.
    @Test func hardWrapCarriesStyles() {
        let lines = TerminalText.hardWrap(style.apply(style.cyan, "abcdef"), width: 3)
        #expect(lines.count == 2)
        #expect(lines[0] == style.cyan + "abc" + "\u{1B}[0m")
        #expect(lines[1].hasPrefix(style.cyan) && lines[1].contains("def"))
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 3 })
    }

    @Test func packJoinsPartsWithoutSplittingThem() {
        #expect(TerminalText.pack(["12 of 40", "3 to repeat", "test: levels 2, 1"], width: 80)
                == ["12 of 40 · 3 to repeat · test: levels 2, 1"])
        #expect(TerminalText.pack(["12 of 40", "3 to repeat", "test: levels 2, 1"], width: 25)
                == ["12 of 40 · 3 to repeat", "test: levels 2, 1"])
        #expect(TerminalText.pack(["a part far too wide"], width: 8) == ["a part …"])
        #expect(TerminalText.pack(["", "x"], width: 8) == ["x"])
    }
}
