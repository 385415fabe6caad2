import LeitnerWeb
import Testing

@Suite struct PercentEncodingTests {
    @Test func segmentsAreDecoded() {
        #expect(PercentEncoding.pathSegments("/") == [])
        #expect(PercentEncoding.pathSegments("/cards/") == ["cards"])
        #expect(PercentEncoding.pathSegments("/cards/caf%C3%A9%20x") == ["cards", "café x"])
    }

    @Test(arguments: ["/..", "/cards/..", "/cards/%2e%2e", "/cards/.", "/a%2Fb", "/a%2fb", "/a%5cb", "/a%00b",
                      "//x", "/a//b", "/a%zz", "/a%4", "/%C3", "cards", "/a\\b"])
    func trickyPathsAreRefused(_ path: String) {
        #expect(PercentEncoding.pathSegments(path) == nil)
    }

    @Test func formFields() {
        #expect(PercentEncoding.formFields("a=1+2&b=%26%3D&c&a=second") == ["a": "1 2", "b": "&=", "c": ""])
        #expect(PercentEncoding.formFields("a=%") == nil)
        #expect(PercentEncoding.formFields("a=%ff") == nil)
        #expect(PercentEncoding.formFields("") == [:])
    }

    @Test func encodeRoundTrips() {
        for text in ["word00", "a b/c?d#e&f=g", "café", "%2F", "..x"] {
            #expect(PercentEncoding.decode(PercentEncoding.encode(text), plusIsSpace: false) == text)
            #expect(!PercentEncoding.encode(text).contains("/"))
        }
    }
}
