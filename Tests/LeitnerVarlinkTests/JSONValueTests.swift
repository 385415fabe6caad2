@testable import LeitnerVarlink
import Testing

@Suite struct JSONValueTests {
    func parse(_ text: String, maxDepth: Int = JSONValue.defaultMaxDepth) throws -> JSONValue {
        try JSONValue(parsing: text, maxDepth: maxDepth)
    }

    /// The error a malformed text gives; fails the test when it parses.
    func failure(_ bytes: [UInt8], maxDepth: Int = JSONValue.defaultMaxDepth,
                 sourceLocation: SourceLocation = #_sourceLocation) -> JSONParseError? {
        do {
            let value = try JSONValue(parsing: bytes, maxDepth: maxDepth)
            Issue.record("parsed as \(value)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    func failure(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONParseError? {
        failure(Array(text.utf8), sourceLocation: sourceLocation)
    }

    // MARK: Parsing

    @Test func scalars() throws {
        #expect(try parse("null") == .null)
        #expect(try parse("true") == .bool(true))
        #expect(try parse(" false\n") == .bool(false))
        #expect(try parse("\"hola\"") == .string("hola"))
        #expect(try parse("0") == .int(0))
        #expect(try parse("-0") == .int(0))
        #expect(try parse("42") == .int(42))
        #expect(try parse("-17") == .int(-17))
    }

    @Test func integersAndDoubles() throws {
        #expect(try parse("9223372036854775807") == .int(Int64.max))
        #expect(try parse("-9223372036854775808") == .int(Int64.min))
        // One past the range: a double, not an error and not a wrapped integer.
        #expect(try parse("9223372036854775808") == .double(9223372036854775808))
        #expect(try parse("-9223372036854775809") == .double(-9223372036854775808.0))
        #expect(try parse("1.5") == .double(1.5))
        #expect(try parse("1.0") == .double(1.0))
        #expect(try parse("1e3") == .double(1000))
        #expect(try parse("-2.5E-3") == .double(-0.0025))
        #expect(try parse("1E+2") == .double(100))
    }

    @Test func containers() throws {
        let value = try parse(#" { "a" : [1, 2.5, "x", null, true, {}], "b": {"c": []} } "#)
        #expect(value == ["a": [1, 2.5, "x", nil, true, [:]], "b": ["c": []]])
        #expect(value["a"]?[2]?.stringValue == "x")
        #expect(value["b"]?["c"]?.arrayValue == [])
        #expect(value["missing"] == nil)
    }

    @Test func escapes() throws {
        #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        #expect(try parse(#""\u00e9\u4E2D\u0000""#) == .string("é中\u{0}"))
        // A surrogate pair is one scalar (U+1F600).
        #expect(try parse(#""\uD83D\uDE00!""#) == .string("😀!"))
        #expect(try parse("\"ünï 😀\"") == .string("ünï 😀"))
    }

    // MARK: Malformed input

    @Test func truncated() {
        for text in ["", "   ", "{", "[1,", "{\"a\":", "\"abc", "tru", "-", "1.", "1e", "\"\\u12", "\"\\"] {
            let error = failure(text)
            #expect(error?.reason.contains("end of input") == true || error?.reason.contains("literal") == true,
                    "\(text): \(String(describing: error))")
        }
        #expect(failure("[1, 2")?.offset == 5)
    }

    @Test func trailingGarbage() {
        #expect(failure("{} x") == JSONParseError(offset: 3, reason: "trailing 'x' after the JSON value"))
        #expect(failure("1 2")?.offset == 2)
        #expect(failure("[1,]")?.reason == "unexpected ']', expected a value")
        #expect(failure("{\"a\":1,}")?.reason == "unexpected '}', expected a string key")
        #expect(failure("[1 2]")?.reason == "unexpected '2', expected ',' or ']' in an array")
    }

    @Test func badSyntax() {
        #expect(failure("01")?.reason == "leading zero in a number")
        #expect(failure("+1") != nil)
        #expect(failure(".5") != nil)
        #expect(failure("1.e5")?.reason == "unexpected 'e', expected a digit after '.'")
        #expect(failure("NaN") != nil)
        #expect(failure("Infinity") != nil)
        #expect(failure("nul") != nil)
        #expect(failure("{a:1}")?.reason == "unexpected 'a', expected a string key")
        #expect(failure("{\"a\" 1}")?.reason == "unexpected '1', expected ':' after an object key")
        #expect(failure("'x'") != nil)
        #expect(failure([0xEF, 0xBB, 0xBF] + Array("{}".utf8))?.offset == 0) // no byte-order mark
        #expect(failure("[1]\u{0B}")?.offset == 3) // vertical tab is not JSON whitespace
    }

    @Test func badEscapes() {
        #expect(failure(#""\x""#) == JSONParseError(offset: 1, reason: "invalid escape '\\x'"))
        #expect(failure(#""\u12G4""#)?.reason == "invalid hex digit 'G' in a \\u escape")
        #expect(failure(#""\U0041""#) != nil)
        #expect(failure("\"\\\u{1}\"") != nil)
    }

    @Test func loneSurrogates() {
        #expect(failure(#""\uD83D""#) == JSONParseError(offset: 1, reason: "lone high surrogate '\\uD83D'"))
        #expect(failure(#""ab\uD83Dx""#)?.reason == "lone high surrogate '\\uD83D'")
        #expect(failure(#""\uDE00""#)?.reason == "lone low surrogate '\\uDE00'")
        #expect(failure(#""\uD83D\u0041""#)?.reason == "high surrogate '\\uD83D' not followed by a low surrogate")
        #expect(failure(#""\uD83D\uD83D""#) != nil)
    }

    @Test func controlCharactersAndNUL() {
        #expect(failure([0x22, 0x61, 0x00, 0x22]) == JSONParseError(offset: 2, reason: "unescaped NUL byte in a string"))
        #expect(failure([0x22, 0x0A, 0x22])?.reason == "unescaped byte 0x0A in a string")
        #expect(failure([0x7B, 0x7D, 0x00])?.reason == "trailing NUL byte after the JSON value")
        #expect(failure([0x00])?.reason == "unexpected NUL byte, expected a value")
        // After an escape too.
        #expect(failure([0x22, 0x5C, 0x6E, 0x00, 0x22])?.offset == 3)
    }

    @Test func invalidUTF8() {
        #expect(failure([0x22, 0xFF, 0x22]) == JSONParseError(offset: 1, reason: "invalid UTF-8 byte 0xFF"))
        #expect(failure([0x22, 0xC0, 0xAF, 0x22]) != nil)       // overlong '/'
        #expect(failure([0x22, 0xED, 0xA0, 0x80, 0x22]) != nil) // encoded surrogate
        #expect(failure([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22]) != nil) // above U+10FFFF
        #expect(failure([0x22, 0xE4, 0xB8, 0x22])?.offset == 1) // truncated sequence
        #expect(failure([0x22, 0xC3])?.reason == "truncated UTF-8 sequence")
    }

    @Test func numbersOutOfRange() {
        #expect(failure("1e400") == JSONParseError(offset: 0, reason: "number '1e400' out of range"))
        #expect(failure("[-1e309]")?.offset == 1)
        #expect(failure("1" + String(repeating: "0", count: 400)) != nil)
    }

    @Test func depthLimit() throws {
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(try parse(deep) != .null)
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(failure(tooDeep) == JSONParseError(offset: 64, reason: "arrays and objects nested deeper than 64 levels"))
        #expect(failure(Array("{\"a\":{\"b\":1}}".utf8), maxDepth: 1)?.offset == 5)
        // A hostile message cannot exhaust the stack.
        #expect(failure(String(repeating: "[", count: 1_000_000)) != nil)
    }

    @Test func duplicateKeys() {
        #expect(failure(#"{"a":1,"a":2}"#) == JSONParseError(offset: 7, reason: "duplicate object key 'a'"))
    }

    // MARK: Serialising

    @Test func serializesCompactlyWithSortedKeys() {
        let value: JSONValue = ["b": [1, -2, 2.5, nil, true, false], "a": "x", "c": [:], "A": []]
        #expect(value.jsonText == #"{"A":[],"a":"x","b":[1,-2,2.5,null,true,false],"c":{}}"#)
        #expect(JSONValue.int(Int64.min).jsonText == "-9223372036854775808")
        #expect(JSONValue.int(Int64.max).jsonText == "9223372036854775807")
        #expect(JSONValue.int(0).jsonText == "0")
        #expect(JSONValue.double(.infinity).jsonText == "null")
        #expect(JSONValue.double(.nan).jsonText == "null")
    }

    @Test func escapesStringsWithoutRawNUL() {
        let text = JSONValue.string("q\"b\\n\n\r\t\u{8}\u{C}\u{0}\u{1F}\u{7F}é😀").jsonText
        #expect(text == #""q\"b\\n\n\r\t\b\f\u0000\u001f"# + "\u{7F}é😀\"")
        #expect(!JSONValue.object(["\u{0}": "\u{0}"]).serialized.contains(0))
        #expect(JSONValue.object(["k": "v"]).frame == Array(#"{"k":"v"}"#.utf8) + [0])
    }

    /// Writing skips plain runs eight bytes at a time too: a byte to escape is found at every
    /// offset of a word, and one that needs none (`~`, DEL, non-ASCII) is written as it is.
    @Test func writingEscapesAByteAtEveryOffset() {
        for offset in 0..<24 {
            let before = String(repeating: "a", count: offset), after = String(repeating: "b", count: 19)
            for (special, written) in [("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{0}", #"\u0000"#),
                                       ("\u{1F}", #"\u001f"#), ("~", "~"), ("\u{7F}", "\u{7F}"), ("é", "é"), ("\u{20}", " "), ("!", "!"), ("#", "#"), ("[", "["), ("]", "]")] {
                #expect(JSONValue.string(before + special + after).jsonText == "\"" + before + written + after + "\"",
                        "\(offset) \(written)")
            }
        }
    }

    @Test func roundTrips() throws {
        let values: [JSONValue] = [
            nil, true, 0, -1, .int(Int64.max), .int(Int64.min), 0.1, -1e-7, 1e300, 123456.789,
            "", "\u{0}\u{1}\"\\/ 😀 \u{10FFFF}", [], [:],
            ["card": ["id": "hola", "level": "2", "front": ["path": "/s/2/hola/front.txt", "text": nil]],
             "list": [1, [2, [3, ["x": []]]]]],
        ]
        for value in values {
            #expect(try JSONValue(parsing: value.serialized) == value, "\(value.jsonText)")
        }
    }

    @Test func parsesFromRawBuffer() throws {
        let bytes = Array(#"{"method":"io.leitner.Box.Status"}"#.utf8)
        let value = try bytes.withUnsafeBytes { try JSONValue(parsing: $0) }
        #expect(value["method"]?.stringValue == "io.leitner.Box.Status")
        #expect(throws: JSONParseError(offset: 0, reason: "unexpected end of input, expected a value")) {
            try JSONValue(parsing: UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }

    @Test func accessorsAreTyped() {
        let value: JSONValue = ["s": "x", "i": 3, "d": 3.0, "b": true, "n": nil]
        #expect(value["s"]?.stringValue == "x")
        #expect(value["s"]?.intValue == nil)
        #expect(value["i"]?.intValue == 3)
        #expect(value["d"]?.intValue == nil) // 3.0 is not an integer on the wire
        #expect(value["d"]?.doubleValue == 3)
        #expect(value["i"]?.doubleValue == 3)
        #expect(value["b"]?.boolValue == true)
        #expect(value["n"]?.isNull == true)
        #expect(value.objectValue?.count == 5)
        #expect(value["s"]?["x"] == nil)
        #expect(JSONValue.array([1])[1] == nil)
        #expect(JSONValue.array([]).kindName == "an array")
    }

    /// Plain runs are skipped eight bytes at a time: a byte that needs a look (a quote, a
    /// backslash, a control character, a non-ASCII one) is found at every offset in a word.
    @Test func longStringsWithASpecialByteAtEveryOffset() throws {
        for offset in 0..<24 {
            let before = String(repeating: "a", count: offset)
            let after = String(repeating: "b", count: 21)
            #expect(try JSONValue(parsing: "\"\(before)\\n\(after)\"") == .string(before + "\n" + after))
            #expect(try JSONValue(parsing: "[\"\(before)\",\"\(after)\"]") == .array([.string(before), .string(after)]))
            #expect(try JSONValue(parsing: "\"\(before)é\(after)\"") == .string(before + "é" + after))
            #expect(try JSONValue(parsing: "\"\(before)~\u{7F}\(after)\"") == .string(before + "~\u{7F}" + after))
            let control = Array("\"\(before)".utf8) + [0x1F] + Array("\(after)\"".utf8)
            #expect(throws: JSONParseError(offset: offset + 1, reason: "unescaped byte 0x1F in a string")) {
                try JSONValue(parsing: control)
            }
            let invalid = Array("\"\(before)".utf8) + [0xFF] + Array("\(after)\"".utf8)
            #expect(throws: JSONParseError(offset: offset + 1, reason: "invalid UTF-8 byte 0xFF")) {
                try JSONValue(parsing: invalid)
            }
        }
    }

    /// An escaped string is decoded into its own storage, sized by its written length; every
    /// kind of escape fits, and an error inside it still names its offset.
    @Test func longEscapedStrings() throws {
        let line = "line \\\"quoted\\\" \\u00e9 \\ud83d\\ude00 \\t end\\n"
        let decoded = "line \"quoted\" é 😀 \t end\n"
        let text = String(repeating: line, count: 5000)
        #expect(try JSONValue(parsing: "\"\(text)\"") == .string(String(repeating: decoded, count: 5000)))
        #expect(try JSONValue(parsing: "\"\\u00e9\"") == .string("é"))
        #expect(throws: JSONParseError(offset: 11, reason: "invalid escape '\\x'")) {
            try JSONValue(parsing: "\"abc\\n\\t\\\\ \\x\"")
        }
        #expect(throws: JSONParseError(offset: 6, reason: "unexpected end of input in a string")) {
            try JSONValue(parsing: "\"ab\\nc")
        }
    }
}

