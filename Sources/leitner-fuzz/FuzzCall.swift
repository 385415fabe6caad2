import LeitnerProtocol
import LeitnerVarlink

/// One call the fuzzer sends, held as JSON text rather than as a `JSONValue`: an edge value may be
/// text no `JSONValue` holds (a lone surrogate, `\u0000`), and the daemon must answer it all
/// the same.
struct FuzzCall {
    /// The qualified method name, `io.leitner.Box.Grade`.
    var method: String
    /// Each parameter's JSON text, in the order sent.
    var parameters: [(name: String, json: String)]
    /// Varlink's `more`: a streamed reply comes in parts.
    var more = false
    /// What the call is for, printed with a failure: `edge answerMs=-1`, `random`.
    var purpose: String

    /// The message's bytes, without the NUL that ends it.
    var message: [UInt8] {
        var text = "{\"method\":" + JSONValue.string(method).jsonText + ",\"parameters\":{"
        text += parameters.map { JSONValue.string($0.name).jsonText + ":" + $0.json }.joined(separator: ",")
        text += "}"
        if more { text += ",\"more\":true" }
        return Array((text + "}").utf8)
    }

    /// The call as printed with a failure and in the replay line: long values cut short.
    var summary: String {
        let text = String(decoding: message, as: UTF8.self)
        guard text.utf8.count > 400 else { return text }
        return String(text.prefix(400)) + "… (\(text.utf8.count) bytes)"
    }

    /// The method's short name, `Grade`.
    var shortName: Substring { method[method.index(after: method.lastIndex(of: ".")!)...] }
}
