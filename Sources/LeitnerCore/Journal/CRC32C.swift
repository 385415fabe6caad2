/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of the journal's records:
/// it tells a whole record from one a crash tore or from bytes left over by an older one.
enum CRC32C {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0x82F6_3B78 : value >> 1 }
        return value
    }

    /// The checksum of `bytes`, continuing from `previous` (the checksum of what came before).
    static func checksum(_ bytes: some Sequence<UInt8>, continuing previous: UInt32 = 0) -> UInt32 {
        var crc = ~previous
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }
}
