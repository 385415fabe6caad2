/// The files leitner-web serves under `/static/`: compiled into the program, never read from
/// the disk. Each name carries a hash of its content, so a browser may keep it for a year and
/// still gets the new one after an upgrade.
public enum EmbeddedAssets {
    public struct File: Sendable {
        public let name: String
        public let contentType: String
        public let bytes: [UInt8]
    }

    public static let styleSheet = File(name: "app-\(hash(StyleSheet.text)).css", contentType: "text/css; charset=utf-8",
                                        bytes: Array(StyleSheet.text.utf8))
    public static let script = File(name: "app-\(hash(ReviewScript.text)).js", contentType: "text/javascript; charset=utf-8",
                                    bytes: Array(ReviewScript.text.utf8))

    /// The icons (`AppIcon`): an SVG for browsers that take one, PNGs for home screens.
    public static let iconSVG = File(name: "icon-\(hash(AppIcon.svg)).svg", contentType: "image/svg+xml", bytes: Array(AppIcon.svg.utf8))
    public static let icon192 = png(AppIcon.png(size: 192), size: 192)
    public static let icon512 = png(AppIcon.png(size: 512), size: 512)

    /// The web app manifest: "Add to Home Screen" gives an app of its own window (`standalone`)
    /// that opens on Today, in the pages' colours, with the icons above.
    public static let manifest: File = {
        let icons = [(icon192, "192x192"), (icon512, "512x512")].map { file, sizes in
            "{\"src\": \"/static/\(file.name)\", \"sizes\": \"\(sizes)\", \"type\": \"image/png\", \"purpose\": \"any maskable\"}"
        } + ["{\"src\": \"/static/\(iconSVG.name)\", \"sizes\": \"any\", \"type\": \"image/svg+xml\"}"]
        let text = """
            {
              "name": "Leitner box",
              "short_name": "Leitner",
              "description": "Today's test and the cards of a Leitner box.",
              "id": "/",
              "start_url": "/",
              "scope": "/",
              "display": "standalone",
              "orientation": "portrait",
              "theme_color": "\(AppIcon.theme)",
              "background_color": "\(AppIcon.background)",
              "icons": [
                \(icons.joined(separator: ",\n    "))
              ]
            }

            """
        return File(name: "manifest-\(hash(text)).webmanifest", contentType: "application/manifest+json", bytes: Array(text.utf8))
    }()

    /// The file called `name`, if it is one of them.
    public static func file(named name: String) -> File? {
        [styleSheet, script, manifest, iconSVG, icon192, icon512].first { $0.name == name }
    }

    private static func png(_ bytes: [UInt8], size: Int) -> File {
        File(name: "icon-\(size)-\(hash(bytes)).png", contentType: "image/png", bytes: bytes)
    }

    /// FNV-1a, 64 bits, in hexadecimal: enough to tell two versions of a file apart.
    static func hash(_ text: String) -> String {
        hash(Array(text.utf8))
    }

    static func hash(_ bytes: [UInt8]) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
