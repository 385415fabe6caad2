import Testing
@testable import LeitnerCore

/// R29: a box name follows the card id rules (R20), and the two names of the default box's own
/// files are refused.
@Suite struct BoxNameTests {
    @Test(arguments: ["kana", "german", "de-en", "ja.kana_2", "猫", "ありがとう", "café"])
    func namesLikeCardIdsAreBoxes(name: String) {
        #expect(BoxName.problem(name) == nil)
        #expect(BoxName.isValid(name))
    }

    @Test(arguments: [
        ("", "is empty"),
        ("a/b", "contains '/'"),
        ("../kana", "starts with '.'"),
        (".hidden", "starts with '.'"),
        ("-v", "starts with '-'"),
        ("my box", "contains a space"),
        ("a:b", "contains ':', which is not a letter, a digit, a mark or . _ -"),
        (String(repeating: "k", count: 129), "is longer than 128 bytes"),
    ])
    func namesThatAreNoCardIdsAreRefused(name: String, reason: String) {
        #expect(BoxName.problem(name) == reason)
    }

    /// `leitner` would read the default box's leitner.conf, `leitnerd` listen on its
    /// leitnerd.sock: each would be the default box under another name.
    @Test(arguments: ["leitner", "leitnerd"])
    func theDefaultBoxsFileNamesAreReserved(name: String) {
        let reason = BoxName.problem(name)
        #expect(reason?.hasPrefix("is reserved") == true)
        #expect(!BoxName.isValid(name))
    }
}
