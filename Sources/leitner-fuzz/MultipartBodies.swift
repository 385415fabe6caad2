/// Valid `multipart/form-data` requests to the add page (`POST /cards/new`), as a browser sends
/// its form with a photo or a drawing, made at random: each side text, Markdown, a photo or a
/// drawing; files whose bytes, names and types vary (a PNG, a JPEG's start, bytes that are no
/// picture, none at all); fields left out, repeated or holding any UTF-8; boundaries of 1 to 70
/// characters, quoted or not. Each is well formed, so that it reaches past the form's parser
/// (`MultipartForm`) into the page's own checks and the daemon's `Add`; the random phase may
/// still change its bytes after.
struct MultipartBodies {
    static let boundaryCharacters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'()+_,-./:=?")
    /// The smallest PNG: one pixel, as a canvas's `toBlob` makes one.
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1,
                               8, 6, 0, 0, 0, 0x1F, 0x15, 0xC4, 0x89, 0, 0, 0, 13, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8,
                               0xCF, 0xC0, 0xF0, 0x1F, 0, 0x05, 0, 0x01, 0xFF, 0x89, 0x99, 0x3D, 0x1D, 0, 0, 0, 0, 0x49, 0x45, 0x4E,
                               0x44, 0xAE, 0x42, 0x60, 0x82]
    static let jpegStart: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46, 0x49, 0x46, 0, 1]
    static let fileNames = ["photo.jpg", "IMG_2041.JPG", "drawing.png", "", "a\"b.png", "../../x.png", "photo", "ф.webp", "x.svg",
                            "x.gif", String(repeating: "n", count: 300) + ".png", "a;b=c.png"]
    static let fileTypes = ["image/jpeg", "image/png", "application/octet-stream", "image/svg+xml", "image/webp", "text/plain", ""]
    static let texts = ["hola", "", " ", "line\r\nline", "**bold** <b>x</b>", "# title\n\n- a\n- b", "猫 🐈", "\u{202E}rtl", "%00",
                        String(repeating: "w", count: 5000), "--", "\r\n--"]

    /// One request to the add page with `csrf` (usually right) and `cookie`.
    static func request(_ random: inout FuzzRandom, cookie: String, csrf: String) -> [UInt8] {
        let boundary = String((0..<random.int(1...70)).map { _ in random.pick(boundaryCharacters) })
        var parts: [(name: String, file: (name: String, type: String)?, content: [UInt8])] = []
        func field(_ name: String, _ value: String) { parts.append((name, nil, Array(value.utf8))) }
        field("csrf", random.chance(0.95) ? csrf : "00")
        for side in ["front", "back"] {
            let kind = random.pick(["text", "photo", "drawing", "text", "video"])
            if random.chance(0.9) { field("\(side)-kind", kind) }
            if random.chance(0.9) { field(side, random.pick(texts)) }
            if random.chance(0.3) { field("\(side)-markdown", random.pick(["yes", "no", ""])) }
            for file in ["photo", "drawing"] where kind == file || random.chance(0.2) {
                let content: [UInt8] = switch random.int(0...4) {
                case 0, 1: png
                case 2: jpegStart + random.bytes(random.int(0...2000))
                case 3: random.bytes(random.int(0...3000))
                default: []
                }
                parts.append(("\(side)-\(file)", (random.pick(fileNames), random.pick(fileTypes)), content))
            }
        }
        for (name, values) in [("tags", ["", "ja verbs", "a,b", "no tag!", "-x"]), ("level", ["", "1", "7", "new", "finished", "8", "x"]),
                               ("reverse", ["yes", "no"]), ("id", ["", "card-1", "new-card", "../x", "a b", "é"]), ("force", ["yes", ""])]
            where random.chance(0.6) {
            field(name, random.pick(values))
        }
        if random.chance(0.2) { parts.append(random.pick(parts)) }
        var body: [UInt8] = []
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
            if let file = part.file {
                head += "; filename=\"\(file.name.replacingQuotes)\""
                if !file.type.isEmpty { head += "\r\nContent-Type: \(file.type)" }
            }
            body += Array((head + "\r\n\r\n").utf8) + part.content + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        // Quoted when it must be (RFC 2045: a tspecial in it), else either way.
        let quoted = boundary.contains { "()<>@,;:\\\"/[]?=".contains($0) } || random.chance(0.5)
        let type = "multipart/form-data; boundary=" + (quoted ? "\"\(boundary)\"" : boundary)
        return Array("POST /cards/new HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(cookie)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
            + body
    }
}

extension String {
    /// A browser sends a quote in a file name as `%22`.
    var replacingQuotes: String { split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "%22") }
}
