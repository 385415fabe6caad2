/// The modules of a QR symbol being drawn (`modules[y][x]`), and which of them are function
/// patterns (finders, timing, alignment, format and version information) that neither data nor
/// the mask touch.
struct Grid {
    var modules: [[Bool]]
    var isFunction: [[Bool]]
    let size: Int

    init(version: Int) {
        size = 17 + 4 * version
        modules = Array(repeating: Array(repeating: false, count: size), count: size)
        isFunction = modules
    }

    mutating func set(_ x: Int, _ y: Int, _ dark: Bool) {
        modules[y][x] = dark
        isFunction[y][x] = true
    }

    mutating func drawFunctionPatterns(version: Int) {
        for index in 0..<size {
            set(6, index, index % 2 == 0)
            set(index, 6, index % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            // The finder and its light separator: 9 × 9 around its centre, cut at the edges.
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
                    let distance = max(abs(dx), abs(dy))
                    set(x + dx, y + dy, distance != 2 && distance != 4)
                }
            }
        }
        let centres = QRCode.alignmentCentres(version)
        let last = centres.count - 1
        for (i, x) in centres.enumerated() {
            for (j, y) in centres.enumerated() where !(i == 0 && j == 0) && !(i == 0 && j == last) && !(i == last && j == 0) {
                for dy in -2...2 {
                    for dx in -2...2 { set(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        drawFormat(correction: .medium, mask: 0)  // reserves its modules; drawn for real after masking
        drawVersion(version)
    }

    /// The 15 bits of level and mask, BCH-protected, twice (beside the top-left finder, and split
    /// between the other two), and the dark module.
    mutating func drawFormat(correction: QRCode.Correction, mask: Int) {
        let data = correction.formatBits << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { set(8, index, bit(index)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for index in 9..<15 { set(14 - index, 8, bit(index)) }
        for index in 0..<8 { set(size - 1 - index, 8, bit(index)) }
        for index in 8..<15 { set(8, size - 15 + index, bit(index)) }
        set(8, size - 8, true)
    }

    /// From version 7 on, the version in 18 BCH-protected bits, beside two finders.
    mutating func drawVersion(_ version: Int) {
        guard version >= 7 else { return }
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        let bits = version << 12 | remainder
        for index in 0..<18 {
            let dark = (bits >> index) & 1 == 1
            let a = size - 11 + index % 3, b = index / 3
            set(a, b, dark)
            set(b, a, dark)
        }
    }

    /// The codewords' bits, two columns at a time from the bottom right, up and down in turn,
    /// around the function patterns and the vertical timing line.
    mutating func drawCodewords(_ codewords: [UInt8]) {
        var index = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for column in 0..<2 {
                    let x = right - column
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    guard !isFunction[y][x], index < codewords.count * 8 else { continue }
                    modules[y][x] = (codewords[index >> 3] >> (7 - (index & 7))) & 1 == 1
                    index += 1
                }
            }
            right -= 2
        }
    }

    mutating func applyMask(_ mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y][x] {
                let flip = switch mask {
                case 0: (x + y) % 2 == 0
                case 1: y % 2 == 0
                case 2: x % 3 == 0
                case 3: (x + y) % 3 == 0
                case 4: (x / 3 + y / 2) % 2 == 0
                case 5: x * y % 2 + x * y % 3 == 0
                case 6: (x * y % 2 + x * y % 3) % 2 == 0
                default: ((x + y) % 2 + x * y % 3) % 2 == 0
                }
                if flip { modules[y][x].toggle() }
            }
        }
    }

    /// The penalty of §7.8.3: runs of five or more alike, 2 × 2 blocks alike, finder-like
    /// patterns, and a share of dark modules far from half. The lowest chooses the mask.
    func penalty() -> Int {
        var total = 0
        let columns = (0..<size).map { x in (0..<size).map { modules[$0][x] } }
        let finderLike: [[Bool]] = [[true, false, true, true, true, false, true, false, false, false, false],
                                    [false, false, false, false, true, false, true, true, true, false, true]]
        for line in modules + columns {
            var run = 1
            for index in 1..<size {
                if line[index] == line[index - 1] {
                    run += 1
                } else {
                    if run >= 5 { total += run - 2 }
                    run = 1
                }
            }
            if run >= 5 { total += run - 2 }
            for start in 0...(size - 11) {
                for pattern in finderLike where Array(line[start..<start + 11]) == pattern { total += 40 }
            }
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let colour = modules[y][x]
                if modules[y][x + 1] == colour, modules[y + 1][x] == colour, modules[y + 1][x + 1] == colour { total += 3 }
            }
        }
        let dark = modules.reduce(0) { $0 + $1.filter { $0 }.count }
        let cells = size * size
        // k: how many 5 % steps the dark share is from 50 %.
        let k = (abs(dark * 20 - cells * 10) + cells - 1) / cells - 1
        total += max(0, k) * 10
        return total
    }
}
