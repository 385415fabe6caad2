import LeitnerCore
import LeitnerSystem
import LeitnerWeb
import Testing

@Suite struct PagesTests {
    let card = Card(id: "le-chat<b>", level: .three,
                    front: Side(path: "3/le-chat/front.md", mediaType: "text/markdown", text: "**the cat** <i>"),
                    back: Side(path: "3/le-chat/back.png", mediaType: "image/png", text: nil))
    let test = TestSummary(date: LogicalDate(year: 2026, month: 1, day: 5)!, position: 3, levels: [.one, .three], state: .open,
                           remaining: 4, passed: 2, failed: 1)

    @Test func theFrontNeverShowsTheId() {
        let page = ReviewPage.front(card, handle: "h123", test: test, csrf: "c").description
        #expect(!page.contains("le-chat"))
        #expect(page.contains("<strong>the cat</strong> &lt;i&gt;"))
        #expect(page.contains("href=\"/review/answer?card=h123\"") && page.contains("id=\"show\""))
        // Cards done of the test's cards (docs/rules.md, "How far you are"): 2 passed of 2 + 4.
        #expect(page.contains("id=\"progress\">2 of 6 done</span>") && page.contains("id=\"undo\""))
        #expect(!page.contains("<script>") && !page.contains(" style="))
    }

    @Test func theAnswerShowsTheIdEscapedAndBothGrades() {
        let page = ReviewPage.answer(card, handle: "h123", test: test, csrf: "c").description
        #expect(page.contains("le-chat&lt;b&gt; · level 3") && !page.contains("le-chat<b>"))
        #expect(page.contains("<img src=\"/review/asset/h123/back\""))
        #expect(page.contains("id=\"right\"") && page.contains("id=\"wrong\"") && page.contains("name=\"csrf\" value=\"c\""))
        #expect(page.utf8.count < 30 * 1024)
    }

    @Test func aCardPageLinksItsAssetsByIdAndSide() {
        let page = CardPage.html(card, sources: CardPage.editSources(card) { _ in Asset(name: "x", text: "") }, csrf: "c").description
        #expect(page.contains("src=\"/cards/le-chat%3Cb%3E/asset/back\""))
        #expect(page.contains("action=\"/cards/le-chat%3Cb%3E/edit\"") && page.contains("<textarea id=\"front\" name=\"front\">**the cat** &lt;i&gt;</textarea>"))
        #expect(!page.contains("<textarea id=\"back\""))
    }

