import Testing
@testable import LeitnerClient

@Suite struct AnkiTemplateTests {
    static func render(_ template: String, _ fields: [String: String], frontSide: String? = nil) -> AnkiTemplate.Rendered {
        AnkiTemplate(template).render(.init(fields: fields, frontSide: frontSide, tags: ["a::b"], notetype: "Basic",
                                            deck: "Sprachen::Deutsch", card: "Card 1"))
    }

    @Test func fieldsSectionsAndSpecials() {
        let fields = ["Front": "Hund", "Back": "dog", "Empty": "<br> "]
        #expect(Self.render("{{Front}}{{#Back}}: {{Back}}{{/Back}}{{#Empty}}!{{/Empty}}{{^Empty}}.{{/Empty}}", fields).html
                == "Hund: dog.")
        #expect(Self.render("{{FrontSide}}<hr id=answer>{{ Back }}", fields, frontSide: "Hund").html == "Hund<hr id=answer>dog")
        #expect(Self.render("{{Tags}}|{{Type}}|{{Deck}}|{{Subdeck}}|{{Card}}|{{Missing}}", fields).html
                == "a::b|Basic|Sprachen::Deutsch|Deutsch|Card 1|")
    }

    @Test func filtersFromTheFieldOutwards() {
        let fields = ["F": "<b>日本語[にほんご]</b> 猫[ねこ]", "T": "mouse"]
        #expect(Self.render("{{text:F}}", fields).html == "日本語[にほんご] 猫[ねこ]")
        #expect(Self.render("{{furigana:F}}", fields).html == "<b>日本語(にほんご)</b>猫(ねこ)")
        #expect(Self.render("{{kana:F}}", fields).html == "<b>にほんご</b>ねこ")
        #expect(Self.render("{{kanji:F}}", fields).html == "<b>日本語</b>猫")
        #expect(Self.render("{{text:kanji:F}}", fields).html == "日本語猫")
        let question = Self.render("{{T}}? {{type:T}}", fields)
        #expect(question.html == "mouse? " && question.typeAnswer)
        #expect(Self.render("{{type:T}}", fields, frontSide: "").html == "mouse")
        #expect(Self.render("{{hint:T}}", fields).html == "<br><i>T: mouse</i><br>")
        #expect(Self.render("{{tts en_US voices=Apple:T}}", fields).html == "mouse")
        let unknown = Self.render("{{myaddon:T}}", fields)
        #expect(unknown.html == "mouse" && unknown.unknownFilters == ["myaddon"])
    }

    @Test func htmlBecomesMarkdownWithItsMedia() {
        let side = AnkiMarkdown(html: """
            <div>Die <b>Katze</b> &amp; <i>der</i>&nbsp;Hund</div><div><img src="my cat.png"> [sound:miau.mp3]</div>\
            <script>alert(1)</script><style>.x{}</style><!-- note -->2 * 3<br>end<ul><li>one</li><li>two</li></ul>
            """)
        #expect(side.markdown == "Die **Katze** & *der* Hund\n![](<my cat.png>) [sound:miau.mp3]\n2 \\* 3\nend\n- one\n- two")
        #expect(side.images == ["my cat.png"])
        #expect(side.hadScript)
    }

    @Test func intervalsToLevelsOnADoublingScale() {
        let levels = [1, 2, 3, 5, 6, 11, 12, 22, 23, 45, 46, 90, 91, 400].map { AnkiImportPlan.level(interval: $0) }
        #expect(levels == ["1", "2", "3", "3", "4", "4", "5", "5", "6", "6", "7", "7", "finished", "finished"])
    }

    @Test func idsFromGuidsNeverMeetAndAreValid() {
        #expect(AnkiImportPlan.id(guid: "zOz|u<Opo&") == "anki-zOz_7Cu_3COpo_26")
        #expect(AnkiImportPlan.id(guid: "a_b") == "anki-a_5Fb" && AnkiImportPlan.id(guid: "a_5Fb") == "anki-a_5F5Fb")
    }
}
