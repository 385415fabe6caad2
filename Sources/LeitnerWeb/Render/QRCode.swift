/// A QR code (ISO/IEC 18004) of some bytes, for the pairing link a phone scans: byte mode, error
/// correction level M (15 % of the symbol may be lost) or L, versions 1 to 10 (21 to 57 modules,
/// up to 213 bytes at M: a link with a long name still fits). Our own encoder, so that
/// `leitnerctl web` draws it on any terminal without a library or `qrencode`.
public struct QRCode: Sendable, Equatable {
    public enum Correction: Sendable {
        case low, medium

        /// The two bits of the format information (L is 01, M is 00).
        var formatBits: Int { self == .low ? 1 : 0 }
    }

    /// Rows of modules, true for dark; `size` × `size`, without the quiet zone.
    public let modules: [[Bool]]
    public let version: Int
    public let mask: Int
    public var size: Int { modules.count }

    /// Error correction blocks of a version and level: the EC codewords per block, and the data
    /// codewords of each block in order (ISO/IEC 18004, table 9).
    struct Blocks {
        let ecPerBlock: Int
        let dataPerBlock: [Int]
        var dataCount: Int { dataPerBlock.reduce(0, +) }
    }

    static func blocks(version: Int, correction: Correction) -> Blocks {
        func repeated(_ groups: (Int, Int)...) -> [Int] { groups.flatMap { Array(repeating: $0.1, count: $0.0) } }
        switch correction {
        case .low:
            return [Blocks(ecPerBlock: 7, dataPerBlock: [19]), Blocks(ecPerBlock: 10, dataPerBlock: [34]),
                    Blocks(ecPerBlock: 15, dataPerBlock: [55]), Blocks(ecPerBlock: 20, dataPerBlock: [80]),
                    Blocks(ecPerBlock: 26, dataPerBlock: [108]), Blocks(ecPerBlock: 18, dataPerBlock: repeated((2, 68))),
                    Blocks(ecPerBlock: 20, dataPerBlock: repeated((2, 78))), Blocks(ecPerBlock: 24, dataPerBlock: repeated((2, 97))),
                    Blocks(ecPerBlock: 30, dataPerBlock: repeated((2, 116))),
                    Blocks(ecPerBlock: 18, dataPerBlock: repeated((2, 68), (2, 69)))][version - 1]
        case .medium:
            return [Blocks(ecPerBlock: 10, dataPerBlock: [16]), Blocks(ecPerBlock: 16, dataPerBlock: [28]),
                    Blocks(ecPerBlock: 26, dataPerBlock: [44]), Blocks(ecPerBlock: 18, dataPerBlock: repeated((2, 32))),
                    Blocks(ecPerBlock: 24, dataPerBlock: repeated((2, 43))), Blocks(ecPerBlock: 16, dataPerBlock: repeated((4, 27))),
                    Blocks(ecPerBlock: 18, dataPerBlock: repeated((4, 31))), Blocks(ecPerBlock: 22, dataPerBlock: repeated((2, 38), (2, 39))),
                    Blocks(ecPerBlock: 22, dataPerBlock: repeated((3, 36), (2, 37))),
                    Blocks(ecPerBlock: 26, dataPerBlock: repeated((4, 43), (1, 44)))][version - 1]
        }
    }

    static let maxVersion = 10

    /// The centres of the alignment patterns along each axis (table E.1).
    static func alignmentCentres(_ version: Int) -> [Int] {
        [[], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]][version - 1]
    }

    /// The smallest symbol that holds `bytes`; nil when they are more than version 10 holds.
    /// `mask` forces a mask pattern (0–7, for tests against another encoder); else the one with
    /// the lowest penalty is chosen.
    public init?(_ bytes: [UInt8], correction: Correction = .medium, mask forced: Int? = nil) {
        guard let version = (1...Self.maxVersion).first(where: { Self.dataBits(bytes.count, version: $0) <= Self.blocks(version: $0, correction: correction).dataCount * 8 }) else {
            return nil
        }
        let codewords = Self.codewords(bytes, version: version, correction: correction)
        var grid = Grid(version: version)
        grid.drawFunctionPatterns(version: version)
        grid.drawCodewords(codewords)
        var best: (penalty: Int, mask: Int, modules: [[Bool]])?
        for mask in forced.map({ [$0] }) ?? Array(0..<8) {
            var candidate = grid
            candidate.applyMask(mask)
            candidate.drawFormat(correction: correction, mask: mask)
            let penalty = forced == nil ? candidate.penalty() : 0
            if best == nil || penalty < best!.penalty { best = (penalty, mask, candidate.modules) }
        }
        self.version = version
        self.mask = best!.mask
        modules = best!.modules
    }

    /// The bits a byte-mode segment of `count` bytes takes: the mode, the count, the bytes.
    static func dataBits(_ count: Int, version: Int) -> Int {
        4 + (version <= 9 ? 8 : 16) + 8 * count
    }

    /// The data codewords (mode, count, bytes, terminator, padding) split into blocks, each with
    /// its Reed–Solomon codewords, interleaved as the symbol holds them.
    static func codewords(_ bytes: [UInt8], version: Int, correction: Correction) -> [UInt8] {
        let blocks = blocks(version: version, correction: correction)
        let data = dataCodewords(bytes, version: version, capacity: blocks.dataCount)
        var split: [[UInt8]] = []
        var start = 0
        for count in blocks.dataPerBlock {
            split.append(Array(data[start..<start + count]))
            start += count
        }
        let divisor = ReedSolomon.divisor(degree: blocks.ecPerBlock)
        let ec = split.map { ReedSolomon.remainder($0, divisor: divisor) }
        var out: [UInt8] = []
        for index in 0..<(blocks.dataPerBlock.max() ?? 0) {
            for block in split where index < block.count { out.append(block[index]) }
        }
        for index in 0..<blocks.ecPerBlock {
            for block in ec { out.append(block[index]) }
        }
        return out
    }

    static func dataCodewords(_ bytes: [UInt8], version: Int, capacity: Int) -> [UInt8] {
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
        }
        append(0b0100, 4)
        append(bytes.count, version <= 9 ? 8 : 16)
        for byte in bytes { append(Int(byte), 8) }
        append(0, min(4, capacity * 8 - bits.count))
        if bits.count % 8 != 0 { append(0, 8 - bits.count % 8) }
        var out: [UInt8] = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while out.count < capacity {
            out.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return out
    }
}

/// Reed–Solomon over GF(2⁸) with the polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D), as QR codes use.
enum ReedSolomon {
    static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var z = 0
        for shift in stride(from: 7, through: 0, by: -1) {
            z = (z << 1) ^ ((z >> 7) * 0x11D)
            z ^= ((Int(y) >> shift) & 1) * Int(x)
        }
        return UInt8(z)
    }

    /// The generator polynomial of `degree` (its coefficients, highest first, without the leading 1).
    static func divisor(degree: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: degree)
        result[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for index in 0..<degree {
                result[index] = multiply(result[index], root)
                if index + 1 < degree { result[index] ^= result[index + 1] }
            }
            root = multiply(root, 2)
        }
        return result
    }

    static func remainder(_ data: [UInt8], divisor: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: divisor.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for index in result.indices { result[index] ^= multiply(divisor[index], factor) }
        }
        return result
    }
}
