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

    /// The file called `name`, if it is one of them.
    public static func file(named name: String) -> File? {
        [styleSheet, script].first { $0.name == name }
    }

    /// FNV-1a, 64 bits, in hexadecimal: enough to tell two versions of a file apart.
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
