/// The app's icon, drawn in code: a Leitner box seen from the front — five compartments of rising
/// height, the last (the cards learnt) in amber — white on the pages' blue. The SVG and the PNGs
/// (192 and 512 pixels, the sizes a home screen asks for) draw the same rectangles. Its content
/// stays inside the middle 80 %, so a launcher's mask (a circle, a squircle) cuts none of it.
enum AppIcon {
    /// The pages' accent, the theme colour the manifest and `<meta name="theme-color">` give.
    static let theme = "#0969da"
    static let background = "#f6f8fa"

    /// The compartments: left, top, width, height, in hundredths of the side; the last is amber.
    static let bars: [(x: Int, y: Int, width: Int, height: Int)] = [
        (22, 56, 9, 22), (34, 48, 9, 30), (46, 40, 9, 38), (58, 32, 9, 46), (70, 24, 9, 54),
    ]

    static let svg: String = {
        var text = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 100 100\">"
        text += "<rect width=\"100\" height=\"100\" fill=\"\(theme)\"/>"
        for (index, bar) in bars.enumerated() {
            let fill = index == bars.count - 1 ? "#f2b134" : "#ffffff"
            text += "<rect x=\"\(bar.x)\" y=\"\(bar.y)\" width=\"\(bar.width)\" height=\"\(bar.height)\" rx=\"1.5\" fill=\"\(fill)\"/>"
        }
        return text + "</svg>\n"
    }()

    /// The icon as a PNG `size` pixels square.
    static func png(size: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: size * size)
        for (index, bar) in bars.enumerated() {
            let colour: UInt8 = index == bars.count - 1 ? 2 : 1
            let left = bar.x * size / 100, right = (bar.x + bar.width) * size / 100
            let top = bar.y * size / 100, bottom = (bar.y + bar.height) * size / 100
            for y in top..<bottom {
                for x in left..<right { pixels[y * size + x] = colour }
            }
        }
        return PNGImage.encode(width: size, height: size, palette: [(0x09, 0x69, 0xDA), (0xFF, 0xFF, 0xFF), (0xF2, 0xB1, 0x34)],
                               pixels: pixels)
    }
}
