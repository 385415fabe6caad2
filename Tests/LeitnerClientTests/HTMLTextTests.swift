import Testing
@testable import LeitnerClient

@Suite struct HTMLTextTests {
    @Test func tagsBreaksAndEntities() {
        #expect(HTMLText.plain("<div>one</div><div>two<br/>three</div>") == "one\ntwo\nthree")
        #expect(HTMLText.plain("a &lt;b&gt; &#233; &unknown; 1<2") == "a <b> é &unknown; 1<2")
    }
}
