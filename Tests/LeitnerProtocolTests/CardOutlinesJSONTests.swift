import LeitnerVarlink
import Testing
@testable import LeitnerCore
@testable import LeitnerProtocol

/// A `List` without text writes each card's JSON from its outline (`CardOutlinesJSON`), with no
/// `Card` made, and counts its length before writing it: the bytes and the length must be those
/// of the card it stands for, as `Card.json` writes it, whatever its id, tags, level directory
/// and side names hold.
@Suite struct CardOutlinesJSONTests {
    /// A batch holding plain cards (tagged or not, ids and names needing escapes or not, every
    /// level) and cards kept whole (reverse and cloze), under a store path that needs escapes.
    static func outlines() -> CardOutlines {
        let ids = ["hola", "\u{00e9}t\u{00e9}", "c000007", "a-very-long-card-id-of-forty-bytes-long", "\u{65e5}\u{672c}", "rev", "note.c2"]
        var index = CardIndex()
        for id in ids { index.updateValue(.one, forKey: id) }
        let root = "/tmp/a \"quoted\" \\ store\u{1}\t\u{00e9}"
        var outlines = CardOutlines(index: index, levelDirectories: Level.allCases.map { root + "/" + $0.name + "/" })
        outlines.sideNames = [("front.txt", "text/plain"), ("back.txt", "text/plain"), ("front.md", "text/markdown"),
                              ("back \"q\" \\.png", "image/png"), ("front\u{7}.txt", "text/plain")]
        let number = { (id: String) in index.entryNumber(of: id)! }
        outlines.append(entry: number("hola"), of: index, level: .two, front: 0, back: 1, tags: [])
        outlines.append(entry: number("\u{00e9}t\u{00e9}"), of: index, level: .finished, front: 2, back: 3, tags: ["ja", "ja:kana", "q\"\\\n"])
        outlines.append(entry: number("c000007"), of: index, level: .new, front: 4, back: 1, tags: ["one"])
        outlines.append(entry: number("a-very-long-card-id-of-forty-bytes-long"), of: index, level: .suspended, front: 0, back: 3, tags: [])
        outlines.append(entry: number("\u{65e5}\u{672c}"), of: index, level: .seven, front: 2, back: 1, tags: [])
        let side = Side(path: root + "/1/hola/back.txt", mediaType: "text/plain", text: nil)
        outlines.append(card: Card(id: "rev", level: .three, front: side, back: side, tags: ["es"], reverseOf: "hola"))
        outlines.append(card: Card(id: "note.c2", level: .one, front: side, back: side,
                                                              clozeOf: ClozeOf(note: "note", number: 2)))
        return outlines
    }

    @Test func eachCardIsWrittenAsItsCardAndCountedAsWritten() {
        let outlines = Self.outlines()
        let json = CardOutlinesJSON(outlines)
        #expect(outlines.count == 7)
        for position in 0..<outlines.count {
            var written: [UInt8] = []
            json.write(position, into: &written)
            let card = outlines.card(at: position)
            #expect(String(decoding: written, as: UTF8.self) == card.json.jsonText)
            #expect(json.size(of: position) == written.count)
        }
    }

    @Test func aPlainCardsSidesAreItsLevelsDirectoryItsIDAndTheirNames() {
        let outlines = Self.outlines()
        let card = outlines.card(at: 1)
        #expect(card.id == "\u{00e9}t\u{00e9}" && card.level == .finished && card.tags == ["ja", "ja:kana", "q\"\\\n"])
        #expect(card.front == Side(path: outlines.directory(of: .finished) + "\u{00e9}t\u{00e9}/front.md", mediaType: "text/markdown", text: nil))
        #expect(card.back.path.hasSuffix("/finished/\u{00e9}t\u{00e9}/back \"q\" \\.png") && card.back.mediaType == "image/png")
        #expect(outlines.wholeCard(at: 1) == nil && outlines.wholeCard(at: 5)?.reverseOf == "hola")
    }
}
