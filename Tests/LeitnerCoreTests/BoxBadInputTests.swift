import Testing
@testable import LeitnerCore

/// Bad input gets its typed error and changes nothing on disk: the whole tree, `.leitner/`
/// included (review log, day record, test file), is the same before and after.
@Suite struct BoxBadInputTests {
    /// R20: not 1–128 bytes of letters, digits, marks (in NFC) and `. _ -`, or starting with `.` or `-`.
    static let badIDs = ["../x", ".hidden", "-x", "", String(repeating: "a", count: 129), "a\0b", "/", "a/b",
                         "he\u{301}llo", "a b", "x\n", "日本🐱", "a*"]
    static let badLevels = ["0", "8", "Finished", "", " 1", "1 ", "01", "finished/", "../1", "-1", "one"]

    /// Cards `a` (level 1) and `b` (level 3), today's test open with one grade made.
    func fixture() throws -> BoxFixture {
        let f = try BoxFixture()
        try f.box.addText("a", "A", id: "a")
        try f.box.addText("a2", "A2", id: "a2")
        try f.box.addText("b", "B", id: "b", level: "3")
        _ = try f.box.grade(id: "a2", correct: false, answerMs: nil)
        return f
    }

    /// Runs `body`, which must fail as `matches` says, and checks that the store did not change.
    func refused<T>(_ f: BoxFixture, _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
                    _ body: () throws -> T, matches: (BoxError) -> Bool) {
        let before = f.dir.snapshot(excluding: "")
        expectBoxError(sourceLocation: sourceLocation, body, matches: matches)
        #expect(f.dir.snapshot(excluding: "") == before, "\(what) changed the store", sourceLocation: sourceLocation)
    }

    @Test(arguments: badIDs)
    func r20InvalidIdsAreRefusedEverywhere(_ id: String) throws {
        let f = try fixture()
        let isIt = { (error: BoxError) -> Bool in
            if case .invalidCardId(let named, let reason) = error { named == id && !reason.isEmpty } else { false }
        }
        refused(f, "add", { try f.box.addText("x", "y", id: id) }, matches: isIt)
        refused(f, "add to 2", { try f.box.addText("x", "y", id: id, level: "2") }, matches: isIt)
        refused(f, "move", { try f.box.move(id: id, level: "2") }, matches: isIt)
        refused(f, "delete", { try f.box.delete(id: id) }, matches: isIt)
        refused(f, "show", { try f.box.show(id: id) }, matches: isIt)
        refused(f, "grade", { try f.box.grade(id: id, correct: true, answerMs: nil) }, matches: isIt)
        refused(f, "readAsset", { try f.box.readAsset(id: id, side: .back) }, matches: isIt)
    }

    @Test func r20ReasonsNameTheProblem() {
        #expect(CardID.problem("") == "is empty")
        #expect(CardID.problem(String(repeating: "a", count: 129))?.contains("128") == true)
        #expect(CardID.problem(".x")?.contains("'.'") == true)
        #expect(CardID.problem("-x")?.contains("'-'") == true)
        #expect(CardID.problem("a/b")?.contains("'/'") == true)
        #expect(CardID.problem("a\0b")?.contains("NUL") == true)
        // The edges that are valid.
        #expect(CardID.problem(String(repeating: "a", count: 128)) == nil)
        #expect(CardID.problem("A.b_c-9") == nil)
        #expect(CardID.problem("x.") == nil && CardID.problem("x-") == nil && CardID.problem("_x") == nil)
    }

    @Test(arguments: badLevels)
    func unknownLevelsAreRefused(_ level: String) throws {
        let f = try fixture()
        let isIt = { (error: BoxError) -> Bool in error == .invalidLevel(level: level) }
        refused(f, "add", { try f.box.addText("x", "y", id: "x", level: level) }, matches: isIt)
        refused(f, "move", { try f.box.move(id: "a", level: level) }, matches: isIt)
        refused(f, "list", { try f.box.list(level: level, withText: false) }, matches: isIt)
    }

