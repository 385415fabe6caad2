/// A QR code drawn with text: each character is two modules, one above the other (`▀`, `▄`, `█`
/// or a space; dark is drawn), with a quiet zone of four light modules around it. On a terminal
/// (`colours`) it is black on white whatever the terminal's own colours, as a scanner needs; in a
/// pipe the characters alone, which a test reads back into modules.
public enum TerminalQR {
    public static let quietZone = 4

    public static func text(for link: String, colours: Bool) -> String {
        guard let code = QRCode(Array(link.utf8)) else {
            return "(The link is too long for a QR code: type it.)\n"
        }
        let size = code.size + 2 * quietZone
        func dark(_ x: Int, _ y: Int) -> Bool {
            let (cx, cy) = (x - quietZone, y - quietZone)
            return (0..<code.size).contains(cx) && (0..<code.size).contains(cy) && code.modules[cy][cx]
        }
        var out = ""
        for y in stride(from: 0, to: size, by: 2) {
            if colours { out += "\u{1B}[38;5;16;48;5;231m" }
            for x in 0..<size {
                let cell = switch (dark(x, y), dark(x, y + 1)) {
                case (true, true): "█"
                case (true, false): "▀"
                case (false, true): "▄"
                case (false, false): " "
                }
                out += cell
            }
            out += colours ? "\u{1B}[0m\n" : "\n"
        }
        return out
    }
}
