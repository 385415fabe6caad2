import Testing
@testable import LeitnerClient

@Suite struct HTMLTextTests {
    @Test func tagsBreaksAndEntities() {
        #expect(HTMLText.plain("<div>one</div><div>two<br/>three</div>") == "one\ntwo\nthree")
        #expect(HTMLText.plain("a &lt;b&gt; &#233; &unknown; 1<2") == "a <b> é &unknown; 1<2")
    }

    /// The five characters that could end an element or a quoted attribute become references, a
    /// NUL becomes U+FFFD, and everything else, any script, is kept as it is.
    @Test func escapeWritesTheFiveAsReferences() {
        #expect(HTMLText.escape("plain text, café, 猫, 🐈") == "plain text, café, 猫, 🐈")
        #expect(HTMLText.escape(#"<a href="x">Tom & Jerry's</a>"#) == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;")
        #expect(HTMLText.escape("é<\0>猫") == "é&lt;\u{FFFD}&gt;猫")
        #expect(HTMLText.escape("a\0") == "a\u{FFFD}")
        #expect(HTMLText.escape("") == "")
        #expect(HTMLText.escape("x<y"[...].dropFirst()) == "&lt;y")
    }
}