    @Test func badAssetsAreRefused() throws {
        let f = try fixture()
        let text = Asset(name: "back.txt", text: "fine")
        let bad: [Asset] = [
            Asset(name: "front", text: "no extension"),
            Asset(name: "front.", text: "empty extension"),
            Asset(name: "", text: "no name"),
            Asset(name: "front.t*t", text: "odd extension"),
            Asset(name: "front.txt", content: [0x66, 0xFF, 0xFE, 0x41]),
            Asset(name: "front.md", content: [0xC3]),
        ]
        for asset in bad {
            let isIt = { (error: BoxError) -> Bool in
                if case .invalidAsset(let name, let reason) = error { name == asset.name && !reason.isEmpty } else { false }
            }
            refused(f, "front \(asset.name)", { try f.box.add(front: asset, back: text, id: "x", level: nil) }, matches: isIt)
            refused(f, "back \(asset.name)", { try f.box.add(front: text, back: asset, id: nil, level: nil) }, matches: isIt)
        }
        // Binary media may hold any bytes.
        let png = try f.box.add(front: Asset(name: "front.png", content: [0x89, 0x50, 0xFF]), back: text, id: "img", level: nil)
        #expect(png.front.mediaType == "image/png" && png.front.text == nil)
    }

    @Test func takenIdsAndMissingCards() throws {
        let f = try fixture()
        refused(f, "add a", { try f.box.addText("x", "y", id: "a") }) { $0 == .cardExists(id: "a") }
        refused(f, "add b to 1", { try f.box.addText("x", "y", id: "b", level: "1") }) { $0 == .cardExists(id: "b") }
        refused(f, "move", { try f.box.move(id: "nobody", level: "2") }) { $0 == .noSuchCard(id: "nobody") }
        refused(f, "delete", { try f.box.delete(id: "nobody") }) { $0 == .noSuchCard(id: "nobody") }
        refused(f, "show", { try f.box.show(id: "nobody") }) { $0 == .noSuchCard(id: "nobody") }
        refused(f, "readAsset", { try f.box.readAsset(id: "nobody", side: .front) }) { $0 == .noSuchCard(id: "nobody") }
        refused(f, "grade", { try f.box.grade(id: "b", correct: true, answerMs: nil) }) { $0 == .notInTest(id: "b") }
    }

    @Test func badDatesAndRanges() throws {
        let f = try fixture()
        let isParameter = { (name: String) in { (error: BoxError) -> Bool in
            if case .invalidParameter(let named, _) = error { named == name } else { false }
        } }
        refused(f, "calendar", { try f.box.calendar(from: "2026-13-01", to: "2026-12-31") }, matches: isParameter("from"))
        refused(f, "calendar", { try f.box.calendar(from: "2026-03-01", to: "03/05/2026") }, matches: isParameter("to"))
        refused(f, "calendar", { try f.box.calendar(from: "2026-03-05", to: "2026-03-01") }, matches: isParameter("to"))
        refused(f, "calendar", { try f.box.calendar(from: "2000-01-01", to: "2030-01-01") }, matches: isParameter("to"))
        refused(f, "log", { try f.box.log(since: "2026-02-30", limit: nil) }, matches: isParameter("since"))
    }

    /// R20: an id the box makes up (Add without one) is itself valid and unused.
    @Test func madeUpIdsAreValidAndUnique() throws {
        let f = try BoxFixture()
        var ids = Set<String>()
        for front in ["Hola, mundo", "Hola, mundo!", "hola mundo", "日本語", "!", "-x-", ".", String(repeating: "ab ", count: 200)] {
            let id = try f.box.addText(front, "back", id: nil).id
            #expect(CardID.isValid(id), "'\(id)' from '\(front)'")
            #expect(ids.insert(id).inserted, "'\(id)' from '\(front)' is taken")
        }
        #expect(ids.contains("hola-mundo"))
    }

    /// A blank side is refused, by add and by edit, and nothing is written.
    @Test func blankSidesAreRefused() throws {
        let f = try BoxFixture()
        for blank in ["", " ", "\n\t "] {
            #expect(throws: BoxError.self) { try f.box.addText(blank, "back", id: nil) }
            #expect(throws: BoxError.self) { try f.box.addText("front", blank, id: nil) }
        }
        #expect(try f.box.list(level: nil, withText: false).isEmpty)
        _ = try f.box.addText("front", "back", id: "card")
        #expect(throws: BoxError.self) { try f.box.edit(id: "card", front: Asset(name: "front.txt", text: " "), back: nil) }
        #expect(try f.box.show(id: "card").front.text == "front")
    }
}
