/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of the journal's records:
/// it tells a whole record from one a crash tore or from bytes left over by an older one.
enum CRC32C {
    /// Eight tables of 256: the first the byte-at-a-time table, each next one a byte further on,
    /// so that contiguous bytes are taken eight at a time (the files published beside a log are
    /// megabytes, read at a start, `PublishedHistory`).
    private static let tables: [UInt32] = {
        var tables = (0..<256).map { index in
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0x82F6_3B78 : value >> 1 }
            return value
        }
        for slice in 1..<8 {
            for index in 0..<256 {
                let before = tables[(slice - 1) * 256 + index]
                tables.append((before >> 8) ^ tables[Int(before & 0xFF)])
            }
        }
        return tables
    }()

    /// The checksum of `bytes`, continuing from `previous` (the checksum of what came before).
    static func checksum(_ bytes: some Sequence<UInt8>, continuing previous: UInt32 = 0) -> UInt32 {
        if let sum = bytes.withContiguousStorageIfAvailable({ checksum(buffer: $0, continuing: previous) }) { return sum }
        var crc = ~previous
        tables.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return ~crc
    }

    private static func checksum(buffer bytes: UnsafeBufferPointer<UInt8>, continuing previous: UInt32) -> UInt32 {
        var crc = ~previous
        tables.withUnsafeBufferPointer { table in
            var at = 0
            while at + 8 <= bytes.count {
                let low = crc ^ (UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24)
                crc = table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int(low >> 8 & 0xFF)]
                    ^ table[5 * 256 + Int(low >> 16 & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(bytes[at + 4])] ^ table[2 * 256 + Int(bytes[at + 5])]
                    ^ table[256 + Int(bytes[at + 6])] ^ table[Int(bytes[at + 7])]
                at += 8
            }
            while at < bytes.count {
                crc = table[Int((crc ^ UInt32(bytes[at])) & 0xFF)] ^ (crc >> 8)
                at += 1
            }
        }
        return ~crc
    }
}
