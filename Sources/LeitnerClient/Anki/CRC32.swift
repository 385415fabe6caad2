/// CRC-32 of ISO 3309 (the reflected polynomial 0xEDB88320), as a zip entry and a PNG chunk
/// carry it: a zip's stored medium read in place is checked with it, as `unzip` checks each
/// entry it writes.
public enum CRC32 {
    /// One byte's step of the division, for each byte value.
    private static let table: [UInt32] = (0..<256).map { (value: Int) -> UInt32 in
        var crc = UInt32(value)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        return crc
    }

    /// The checksum of `bytes`.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }
}
