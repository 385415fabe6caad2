/// Plain text from the HTML of Anki fields (`#html:true`): line breaks for `<br>` and block
/// ends, other tags dropped, character references decoded.
public enum HTMLText {
    static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}",
    ]
    static let breaking: Set<String> = ["br", "/div", "/p", "/li", "/tr", "/h1", "/h2", "/h3"]

    /// `text` made safe inside an HTML element or a quoted attribute: the five characters that
    /// could end either are written as references, and a NUL (which a browser reads as U+FFFD
    /// anyway) as U+FFFD. The statistics report and leitner-web's pages both escape with this.
    ///
    /// The six are ASCII, so the text is escaped as UTF-8 bytes, and text without any (nearly
    /// all of a page) is returned as it is: a character at a time, this was a fifth of the
    /// statistics page's time.
    public static func escape(_ text: some StringProtocol) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 < 0x40 && escapes($0) }) else { return String(text) }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + 16)
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "&"): out += "&amp;".utf8
            case UInt8(ascii: "<"): out += "&lt;".utf8
            case UInt8(ascii: ">"): out += "&gt;".utf8
            case UInt8(ascii: "\""): out += "&quot;".utf8
            case UInt8(ascii: "'"): out += "&#39;".utf8
            case 0: out += "\u{FFFD}".utf8
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// True for the bytes `escape` writes otherwise.
    private static func escapes(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"), 0: true
        default: false
        }
    }

    /// The start of a page up to its `<title>` (escaped here) and `extraHead`, then `</head>` and
    /// `<body>`: UTF-8, English, a phone's width. The statistics report and leitner-web's pages
    /// begin with it.
    public static func pageStart(title: String, extraHead: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        \(extraHead)
        </head>
        <body>

        """
    }

    /// The text of `html`.
    public static func plain(_ html: String) -> String {
        var out = ""
        var i = html.startIndex
        while i < html.endIndex {
            let c = html[i]
            if c == "<", let close = html[i...].firstIndex(of: ">") {
                let tag = html[html.index(after: i)..<close].lowercased()
                let name = String(tag.prefix { !$0.isWhitespace && $0 != "/" || ($0 == "/" && tag.hasPrefix("/")) })
                if breaking.contains(name) || name == "br/" { out += "\n" }
                i = html.index(after: close)
            } else if c == "&", let semicolon = html[i...].prefix(12).firstIndex(of: ";"),
                      let decoded = entity(String(html[html.index(after: i)..<semicolon])) {
                out += decoded
                i = html.index(after: semicolon)
            } else {
                out.append(c)
                i = html.index(after: i)
            }
        }
        while out.hasSuffix("\n") { out.removeLast() }
        return out
    }

    static func entity(_ name: String) -> String? {
        if let text = named[name] { return text }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
        return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
    }
}
