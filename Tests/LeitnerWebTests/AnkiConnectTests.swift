import LeitnerVarlink
@testable import LeitnerWeb
import Testing

/// The AnkiConnect door without a socket: the origin and key checks (refused before any call
/// reaches the daemon), the CORS preflight, the reply's shape by version, `multi`, and the
/// fields' HTML made Markdown with their media.
@Suite struct AnkiConnectTests {
    static let extensionOrigin = "chrome-extension://likgccmbimhjbgkjambclfkhldnlhbnn"
    static let key = "0123456789abcdef0123456789abcdef"
    let transport = DaemonDownTransport()
    var door: AnkiConnectDoor {
        AnkiConnectDoor(key: Self.key, origins: [Self.extensionOrigin], served: ServedNames(["127.0.0.1"]), transport: transport,
                        shelf: AnkiMediaShelf(stateDirectory: "/nonexistent", box: nil), boxName: nil,
                        webAddress: "http://127.0.0.1:8470", opener: { _ in false })
    }

    func post(_ body: String, origin: String? = extensionOrigin, method: HTTPMethod = .post,
              headers: [HTTPRequest.Header] = []) -> HTTPResponse {
        var all = [HTTPRequest.Header(name: "host", value: "127.0.0.1:8765"),
                   HTTPRequest.Header(name: "content-type", value: "application/json")] + headers
        if let origin { all.append(HTTPRequest.Header(name: "origin", value: origin)) }
        return door.respond(to: HTTPRequest(method: method, path: "/", headers: all, body: Array(body.utf8)))
    }

    func reply(_ response: HTTPResponse) -> JSONValue? { try? JSONValue(parsing: response.body) }