    /// A cloze card's page edits its note (R30): the note's text with its gaps and its extra, as
    /// `ReadAsset` gives them, not the sides made from them, whose front written back as the
    /// note's text would hold no gap.
    @Test func aClozeCardsPageEditsItsNotesTextAndExtra() throws {
        let cloze = Card(id: "katze.c1", level: .one,
                         front: Side(path: "notes/katze/text.md", mediaType: "text/markdown", text: "Die **[…]** schläft"),
                         back: Side(path: "notes/katze/text.md", mediaType: "text/markdown", text: "Die **[Katze]** schläft"),
                         clozeOf: ClozeOf(note: "katze", number: 1))
        let note = [SideName.front: Asset(name: "front.md", text: "Die {{c1::Katze}} schläft"), .back: Asset(name: "back.md", text: "a cat")]
        let sources = try CardPage.editSources(cloze) { side in try #require(note[side]) }
        #expect(sources == note)
        for page in [CardPage.html(cloze, sources: sources, csrf: "c").description,
                     ReviewPage.edit(cloze, sources: sources, handle: "h", csrf: "c").description] {
            #expect(page.contains("<textarea id=\"front\" name=\"front\">Die {{c1::Katze}} schläft</textarea>"))
            #expect(page.contains("<textarea id=\"back\" name=\"back\">a cat</textarea>"))
            #expect(page.contains("The note's text") && page.contains("The note's extra") && !page.contains("**[…]**"))
        }
    }

    @Test func theAssetsAreNamedByTheirContent() {
        #expect(EmbeddedAssets.styleSheet.name.hasPrefix("app-") && EmbeddedAssets.styleSheet.name.hasSuffix(".css"))
        #expect(EmbeddedAssets.file(named: EmbeddedAssets.script.name)?.bytes == EmbeddedAssets.script.bytes)
        #expect(EmbeddedAssets.file(named: "../app.js") == nil)
    }

    @Test func theManifestAndIconsAreServedFilesNamedByContent() {
        let manifest = String(decoding: EmbeddedAssets.manifest.bytes, as: UTF8.self)
        for needed in ["\"display\": \"standalone\"", "\"start_url\": \"/\"", "\"theme_color\": \"#0969da\"",
                       "/static/\(EmbeddedAssets.icon192.name)", "/static/\(EmbeddedAssets.icon512.name)", "\"sizes\": \"512x512\""] {
            #expect(manifest.contains(needed), "\(needed)")
        }
        for file in [EmbeddedAssets.manifest, EmbeddedAssets.iconSVG, EmbeddedAssets.icon192, EmbeddedAssets.icon512] {
            #expect(EmbeddedAssets.file(named: file.name)?.bytes == file.bytes)
        }
        // A PNG's chunks carry CRC-32 (ISO 3309): IEND's is the same in every file.
        #expect(Array(EmbeddedAssets.icon192.bytes.suffix(12)) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        #expect(EmbeddedAssets.icon512.bytes.count < 8192)
    }

    @Test func constantTimeEquality() {
        #expect(ConstantTime.equal("abc", "abc") && !ConstantTime.equal("abc", "abd") && !ConstantTime.equal("abc", "abcd"))
        #expect(!ConstantTime.equal("", "a") && ConstantTime.equal("", ""))
    }

    @Test func theCookieIsFoundAmongOthersAndNamedForTheBoxAndPort() {
        #expect(CookieHeader.values(named: "s", in: ["a=b; s=xyz; c=d"]) == ["xyz"])
        #expect(CookieHeader.values(named: "s", in: ["a=b; s=1", "s=2"]) == ["1", "2"])
        #expect(CookieHeader.values(named: "s", in: ["xs=q"]).isEmpty)
        let kana = CookieHeader(box: "kana", port: 8471)
        #expect(kana.name(secure: false) == "leitner_kana_8471" && kana.name(secure: true) == "__Host-leitner_kana_8471")
        #expect(CookieHeader(box: nil, port: 8470).name(secure: false) == "leitner_default_8470")
        #expect(kana.set("v", secure: true) == "__Host-leitner_kana_8471=v; Path=/; Max-Age=34560000; HttpOnly; SameSite=Strict; Secure")
        #expect(kana.clear(secure: false) == "leitner_kana_8471=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict")
    }

    @Test func listenAddresses() {
        #expect(Socket.InternetAddress.parse("127.0.0.1:8470").address == Socket.InternetAddress(host: "127.0.0.1", port: 8470))
        #expect(Socket.InternetAddress.parse("[::1]:0").address?.isLoopback == true)
        #expect(Socket.InternetAddress.parse("127.1.2.3:1").address?.isLoopback == true)
        #expect(Socket.InternetAddress.parse("0.0.0.0:8470").address?.isLoopback == false)
        #expect(Socket.InternetAddress.parse("[::1]:8470").address?.description == "[::1]:8470")
        for bad in ["localhost:80", "127.0.0.1", "127.0.0.1:65536", "::1:80", "[::1]80", "1.2.3:80", "127.0.0.1:-1", "127.0.0.1:"] {
            #expect(Socket.InternetAddress.parse(bad).address == nil, "\(bad)")
        }
    }

    @Test func webSectionOfTheConfiguration() throws {
        let parser = ConfigurationParser(path: "/etc/leitner.conf", home: "/home/a")
        var configuration = Configuration(defaultsFor: ConfigurationLocator(environment: [:], uid: 1000, home: "/home/a"))
        #expect(configuration.web.listen.description == "127.0.0.1:8470" && !configuration.web.secureCookie)
        #expect(configuration.web.serverNames.isEmpty)
        try parser.parse("[Web]\nListen=[::1]:9000\nSecureCookie=yes\nMaxConnections=5\nServerName=Leitner.example.org, phone.tail1.ts.net\n",
                         into: &configuration)
        #expect(configuration.web.listen.description == "[::1]:9000" && configuration.web.secureCookie && configuration.web.maxConnections == 5)
        #expect(configuration.web.serverNames == ["leitner.example.org", "phone.tail1.ts.net"])
        for bad in ["https://leitner.example.org", "leitner.example.org/x", "a_b", ".example.org"] {
            #expect(throws: ConfigurationError.self) { try parser.parse("[Web]\nServerName=\(bad)\n", into: &configuration) }
        }
        #expect(throws: ConfigurationError.self) { try parser.parse("[Web]\n\nListen=example.org:80\n", into: &configuration) }
        do {
            try parser.parse("[Web]\n\nListen=example.org:80\n", into: &configuration)
        } catch {
            #expect("\(error)".hasPrefix("/etc/leitner.conf:3: invalid value 'example.org:80' for Listen=: 'example.org' is not a numeric IP address"))
        }
        #expect(ConfigurationLocator(environment: ["XDG_STATE_HOME": "/s"], uid: 1, home: "/h").webStateDirectory == "/s/leitner")
        #expect(ConfigurationLocator(environment: [:], uid: 1, home: "/h").webStateDirectory == "/h/.local/state/leitner")
    }
}
