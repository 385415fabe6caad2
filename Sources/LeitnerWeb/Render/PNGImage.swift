import LeitnerClient

/// A PNG file (RFC 2083) of a paletted image, for the app's icons, which are drawn in code rather
/// than kept as binary files: one byte a pixel (an index into at most 256 colours), compressed
/// with deflate's fixed Huffman codes and runs of the pixel before (distance 1). Flat shapes, as an
/// icon is, shrink to a few kilobytes that way; nothing more of deflate is needed.
enum PNGImage {
    static func encode(width: Int, height: Int, palette: [(UInt8, UInt8, UInt8)], pixels: [UInt8]) -> [UInt8] {
        precondition(pixels.count == width * height && !palette.isEmpty && palette.count <= 256)
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, 3, 0, 0, 0]  // 8 bits an index, paletted, deflate, filter 0, no interlace
        file += chunk("IHDR", header)
        file += chunk("PLTE", palette.flatMap { [$0.0, $0.1, $0.2] })
        // Each row starts with its filter type: 0, none.
        var rows: [UInt8] = []
        rows.reserveCapacity((width + 1) * height)
        for y in 0..<height {
            rows.append(0)
            rows += pixels[(y * width)..<((y + 1) * width)]
        }
        file += chunk("IDAT", zlib(rows))
        file += chunk("IEND", [])
        return file
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(CRC32.checksum(typed))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// A zlib stream (RFC 1950) of one deflate block (RFC 1951) with the fixed codes.
    static func zlib(_ data: [UInt8]) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1)  // the final block
        bits.write(1, count: 2)  // fixed Huffman codes
        var index = 0
        while index < data.count {
            var run = 0
            if index > 0 {
                while run < 258, index + run < data.count, data[index + run] == data[index - 1] { run += 1 }
            }
            if run >= 3 {
                bits.length(run)
                bits.write(0, count: 5)  // distance code 0: distance 1, no extra bits
                index += run
            } else {
                bits.literal(Int(data[index]))
                index += 1
            }
        }
        bits.literal(256)  // end of block
        var adlerA: UInt32 = 1, adlerB: UInt32 = 0
        for byte in data {
            adlerA = (adlerA + UInt32(byte)) % 65521
            adlerB = (adlerB + adlerA) % 65521
        }
        return [0x78, 0x01] + bits.bytes() + bigEndian(adlerB << 16 | adlerA)
    }

    /// Bits packed from the least significant end of each byte, as deflate reads them; a Huffman
    /// code goes most significant bit first.
    struct BitWriter {
        private var out: [UInt8] = []
        private var current: UInt32 = 0
        private var filled = 0

        mutating func write(_ value: Int, count: Int) {
            for shift in 0..<count { push(value >> shift & 1) }
        }

        mutating func code(_ value: Int, count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) { push(value >> shift & 1) }
        }

        private mutating func push(_ bit: Int) {
            current |= UInt32(bit) << filled
            filled += 1
            if filled == 8 {
                out.append(UInt8(current))
                current = 0
                filled = 0
            }
        }

        /// A literal byte or the end of the block (256), or a length's symbol (257–285), in the fixed code.
        mutating func literal(_ symbol: Int) {
            switch symbol {
            case 0...143: code(0x30 + symbol, count: 8)
            case 144...255: code(0x190 + symbol - 144, count: 9)
            case 256...279: code(symbol - 256, count: 7)
            default: code(0xC0 + symbol - 280, count: 8)
            }
        }

        static let lengthBases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
        static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]

        /// A match's length, 3 to 258: its symbol and extra bits.
        mutating func length(_ length: Int) {
            let index = Self.lengthBases.lastIndex { $0 <= length }!
            literal(257 + index)
            write(length - Self.lengthBases[index], count: Self.lengthExtra[index])
        }

        func bytes() -> [UInt8] {
            filled > 0 ? out + [UInt8(current)] : out
        }
    }
}