    @Test func anotherOriginGetsNoCORSHeaderAndNoAction() {
        for origin in ["https://dictionary.example", "null", "chrome-extension://another", "http://127.0.0.1:8470"] {
            let response = post(#"{"action": "deckNames", "version": 6, "key": "\#(Self.key)"}"#, origin: origin)
            #expect(response.status == 403)
            #expect(!response.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
            let preflight = post("", origin: origin, method: .options)
            #expect(preflight.status == 403 && preflight.header("Access-Control-Allow-Origin") == nil)
        }
        #expect(transport.calls.load(ordering: .relaxed) == 0)
    }

    @Test func theExtensionsPreflightIsAnswered() {
        let response = post("", method: .options, headers: [HTTPRequest.Header(name: "access-control-request-method", value: "POST"),
                                                           HTTPRequest.Header(name: "access-control-request-private-network", value: "true")])
        #expect(response.status == 204)
        #expect(response.header("Access-Control-Allow-Origin") == Self.extensionOrigin)
        #expect(response.header("Access-Control-Allow-Methods") == "POST")
        #expect(response.header("Access-Control-Allow-Headers") == "Content-Type")
        #expect(response.header("Access-Control-Allow-Private-Network") == "true")
        #expect(response.header("Vary") == "Origin")
    }

    @Test func aRebindingNameIsRefused() {
        let request = HTTPRequest(method: .post, path: "/", headers: [HTTPRequest.Header(name: "host", value: "attacker.example:8765")],
                                  body: Array(#"{"action": "version", "key": "\#(Self.key)"}"#.utf8))
        #expect(door.respond(to: request).status == 421)
    }

    @Test func theReplyIsBareBeforeVersion5AndAnErrorAlwaysAnObject() {
        #expect(reply(post(#"{"action": "version", "version": 2, "key": "\#(Self.key)"}"#)) == .int(6))
        #expect(reply(post(#"{"action": "version", "key": "\#(Self.key)"}"#)) == .int(6))
        #expect(reply(post(#"{"action": "version", "version": 6, "key": "\#(Self.key)"}"#)) == .object(["result": .int(6), "error": .null]))
        #expect(reply(post(#"{"action": "version", "version": 2, "key": "wrong"}"#))
                == .object(["result": .null, "error": "valid api key must be provided"]))
        #expect(reply(post(#"{"action": "requestPermission", "version": 6}"#))?["result"]?["permission"] == "granted")
        #expect(reply(post(#"{"action": "guiEditNote", "version": 6, "key": "\#(Self.key)"}"#))?["error"] == "unsupported action")
        #expect(reply(post(#"{"action": "version""#))?["error"]?.stringValue?.hasPrefix("the request is not JSON") == true)
        #expect(reply(post(#"{"version": 6}"#))?["error"] == "the request has no \"action\" (a string)")
        // A program sends no origin: answered, with no CORS headers.
        let program = post(#"{"action": "version", "version": 6, "key": "\#(Self.key)"}"#, origin: nil)
        #expect(program.status == 200 && program.header("Access-Control-Allow-Origin") == nil)
    }

    @Test func multiAnswersEachWithItsOwnKeyAndVersion() {
        let body = #"""
            {"action": "multi", "version": 6, "key": "\#(Self.key)", "params": {"actions": [
              {"action": "version", "key": "\#(Self.key)"},
              {"action": "modelFieldNames", "version": 6, "params": {"modelName": "Cloze"}, "key": "\#(Self.key)"},
              {"action": "version"},
              {"action": "multi", "key": "\#(Self.key)", "params": {"actions": []}}]}}
            """#
        #expect(reply(post(body)) == .object(["error": .null, "result": .array([
            .int(6),
            .object(["result": .array(["Text", "Back Extra"]), "error": .null]),
            .object(["result": .null, "error": "valid api key must be provided"]),
            .object(["result": .null, "error": "a multi inside a multi is not answered"]),
        ])]))
    }

    @Test func aDaemonThatIsDownIsSaidInTheError() {
        let error = reply(post(#"{"action": "deckNames", "version": 6, "key": "\#(Self.key)"}"#))?["error"]?.stringValue ?? ""
        #expect(error.hasPrefix("deckNames: Nothing answers on '/run/test/leitnerd.sock'"))
    }

    @Test func yomitansHTMLBecomesMarkdownWithItsMedia() {
        let glossary = AnkiFieldText(html: #"""
            <div style="text-align: left;" class="yomitan-glossary"><ol><li data-dictionary="JMdict"><i>(v1, vt)</i> <span>to eat</span></li><li>to live&nbsp;on</li></ol></div><br><img src="yomitan_dictionary_media_1.png"> [sound:yomitan_audio_taberu.mp3]
            """#)
        #expect(glossary.markdown == "1. *(v1, vt)* to eat\n2. to live on\n\n![](yomitan_dictionary_media_1.png) [sound:yomitan_audio_taberu.mp3]")
        #expect(glossary.media == ["yomitan_dictionary_media_1.png", "yomitan_audio_taberu.mp3"])
        #expect(AnkiFieldText(html: "<ruby>漢<rp>(</rp><rt>かん</rt><rp>)</rp>字<rt>じ</rt></ruby>を<b>読む</b>").markdown == "漢(かん)字(じ)を**読む**")
        #expect(AnkiFieldText(html: "line one<br>line two<br/><ul><li>a</li><li>b</li></ul>after").markdown == "line one\nline two\n- a\n- b\n\nafter")
        // Markdown's marks in the text are escaped; a script's text is no text of the card.
        #expect(AnkiFieldText(html: "2 * 3 = _six_ <script>alert(1)</script>&lt;b&gt; &#x263A; &#9731;").markdown == "2 \\* 3 = \\_six\\_ <b> ☺ ☃")
        #expect(AnkiFieldText(html: "# not a heading").markdown == "\\# not a heading")
        // An image from a path or an address is no media of the card: its alt text stays, nothing is fetched.
        let remote = AnkiFieldText(html: #"<img src="https://example.com/x.png" alt="a cat"><img src="../x.png"> [sound:../../x.mp3]"#)
        #expect(remote.markdown == "a cat [sound:../../x.mp3]")
        #expect(remote.media.isEmpty)
        #expect(AnkiFieldText(html: "a < b and <unclosed").markdown == "a < b and <unclosed")
    }

    @Test func storedMediaNamesAreFileNamesWrittenBare() {
        #expect(AnkiActions.mediaName("yomitan_audio_食べる.mp3") == "yomitan_audio_食べる.mp3")
        #expect(AnkiActions.mediaName("../a b(1).png") == "_._a_b_1_.png")
        #expect(AnkiActions.mediaName(".hidden.mp3") == "_hidden.mp3")
    }

    @Test func aQuerysTerms() {
        #expect(AnkiActions.terms(#""deck:Japanese Words" "front:食べる""#) == ["deck:Japanese Words", "front:食べる"])
        #expect(AnkiActions.terms(#"nid:1,2  front:a\"b"#) == ["nid:1,2", "front:a\"b"])
    }
}
