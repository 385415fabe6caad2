import Testing
@testable import LeitnerCore

/// R20: ids are letters, digits and marks of any script in NFC, and `. _ -`; an id made from a
/// front keeps that front's words.
@Suite struct CardIDTests {
    @Test(arguments: ["hola", "猫", "café-au-lait", "ありがとう", "καλημέρα", "Ελλάδα_2", "naïve.v2", "日本語",
                      "हिन्दी", "한국어", "x", String(repeating: "a", count: 128), String(repeating: "猫", count: 42)])
    func r20ValidIds(_ id: String) {
        #expect(CardID.problem(id) == nil, "\(id): \(CardID.problem(id) ?? "")")
    }

    @Test(arguments: [
        ("", "is empty"),
        (String(repeating: "a", count: 129), "longer than 128 bytes"),
        (String(repeating: "猫", count: 43), "longer than 128 bytes"),
        (".hidden", "starts with '.'"),
        ("-x", "starts with '-'"),
        ("a/b", "contains '/'"),
        ("a\u{0}b", "NUL"),
        ("a b", "space"),
        ("猫\u{3000}犬", "space character"),
        ("a\tb", "control"),
        ("a\u{200B}b", "control"),
        ("🐱", "not a letter, a digit or a mark"),
        ("cat🐱", "not a letter, a digit or a mark"),
        ("a+b", "not a letter, a digit, a mark"),
        ("cafe\u{301}", "normal form C"),
    ])
    func r20InvalidIds(_ id: String, _ reason: String) {
        let problem = CardID.problem(id)
        #expect(problem?.contains(reason) == true, "\(id.debugDescription): \(problem ?? "accepted")")
    }

    @Test func r20ACombiningSequenceInNFCIsAnId() {
        // ệ has a composed form; q̣ does not: its NFC keeps the combining dot below.
        #expect(CardID.isValid("vi\u{1EC7}t"))
        #expect(CardID.isValid("q\u{323}"))
        #expect(!CardID.isValid("vie\u{323}\u{302}t"), "decomposed ệ is not NFC")
    }

    @Test func r20IdsMadeFromFrontsKeepTheirWords() throws {
        let f = try BoxFixture()
        #expect(try f.box.addText("猫", "cat").id == "猫")
        #expect(try f.box.addText("café au lait", "coffee").id == "café-au-lait")
        #expect(try f.box.addText("cafe\u{301} noir", "black").id == "café-noir", "made NFC")
        #expect(try f.box.addText("Καλημέρα!", "good morning").id == "καλημέρα")
        #expect(try f.box.addText("ありがとう", "thank you").id == "ありがとう")
        #expect(try f.box.addText("Hola, mundo", "hello").id == "hola-mundo")
        #expect(try f.box.addText("猫", "cat, again").id == "猫-2")
        #expect(try f.box.addText("🐱🐶", "pets").id == "card")
        #expect(try f.box.addText("I ❤ Tokyo", "love").id == "i-tokyo")
        let long = try f.box.addText(String(repeating: "長い", count: 40), "long").id
        #expect(long.utf8.count <= 40 && CardID.isValid(long))
        // A long front is cut at a word's end, not in a word.
        #expect(try f.box.addText("Heading some bold text and code one two three", "long").id
                == "heading-some-bold-text-and-code-one")
        #expect(f.dir.levelOnDisk("猫") == ["1"])
    }

    /// The scan's fast path decides ASCII names on their bytes, as `isValid` would, and leaves
    /// every other name to `problem`.
    @Test func asciiIdsAreDecidedOnTheirBytesAsIsValidDecidesThem() {
        let names = ["hola", "a.b_c-d", "A1", ".hidden", "-dash", "has space", "slash/", "", "x?",
                     String(repeating: "a", count: 128), String(repeating: "a", count: 129), "猫", "café"]
        for name in names {
            var copy = name
            let fast = copy.withUTF8 { CardID.isValidASCII($0) }
            if name.utf8.allSatisfy({ $0 < 0x80 }) {
                #expect(fast == CardID.isValid(name), "\(name)")
            } else {
                #expect(!fast, "\(name): not ASCII, decided by problem()")
            }
        }
    }
}
