import Testing
@testable import LeitnerCore

/// CRC-32C taken eight bytes at a time from contiguous bytes gives what the byte-at-a-time
/// reading gives (the journal's records, the checks of the logs' marks, the published files' seals).
@Suite struct CRC32CTests {
    @Test func theCheckValueOfTheStandard() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([UInt8]()) == 0)
    }

    /// Contiguous bytes (an array, a slice) against the same bytes as a sequence with no
    /// contiguous storage, at every length up to 70 and a few long ones, from any start and
    /// continuing any checksum.
    @Test func eightAtATimeAgreesWithOneAtATime() {
        var random = SeededGenerator(seed: 40)
        for length in Array(0...70) + [1_000, 4_099, 65_543] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let previous = UInt32.random(in: 0...UInt32.max, using: &random)
            let oneAtATime = CRC32C.checksum(bytes.lazy.map { $0 }, continuing: previous)
            #expect(CRC32C.checksum(bytes, continuing: previous) == oneAtATime, "length \(length)")
            let start = length / 3
            #expect(CRC32C.checksum(bytes[start...], continuing: previous) == CRC32C.checksum(bytes[start...].lazy.map { $0 }, continuing: previous))
            #expect(CRC32C.checksum(bytes[start...], continuing: CRC32C.checksum(bytes[..<start])) == CRC32C.checksum(bytes))
        }
    }
}
