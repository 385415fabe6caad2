import Testing
@testable import LeitnerClient

@Suite struct KeyDecoderTests {
    func keys(_ text: String) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.feed(Array(text.utf8)) + decoder.flush()
    }

    @Test func severalKeysInOneRead() {
        #expect(keys(" y\r") == [.character(" "), .character("y"), .enter])
        #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(keys("\u{1B}OC\u{1B}OD") == [.right, .left])
        #expect(keys("\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~") == [.pageUp, .pageDown, .home, .end, .home, .end])
        #expect(keys("\u{03}\u{04}\n") == [.controlC, .controlD, .enter])
    }

    /// An unknown sequence is one `.escape`, its letters never read as keys (`ESC [ 1 ; 5 y`
    /// must not grade).
    @Test func unknownSequencesAreSwallowedWhole() {
        #expect(keys("\u{1B}[1;5yq") == [.escape, .character("q")])
        #expect(keys("\u{1B}[200~") == [.escape])
    }

    /// A terminal's answer to the image queries that comes after the review stopped waiting
    /// for it is no key: its `i` must not show the card's id, its `G` not scroll.
    @Test func lateAnswersToQueriesAreNoKeys() {
        #expect(keys("\u{1B}_Gi=31;OK\u{1B}\\y") == [.escape, .character("y")])
        #expect(keys("\u{1B}[?62;4cn") == [.escape, .character("n")])
        #expect(keys("\u{1B}]11;rgb:0000/0000/0000\u{07}q") == [.escape, .character("q")])
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}_Gi=31;".utf8)) == [])
        #expect(decoder.feed(Array("OK\u{1B}\\j".utf8)) == [.escape, .character("j")])
    }

    @Test func aSequenceSplitAcrossReadsWaits() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.isWaiting)
        #expect(decoder.feed(Array("[".utf8)) == [])
        #expect(decoder.feed(Array("6~j".utf8)) == [.pageDown, .character("j")])
        #expect(!decoder.isWaiting)
    }

    @Test func aLoneEscapeComesOutOnFlush() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.flush() == [.escape])
        #expect(decoder.flush() == [])
    }

    @Test func utf8CharactersWholeEvenWhenSplit() {
        var decoder = KeyDecoder()
        let bytes = Array("é猫".utf8)
        #expect(decoder.feed(Array(bytes[0..<1])) == [])
        #expect(decoder.feed(Array(bytes[1..<3])) == [.character("é")])
        #expect(decoder.feed(Array(bytes[3...])) == [.character("猫")])
    }
}
