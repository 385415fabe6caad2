/// SplitMix64: a small, fast generator whose sequence a seed fixes, so that a test's shuffle is
/// a function of its seed (R11). `package`: leitner-fuzz draws its calls from it, so that a seed
/// replays a run.
package struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A card's place in the shuffle of the test with `seed` (R11): FNV-1a over the id, mixed
    /// with the seed through one SplitMix64 step.
    static func key(seed: UInt64, id: String) -> UInt64 {
        var id = id
        return id.withUTF8 { key(seed: seed, bytes: $0) }
    }

    /// `key(seed:id:)` of an id given as its UTF-8 bytes: opening a test of 62,500 cards makes
    /// no string of their ids (docs/performance.md).
    static func key(seed: UInt64, bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        var generator = SeededGenerator(seed: seed ^ hash)
        return generator.next()
    }
}
