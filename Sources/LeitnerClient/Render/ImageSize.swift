/// An image's size in pixels, read from its header (PNG, JPEG), and the cells it takes on a
/// terminal: the review gives an image room in lines before the terminal draws it.
public struct ImageSize: Equatable, Sendable {
    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The size in a PNG's `IHDR` or a JPEG's start-of-frame; nil for anything else.
    public init?(_ bytes: [UInt8]) {
        func big(_ at: Int, _ count: Int) -> Int {
            (at..<(at + count)).reduce(0) { $0 << 8 | Int(bytes[$1]) }
        }
        if bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self.init(width: big(16, 4), height: big(20, 4))
            return
        }
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        // JPEG: walk the segments to a start of frame (SOF0–SOF15 but DHT, JPG and DAC).
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                self.init(width: big(index + 7, 2), height: big(index + 5, 2))
                return
            }
            index += 2 + big(index + 2, 2)
        }
        return nil
    }

    /// The cells the image takes when fitted into `columns` × `rows`, its aspect ratio kept,
    /// a cell taken as twice as high as wide; never larger than the pixels at 8×16 a cell
    /// would need, so an icon stays small.
    public func cells(columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        guard width > 0, height > 0 else { return (max(1, min(columns, 1)), 1) }
        var fitColumns = max(1, min(columns, (width + 7) / 8))
        var fitRows = max(1, (fitColumns * height + width) / (2 * width))
        if fitRows > rows {
            fitRows = max(1, rows)
            fitColumns = max(1, min(fitColumns, (2 * fitRows * width + height / 2) / height))
        }
        return (fitColumns, fitRows)
    }
}
