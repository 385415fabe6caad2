import Testing
@testable import LeitnerClient
@testable import LeitnerSystem

@Suite struct SampleDeckTests {
    /// samples/kana.tsv holds the 208 kana: 104 per script (46 basic, 25 dakuon and
    /// handakuon, 33 yōon), every front and every id once.
    @Test func kanaDeckHas208Cards() throws {
        let path = String(#filePath.split(separator: "/Tests/").first!) + "/samples/kana.tsv"
        let text = String(decoding: try FileSystem.readFile(atPath: "/" + path.drop { $0 == "/" }), as: UTF8.self)
        let (records, problems) = CardFileParser(format: .tsv).parse(text)
        #expect(problems.isEmpty)
        #expect(records.count == 208)
        #expect(records.filter { $0.id!.hasPrefix("hira-") }.count == 104)
        #expect(records.filter { $0.id!.hasPrefix("kata-") }.count == 104)
        #expect(Set(records.map(\.front)).count == 208)
        for yoon in ["ぎゃ", "じょ", "びゅ", "ぴゃ", "キョ", "ヂ", "ぱ"] {
            #expect(records.contains { $0.front == .text(yoon) }, "\(yoon) missing")
        }
    }
}
